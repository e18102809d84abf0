// libchafa 1.12 (Debian libchafa-dev; its header needs glib-2.0's, from libglib2.0-dev).
#include <chafa.h>
