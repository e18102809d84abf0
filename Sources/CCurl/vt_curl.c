#include "vt_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// The libcurl functions vtourist calls, looked up once.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
    void (*free)(void *);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_cleanup)(CURLSH *);
    CURLSHcode (*share_setopt)(CURLSH *, CURLSHoption, ...);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";

static void load(void) {
    // libcurl4's soname (the OpenSSL flavour the -dev package builds against).
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = "libcurl (libcurl.so.4) could not be loaded";
        return;
    }
    struct { void **slot; const char *name; } symbols[] = {
        {(void **)&curl.global_init, "curl_global_init"},
        {(void **)&curl.easy_init, "curl_easy_init"},
        {(void **)&curl.easy_cleanup, "curl_easy_cleanup"},
        {(void **)&curl.easy_strerror, "curl_easy_strerror"},
        {(void **)&curl.easy_setopt, "curl_easy_setopt"},
        {(void **)&curl.easy_getinfo, "curl_easy_getinfo"},
        {(void **)&curl.multi_init, "curl_multi_init"},
        {(void **)&curl.multi_cleanup, "curl_multi_cleanup"},
        {(void **)&curl.multi_add_handle, "curl_multi_add_handle"},
        {(void **)&curl.multi_remove_handle, "curl_multi_remove_handle"},
        {(void **)&curl.multi_perform, "curl_multi_perform"},
        {(void **)&curl.multi_poll, "curl_multi_poll"},
        {(void **)&curl.multi_wakeup, "curl_multi_wakeup"},
        {(void **)&curl.multi_info_read, "curl_multi_info_read"},
        {(void **)&curl.multi_setopt, "curl_multi_setopt"},
        {(void **)&curl.slist_append, "curl_slist_append"},
        {(void **)&curl.slist_free_all, "curl_slist_free_all"},
        {(void **)&curl.url, "curl_url"},
        {(void **)&curl.url_cleanup, "curl_url_cleanup"},
        {(void **)&curl.url_set, "curl_url_set"},
        {(void **)&curl.url_get, "curl_url_get"},
        {(void **)&curl.free, "curl_free"},
        {(void **)&curl.share_init, "curl_share_init"},
        {(void **)&curl.share_cleanup, "curl_share_cleanup"},
        {(void **)&curl.share_setopt, "curl_share_setopt"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            // Too old a libcurl (curl_multi_wakeup is 7.68): use none of it.
            for (size_t j = 0; j < sizeof symbols / sizeof symbols[0]; j++) *symbols[j].slot = NULL;
            load_error = "libcurl (libcurl.so.4) is too old: a function vtourist needs is missing";
            return;
        }
    }
    load_error = NULL;
}

const char *vt_curl_load_error(void) {
    pthread_once(&once, load);
    return load_error;
}

// True once every function is there.
static int loaded(void) {
    return vt_curl_load_error() == NULL;
}

CURLcode vt_global_init(void) {
    // CURL_GLOBAL_DEFAULT is a macro built from other macros.
    return loaded() ? curl.global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
}

CURL *vt_curl_easy_init(void) { return loaded() ? curl.easy_init() : NULL; }
void vt_curl_easy_cleanup(CURL *easy) { if (loaded()) curl.easy_cleanup(easy); }

const char *vt_curl_easy_strerror(CURLcode code) {
    return loaded() ? curl.easy_strerror(code) : load_error;
}

CURLM *vt_curl_multi_init(void) { return loaded() ? curl.multi_init() : NULL; }
CURLMcode vt_curl_multi_cleanup(CURLM *multi) { return loaded() ? curl.multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }

CURLMcode vt_curl_multi_add_handle(CURLM *multi, CURL *easy) {
    return loaded() ? curl.multi_add_handle(multi, easy) : CURLM_INTERNAL_ERROR;
}

CURLMcode vt_curl_multi_remove_handle(CURLM *multi, CURL *easy) {
    return loaded() ? curl.multi_remove_handle(multi, easy) : CURLM_INTERNAL_ERROR;
}

CURLMcode vt_curl_multi_perform(CURLM *multi, int *running) {
    return loaded() ? curl.multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode vt_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ret) {
    return loaded() ? curl.multi_poll(multi, extra, count, timeout_ms, ret) : CURLM_INTERNAL_ERROR;
}

CURLMcode vt_curl_multi_wakeup(CURLM *multi) { return loaded() ? curl.multi_wakeup(multi) : CURLM_INTERNAL_ERROR; }
CURLMsg *vt_curl_multi_info_read(CURLM *multi, int *queued) { return loaded() ? curl.multi_info_read(multi, queued) : NULL; }

struct curl_slist *vt_curl_slist_append(struct curl_slist *list, const char *line) {
    return loaded() ? curl.slist_append(list, line) : NULL;
}

void vt_curl_slist_free_all(struct curl_slist *list) { if (loaded()) curl.slist_free_all(list); }
CURLU *vt_curl_url(void) { return loaded() ? curl.url() : NULL; }
void vt_curl_url_cleanup(CURLU *url) { if (loaded()) curl.url_cleanup(url); }

CURLUcode vt_curl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags) {
    return loaded() ? curl.url_set(url, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode vt_curl_url_get(const CURLU *url, CURLUPart part, char **content, unsigned int flags) {
    return loaded() ? curl.url_get(url, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

void vt_curl_free(void *p) { if (loaded()) curl.free(p); }
CURLSH *vt_curl_share_init(void) { return loaded() ? curl.share_init() : NULL; }
CURLSHcode vt_curl_share_cleanup(CURLSH *share) { return loaded() ? curl.share_cleanup(share) : CURLSHE_NOT_BUILT_IN; }

CURLcode vt_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return loaded() ? curl.easy_setopt(easy, option, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return loaded() ? curl.easy_getinfo(easy, info, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return loaded() ? curl.easy_getinfo(easy, info, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return loaded() ? curl.easy_getinfo(easy, info, value) : CURLE_FAILED_INIT;
}

CURLcode vt_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return loaded() ? curl.easy_getinfo(easy, info, value) : CURLE_FAILED_INIT;
}

CURLMcode vt_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return loaded() ? curl.multi_setopt(multi, option, value) : CURLM_INTERNAL_ERROR;
}

CURLcode vt_easy_setopt_blob(CURL *easy, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = {(void *)data, length, CURL_BLOB_COPY};
    return loaded() ? curl.easy_setopt(easy, option, &blob) : CURLE_FAILED_INIT;
}

CURLSHcode vt_share_setopt_share(CURLSH *share, curl_lock_data data) {
    return loaded() ? curl.share_setopt(share, CURLSHOPT_SHARE, data) : CURLSHE_NOT_BUILT_IN;
}
