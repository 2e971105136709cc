/* host/src/base64.h - RFC 4648 base64 for image/audio/blob content.
 * Returns a malloc'ed NUL-terminated string (caller frees), NULL when out of
 * memory. [thread-safe] */
#ifndef MH_HOST_BASE64_H
#define MH_HOST_BASE64_H
#include <stddef.h>
char *mh_base64_encode(const void *data, size_t size);
#endif
