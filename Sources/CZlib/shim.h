// zlib (Debian zlib1g-dev): deflate for the PNG and compressed pixels sent to kitty.
#include <zlib.h>
