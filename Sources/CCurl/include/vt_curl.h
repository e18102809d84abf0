#ifndef VTOURIST_CCURL_H
#define VTOURIST_CCURL_H
#include <curl/curl.h>

// libcurl is opened (dlopen) the first time one of these is called, not when vtourist
// starts: with its TLS, Kerberos, LDAP and SSH libraries it costs about 5 ms of start-up,
// which commands that never touch the network (render, pins) should not pay.
// If it cannot be opened, every call fails as libcurl would when out of resources
// (NULL, CURLE_FAILED_INIT, CURLM_INTERNAL_ERROR, CURLUE_OUT_OF_MEMORY) and
// vt_curl_load_error says why.

/// NULL once libcurl is loaded (or loads now); otherwise why it could not be.
const char *vt_curl_load_error(void);

CURLcode vt_global_init(void);
CURL *vt_curl_easy_init(void);
void vt_curl_easy_cleanup(CURL *easy);
const char *vt_curl_easy_strerror(CURLcode code);
CURLM *vt_curl_multi_init(void);
CURLMcode vt_curl_multi_cleanup(CURLM *multi);
CURLMcode vt_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode vt_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode vt_curl_multi_perform(CURLM *multi, int *running);
CURLMcode vt_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ret);
CURLMcode vt_curl_multi_wakeup(CURLM *multi);
CURLMsg *vt_curl_multi_info_read(CURLM *multi, int *queued);
struct curl_slist *vt_curl_slist_append(struct curl_slist *list, const char *line);
void vt_curl_slist_free_all(struct curl_slist *list);
CURLU *vt_curl_url(void);
void vt_curl_url_cleanup(CURLU *url);
CURLUcode vt_curl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags);
CURLUcode vt_curl_url_get(const CURLU *url, CURLUPart part, char **content, unsigned int flags);
void vt_curl_free(void *p);
CURLSH *vt_curl_share_init(void);
CURLSHcode vt_curl_share_cleanup(CURLSH *share);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which
// Swift cannot call: one typed wrapper per argument type.
CURLcode vt_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode vt_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode vt_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode vt_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode vt_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
// Also used for CURLOPT_HEADERFUNCTION, which has the same signature.
CURLcode vt_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value);
CURLcode vt_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode vt_easy_getinfo_string(CURL *easy, CURLINFO info, char **value);
CURLcode vt_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);
CURLcode vt_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value);
CURLMcode vt_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
// A copy of the bytes is taken (CURL_BLOB_COPY): the caller may free them at once.
CURLcode vt_easy_setopt_blob(CURL *easy, CURLoption option, const void *data, size_t length);
// CURLSHOPT_SHARE with one kind of data (curl reads it as an int).
CURLSHcode vt_share_setopt_share(CURLSH *share, curl_lock_data data);

// CURLMsg keeps the result in an anonymous union.
static inline CURLcode vt_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
