/* utf8.c - strict UTF-8 (RFC 3629) decoding and encoding, and the quoted
 * snippets that error messages show of user text. */
#include "json_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int is_cont(unsigned char c)
{
    return (c & 0xC0u) == 0x80u;
}

size_t mh_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp, mh_utf8_error *why)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t value;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2) {
        *why = c < 0xC0 ? MH_UTF8_BAD_BYTE : MH_UTF8_OVERLONG;
        return 0;
    }
    if (c < 0xE0) {
        len = 2;
        value = c & 0x1Fu;
    } else if (c < 0xF0) {
        len = 3;
        value = c & 0x0Fu;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c < 0xF5) {
        len = 4;
        value = c & 0x07u;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        *why = MH_UTF8_BAD_BYTE;
        return 0;
    }
    if (n < 2 || !is_cont(s[1])) {
        *why = MH_UTF8_INCOMPLETE;
        return 0;
    }
    if (s[1] < lo) {
        *why = MH_UTF8_OVERLONG;
        return 0;
    }
    if (s[1] > hi) {
        *why = c == 0xED ? MH_UTF8_SURROGATE : MH_UTF8_TOO_LARGE;
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if (i >= n || !is_cont(s[i])) {
            *why = MH_UTF8_INCOMPLETE;
            return 0;
        }
        value = (value << 6) | (s[i] & 0x3Fu);
    }
    *cp = value;
    return len;
}

int mh_utf8_prefix(const char *text, size_t max_bytes)
{
    if (!text) return 0;
    if (max_bytes > INT_MAX) max_bytes = INT_MAX;
    size_t n = strnlen(text, max_bytes);
    /* Cut short inside a character: leave out its first bytes too. */
    for (int back = 0; text[n] != '\0' && n > 0 && back < 3 && is_cont((unsigned char)text[n]); back++)
        n--;
    return (int)n;
}

size_t mh_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

void mh_json_i_snippet(char *out, size_t size, const char *text, size_t length, size_t max_chars)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0, chars = 0, i = 0;
    char piece[8];

    if (size == 0) return;
    /* Room kept at the end for: "..." + closing quote + NUL. */
    if (size < 6) {
        out[0] = '\0';
        return;
    }
    out[o++] = '"';
    while (i < length) {
        size_t piece_len, step = 1;
        uint32_t cp;
        mh_utf8_error why;
        if (chars == max_chars) break;
        if (s[i] == '"' || s[i] == '\\') {
            piece[0] = '\\';
            piece[1] = (char)s[i];
            piece_len = 2;
        } else if (s[i] < 0x20 || s[i] == 0x7F) {
            piece_len = (size_t)snprintf(piece, sizeof piece, "\\u%04X", s[i]);
        } else if (s[i] < 0x80) {
            piece[0] = (char)s[i];
            piece_len = 1;
        } else if ((step = mh_utf8_decode(s + i, length - i, &cp, &why)) != 0) {
            memcpy(piece, s + i, step);
            piece_len = step;
        } else {
            step = 1;
            piece_len = (size_t)snprintf(piece, sizeof piece, "\\x%02X", s[i]);
        }
        if (o + piece_len + 5 > size) break;
        memcpy(out + o, piece, piece_len);
        o += piece_len;
        i += step;
        chars++;
    }
    if (i < length) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o++] = '"';
    out[o] = '\0';
}
