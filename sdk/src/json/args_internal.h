/* args_internal.h - what the args_*.c files share: reading a JSON value in
 * the integer forms of args.h and wording the error messages. Not installed. */
#ifndef MH_ARGS_INTERNAL_H
#define MH_ARGS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/args.h"

#define MH_ARGS_ADDRESS_FORMS "an integer or a string like \"$C000\", \"0xC000\" or \"49152\""

typedef enum mh_args_num_result {
    MH_ARGS_NUM_OK,        /* *magnitude and *negative hold the value */
    MH_ARGS_NUM_MALFORMED, /* not an integer in any accepted form */
    MH_ARGS_NUM_TOO_LARGE  /* a whole number whose magnitude exceeds 64 bits */
} mh_args_num_result;

/* Reads a JSON integer (any spelling of a whole number) or a string
 * "$hex", "0xhex", "%binary" or decimal (with an optional '-'). */
mh_args_num_result mh_args_i_number(const mh_json *value, uint64_t *magnitude, int *negative);

/* The member, or NULL when it is missing or JSON null (or args is not an
 * object). */
const mh_json *mh_args_i_member(const mh_json *args, const char *name);

/* What the caller gave, for "got ..." : "\"$G000\"", "1.5", "true", "null",
 * "an array", "an object". */
void mh_args_i_describe(const mh_json *value, char *buf, size_t size);

/* A well-formed number as the caller wrote it: strings verbatim ("$10000"),
 * JSON numbers in decimal, with " ($10000)" appended when with_hex. */
void mh_args_i_echo(const mh_json *value, int with_hex, char *buf, size_t size);

/* Writes the message (printf style) to err and returns status. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
mh_status mh_args_i_fail(char *err, size_t err_size, mh_status status, const char *fmt, ...);

#endif
