// OpenSSL 3 libcrypto for Swift. Macros and casting stacks do not import; re-export them here
// as static inline functions. Only Sources/Crypto imports this module.
#ifndef EXHIBIT_COPENSSL_SHIM_H
#define EXHIBIT_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/kdf.h>
#include <openssl/ts.h>
#include <openssl/cms.h>
#include <openssl/pkcs7.h>
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/obj_mac.h>

static inline STACK_OF(X509) *exhibit_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int exhibit_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline int exhibit_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *exhibit_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline void exhibit_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline void exhibit_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }
static inline void exhibit_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline unsigned long exhibit_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }
static inline int exhibit_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *sk) { return sk_ASN1_OBJECT_num(sk); }
static inline ASN1_OBJECT *exhibit_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *sk, int i) { return sk_ASN1_OBJECT_value(sk, i); }
static inline void exhibit_sk_ASN1_OBJECT_pop_free(STACK_OF(ASN1_OBJECT) *sk) { sk_ASN1_OBJECT_pop_free(sk, ASN1_OBJECT_free); }
static inline int exhibit_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *sk) { return sk_CMS_SignerInfo_num(sk); }
static inline CMS_SignerInfo *exhibit_sk_CMS_SignerInfo_value(STACK_OF(CMS_SignerInfo) *sk, int i) { return sk_CMS_SignerInfo_value(sk, i); }
static inline int exhibit_X509_up_ref(X509 *x) { return X509_up_ref(x); }
/* An X509V3_CTX on the heap, so Swift never has to know its layout. */
static inline X509V3_CTX *exhibit_X509V3_CTX_new(void) { return (X509V3_CTX *)OPENSSL_zalloc(sizeof(X509V3_CTX)); }
#endif
