#ifndef VTOURIST_CCURL_SHIM_H
#define VTOURIST_CCURL_SHIM_H
#include <curl/curl.h>
#endif
