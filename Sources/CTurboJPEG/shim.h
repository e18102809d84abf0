// TurboJPEG 2.1 (Debian libturbojpeg0-dev): the tj* API.
#include <stddef.h>
#include <turbojpeg.h>
