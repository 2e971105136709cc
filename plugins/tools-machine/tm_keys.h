/* tm_keys.h - the text syntax of keyboard_type: printable ASCII typed as
 * the C64 types it in its power-on mode, "\n" as RETURN, and keys or
 * PETSCII codes in braces: {RETURN}, {CLR}, {HOME}, {CRSR DOWN}, {F1},
 * {RUN/STOP}, {RVS ON}, colours {RED} ..., {$93} (a raw code), with an
 * optional repeat: {CRSR DOWN*3}. Names ignore case, spaces, '_', '-' and
 * '/'. Pure functions, no state. [thread-safe] */
#ifndef TM_KEYS_H
#define TM_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* Translates text into PETSCII codes (at most capacity). Returns the count,
 * or -1 with a message in error that gives the position and what to write
 * instead. */
long tm_keys_translate(const char *text, size_t length, uint8_t *codes, size_t capacity,
                       char *error, size_t error_size);

/* The brace names, space-separated, for messages and the tool description. */
const char *tm_keys_names(void);

#endif
