/* td_encode.h - hex and base64 written as the bytes arrive in runs (from
 * mh.memory/1 peek_runs, or one run from peek), so memory_read encodes
 * straight from the machine's RAM and ROM without a copy of its own.
 *
 * One encoder writes hex at one place and base64 at another of the same
 * result buffer in a single pass (either may be off), and keeps a copy of
 * the first bytes for the text dump. The caller sizes the buffer: 2n hex
 * characters, mh_base64_encoded_length(n) base64 characters plus one byte
 * after them. Plain data on the caller's stack; [emu-thread] like the read
 * that feeds it. */
#ifndef TD_ENCODE_H
#define TD_ENCODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct td_encoder {
    char *hex;           /* where the next hex digit goes, or NULL: no hex */
    char *base64;        /* where the next base64 character goes, or NULL */
    uint8_t carry[3];    /* bytes waiting for a whole base64 group */
    size_t carried;
    uint8_t *keep;       /* copy of the first bytes go here ... */
    size_t keep_left;    /* ... this many more */
} td_encoder;

/* Takes the next n bytes (the signature of a peek_runs callback; user is
 * the td_encoder). */
void td_encoder_run(void *user, const uint8_t *bytes, size_t n);

/* Writes the last base64 group (with '=' padding). Returns the end of the
 * base64 text (NULL when base64 is off). */
char *td_encoder_finish(td_encoder *e);

#endif
