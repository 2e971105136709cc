/* host/core/textbuf.h - a growing text buffer for writing one message
 * (a JSON-RPC answer) in one pass: append pieces, take the text.
 *
 * Ownership: the buffer owns its text until mh_textbuf_take() hands it to
 * the caller (free() it); mh_textbuf_free() releases what was not taken.
 * Once an append fails (out of memory) the buffer stays failed and takes
 * no more, so writers append freely and check once at the end.
 * Thread: one buffer, one thread. */
#ifndef MH_HOST_TEXTBUF_H
#define MH_HOST_TEXTBUF_H

#include <stddef.h>

typedef struct mh_textbuf {
    char *text; /* NUL-terminated while not failed */
    size_t length, capacity;
    int failed;
} mh_textbuf;

/* Makes room for `more` bytes after the text (plus the NUL); returns where
 * they go, or NULL (and the buffer failed). */
char *mh_textbuf_reserve(mh_textbuf *b, size_t more);
void mh_textbuf_append(mh_textbuf *b, const char *bytes, size_t length);
void mh_textbuf_puts(mh_textbuf *b, const char *text);
/* The text (length in *length), or NULL when an append failed; the buffer
 * is empty afterwards. */
char *mh_textbuf_take(mh_textbuf *b, size_t *length);
void mh_textbuf_free(mh_textbuf *b);

#endif
