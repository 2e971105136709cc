/* kernal_type.c - text and PETSCII codes onto the typed-text queue
 * (mcphost/kernal.h: mh_kernal_queue_text, mh_kernal_queue_codes). */
#include <stdio.h>

#include "mcphost/kernal.h"
#include "mcphost/media.h"

static int petscii_of(char c)
{
    if (c == '\n' || c == '\r') return 0x0D;
    return mh_petscii_from_ascii(c);
}

mh_status mh_kernal_queue_text(mh_kernal_queue *queue, const char *text, size_t *bad_at,
                               char *error, size_t error_size)
{
    size_t n = 0;
    for (const char *s = text; *s; s++, n++)
        if (petscii_of(*s) < 0) {
            *bad_at = n;
            return MH_ERR_INVALID_ARGUMENT;
        }
    *bad_at = n;
    /* Longer than the queue: mh_kernal_queue_push refuses it by its count. */
    uint8_t codes[MH_KERNAL_QUEUE_SIZE];
    for (size_t i = 0; i < n && i < MH_KERNAL_QUEUE_SIZE; i++)
        codes[i] = (uint8_t)petscii_of(text[i]);
    return mh_kernal_queue_push(queue, codes, n, error, error_size);
}

mh_status mh_kernal_queue_codes(mh_kernal_queue *queue, const uint8_t *codes, size_t count,
                                char *error, size_t error_size)
{
    for (size_t i = 0; i < count; i++)
        if (codes[i] == 0) {
            snprintf(error, error_size,
                     "cannot type code $00 (character %zu): the KERNAL ignores it", i + 1);
            return MH_ERR_INVALID_ARGUMENT;
        }
    return mh_kernal_queue_push(queue, codes, count, error, error_size);
}
