#ifndef VTOURIST_CCURL_SHIM_H
#define VTOURIST_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which
// Swift cannot call: one typed wrapper per argument type.

static inline CURLcode vt_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode vt_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode vt_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode vt_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode vt_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}

// Also used for CURLOPT_HEADERFUNCTION, which has the same signature.
static inline CURLcode vt_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode vt_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode vt_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode vt_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode vt_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLMcode vt_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

// CURL_GLOBAL_DEFAULT is a macro built from other macros.
static inline CURLcode vt_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

// CURLMsg keeps the result in an anonymous union.
static inline CURLcode vt_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
