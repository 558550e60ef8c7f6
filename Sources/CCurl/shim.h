// libcurl (OpenSSL flavour, libcurl4-openssl-dev) for Swift. curl_easy_setopt and
// curl_easy_getinfo are variadic and do not import: one typed static inline wrapper per
// argument kind. Only Sources/HTTP imports this module.
#ifndef EXHIBIT_CCURL_SHIM_H
#define EXHIBIT_CCURL_SHIM_H
#include <curl/curl.h>

/// CURLOPT_READFUNCTION, CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION.
typedef size_t (*exhibit_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);
/// CURLOPT_SEEKFUNCTION.
typedef int (*exhibit_curl_seek_callback)(void *context, curl_off_t offset, int origin);

static inline CURLcode exhibit_curl_setopt_long(CURL *h, CURLoption option, long value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode exhibit_curl_setopt_off(CURL *h, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(h, option, value);
}
/// libcurl copies the string (CURLOPT_URL, CURLOPT_CUSTOMREQUEST, CURLOPT_PROXY, …).
static inline CURLcode exhibit_curl_setopt_string(CURL *h, CURLoption option, const char *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode exhibit_curl_setopt_pointer(CURL *h, CURLoption option, void *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode exhibit_curl_setopt_slist(CURL *h, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode exhibit_curl_setopt_data_callback(CURL *h, CURLoption option, exhibit_curl_data_callback value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode exhibit_curl_setopt_seek_callback(CURL *h, exhibit_curl_seek_callback value) {
    return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, value);
}
static inline CURLcode exhibit_curl_getinfo_long(CURL *h, CURLINFO info, long *value) {
    return curl_easy_getinfo(h, info, value);
}
static inline CURLcode exhibit_curl_getinfo_off(CURL *h, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(h, info, value);
}

/* Return values of the callbacks, as constants Swift can see. */
static const size_t exhibit_curl_readfunc_abort = CURL_READFUNC_ABORT;
static const int exhibit_curl_seekfunc_ok = CURL_SEEKFUNC_OK;
static const int exhibit_curl_seekfunc_cantseek = CURL_SEEKFUNC_CANTSEEK;
static const long exhibit_curl_global_default = CURL_GLOBAL_DEFAULT;
#endif
