import Foundation
import COpenSSL

/// HKDF (RFC 5869) through OpenSSL's EVP_KDF.
public enum HKDF {
    /// HKDF-Extract-and-Expand with SHA-256. An empty salt means the RFC's zero-filled salt.
    public static func sha256(key: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws(OpenSSLError) -> [UInt8] {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw OpenSSLError("EVP_KDF_fetch(HKDF)") }
        defer { EVP_KDF_free(kdf) }
        guard let kctx = EVP_KDF_CTX_new(kdf) else { throw OpenSSLError("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(kctx) }
        var out = [UInt8](repeating: 0, count: length)
        var key = key, salt = salt, info = info
        var digestName = Array("SHA256".utf8CString)
        // OSSL_PARAM keeps the key pointers, so they must outlive the call: a Swift String
        // passed as `const char *` is a temporary that dangles once the constructor returns.
        let names = ParamNames()
        defer { withExtendedLifetime(names) {} }
        let rc: Int32 = digestName.withUnsafeMutableBufferPointer { dn in
            key.withUnsafeMutableBytes { k in
                salt.withUnsafeMutableBytes { s in
                    info.withUnsafeMutableBytes { i in
                        var params: [OSSL_PARAM] = [
                            OSSL_PARAM_construct_utf8_string(names.digest, dn.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(names.key, k.baseAddress, k.count),
                            OSSL_PARAM_construct_octet_string(names.info, i.baseAddress, i.count),
                        ]
                        if s.count > 0 {
                            params.append(OSSL_PARAM_construct_octet_string(names.salt, s.baseAddress, s.count))
                        }
                        params.append(OSSL_PARAM_construct_end())
                        return EVP_KDF_derive(kctx, &out, length, &params)
                    }
                }
            }
        }
        guard rc == 1 else { throw OpenSSLError("EVP_KDF_derive(HKDF)") }
        return out
    }
}

/// C copies of the OSSL_PARAM key names, alive as long as this object.
private final class ParamNames {
    let digest = strdup(OSSL_KDF_PARAM_DIGEST)
    let key = strdup(OSSL_KDF_PARAM_KEY)
    let info = strdup(OSSL_KDF_PARAM_INFO)
    let salt = strdup(OSSL_KDF_PARAM_SALT)

    deinit { free(digest); free(key); free(info); free(salt) }
}
