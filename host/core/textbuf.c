#include "textbuf.h"

#include <stdlib.h>
#include <string.h>

char *mh_textbuf_reserve(mh_textbuf *b, size_t more)
{
    if (b->failed) return NULL;
    size_t need = b->length + more + 1;
    if (need < more) { /* overflow */
        b->failed = 1;
        return NULL;
    }
    if (need > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < need) capacity = capacity * 2 > capacity ? capacity * 2 : need;
        char *grown = realloc(b->text, capacity);
        if (!grown) {
            b->failed = 1;
            return NULL;
        }
        b->text = grown;
        b->capacity = capacity;
    }
    return b->text + b->length;
}

void mh_textbuf_append(mh_textbuf *b, const char *bytes, size_t length)
{
    char *at = mh_textbuf_reserve(b, length);
    if (!at) return;
    memcpy(at, bytes, length);
    b->length += length;
    b->text[b->length] = '\0';
}

void mh_textbuf_puts(mh_textbuf *b, const char *text) { mh_textbuf_append(b, text, strlen(text)); }

char *mh_textbuf_take(mh_textbuf *b, size_t *length)
{
    char *text = b->failed ? NULL : b->text;
    if (text && length) *length = b->length;
    if (!text) free(b->text);
    memset(b, 0, sizeof *b);
    return text;
}

void mh_textbuf_free(mh_textbuf *b)
{
    free(b->text);
    memset(b, 0, sizeof *b);
}
