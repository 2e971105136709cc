/* base64.c - RFC 4648 base64 (standard alphabet, '=' padding): encoding
 * for binary results such as memory dumps, strict decoding for inputs. */
#include "json_internal.h"

#include <stdlib.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t mh_base64_encoded_length(size_t size)
{
    size_t groups = size / 3 + (size % 3 != 0);
    if (groups > SIZE_MAX / 4) return SIZE_MAX;
    return groups * 4;
}

size_t mh_base64_encode(char *out, size_t out_size, const void *data, size_t size)
{
    size_t need = mh_base64_encoded_length(size);
    if (need == SIZE_MAX || !out || out_size <= need || (!data && size)) return SIZE_MAX;
    const unsigned char *in = data;
    size_t o = 0, i = 0;
    for (; size - i >= 3; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    if (size - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (size - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = '=';
    }
    out[o] = '\0';
    return o;
}

char *mh_base64_encode_alloc(const void *data, size_t size)
{
    size_t need = mh_base64_encoded_length(size);
    if (need == SIZE_MAX) return NULL;
    char *out = malloc(need + 1);
    if (!out) return NULL;
    if (mh_base64_encode(out, need + 1, data, size) == SIZE_MAX) {
        free(out);
        return NULL;
    }
    return out;
}

static int sextet(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

size_t mh_base64_decode(void *out, size_t out_size, const char *text, size_t length)
{
    if (length % 4 != 0 || (!text && length)) return SIZE_MAX;
    unsigned char *dst = out;
    size_t o = 0;
    for (size_t i = 0; i < length; i += 4) {
        int last = i + 4 == length;
        int a = sextet(text[i]), b = sextet(text[i + 1]);
        int c = sextet(text[i + 2]), d = sextet(text[i + 3]);
        if (a < 0 || b < 0) return SIZE_MAX;
        size_t n = 3;
        if (c < 0 || d < 0) {
            /* Only the final group may be padded: "xx==" or "xxx=". */
            if (!last || text[i + 3] != '=') return SIZE_MAX;
            if (c < 0) {
                if (text[i + 2] != '=' || (b & 15) != 0) return SIZE_MAX;
                n = 1;
            } else {
                if ((c & 3) != 0) return SIZE_MAX;
                n = 2;
            }
        }
        if (out_size - o < n || !dst) return SIZE_MAX;
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)(c < 0 ? 0 : c) << 6 |
                     (uint32_t)(d < 0 ? 0 : d);
        dst[o++] = (unsigned char)(v >> 16);
        if (n > 1) dst[o++] = (unsigned char)(v >> 8);
        if (n > 2) dst[o++] = (unsigned char)v;
    }
    return o;
}
