/* mcphost/args.h - the argument conventions every mcphost tool shares
 * (DESIGN section 5), on top of mcphost/json.h (link mcphost::json).
 *
 * Offers:
 *   - mh_args_parse(): the call's argument text to a JSON object;
 *   - readers for the shared argument kinds, each with an error message that
 *     names the argument and says what is allowed:
 *       address  an integer, or a string "$C000", "0xC000", "49152" or
 *                "%1100000000000000" (binary), checked against a highest
 *                address;
 *       range    `address` plus `length`, or `address` plus `end` (inclusive);
 *       integer  counts (`count`, `cycles`, `frames`) with a minimum and
 *                maximum; takes the same forms as an address;
 *       bytes    an array of byte values (each in any integer form), or a hex
 *                string "A9 00 8D 20 D0" / "a9008d20d0" / "$A9,$00";
 *       bool, string, and a choice among fixed strings;
 *   - address text for results: "$C000", and mh_args_write_address(), which
 *     writes an address both as a number and as text ("pc": 49152,
 *     "pc_hex": "$C000").
 *
 * Conventions of every reader: `args` is the arguments object (NULL or a
 * non-object counts as "no arguments"). A member that is missing or JSON
 * null returns MH_ERR_NOT_FOUND and leaves *out unchanged, so an optional
 * argument keeps the default the caller stored there; the message still
 * says what is missing, ready to return for a required one. A malformed
 * value returns MH_ERR_INVALID_ARGUMENT, or MH_ERR_LIMIT when a well-formed
 * value is out of bounds. MH_OK stores the result. The message goes to
 * err (capacity err_size, always NUL-terminated, truncated if needed; err
 * may be NULL), e.g.
 *     address: expected an integer or a string like "$C000", "0xC000" or "49152", got "$G000"
 *     address: $10000 is above the highest address $FFFF
 * It is written on failure only. 128 bytes are enough for nearly all
 * messages; MH_ARGS_ERROR_SIZE is a comfortable size.
 *
 * Ownership: strings returned point into the caller's parsed document and
 * live as long as it. Nothing here allocates except mh_args_parse().
 * Thread-safety: no global state; safe from any thread on distinct data.
 */
#ifndef MCPHOST_ARGS_H
#define MCPHOST_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/json.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_ARGS_ERROR_SIZE 256

/* Parses a tool's argument text (must be a JSON object). Returns the object
 * and stores the document in *doc (free it with mh_json_free()), or NULL
 * with a message "arguments: ..." (*doc set to NULL). */
const mh_json *mh_args_parse(const char *json_text, mh_json_doc **doc,
                             char *err, size_t err_size);

/* Parses one address value in any accepted form (integer, "$C000",
 * "0xC000", "49152", "%1010"; hex digits in either case), with `name` used
 * in messages. For values already looked up, e.g. array elements. */
mh_status mh_args_address_value(const mh_json *value, const char *name, uint32_t max_address,
                                uint32_t *out, char *err, size_t err_size);

/* The member `name` as an address from 0 to max_address (e.g. 0xFFFF). */
mh_status mh_args_address(const mh_json *args, const char *name, uint32_t max_address,
                          uint32_t *out, char *err, size_t err_size);

/* A range: `address` plus either `length` (>= 1) or `end` (inclusive, not
 * below address); both forms take any address spelling. When neither
 * length nor end is given, default_length is used, or, if that is 0, the
 * call fails naming both. The range must lie within 0..max_address, and
 * its length must not exceed max_length (0: no limit beyond the address
 * space). Missing `address`: MH_ERR_NOT_FOUND. */
mh_status mh_args_range(const mh_json *args, uint32_t max_address, uint32_t default_length,
                        uint32_t max_length, uint32_t *start, uint32_t *length,
                        char *err, size_t err_size);

/* The member `name` as a whole number from min to max (inclusive); takes
 * JSON integers (also 1e3, 10.0) and the address string forms. */
mh_status mh_args_int(const mh_json *args, const char *name, int64_t min, int64_t max,
                      int64_t *out, char *err, size_t err_size);

/* The member `name` as bytes: an array of integers 0..255 (any integer
 * form), or a hex string whose tokens are separated by spaces, tabs,
 * newlines or commas. A token of 1-2 digits (optionally "$" or "0x"
 * prefixed) is one byte; a longer token without a prefix must have an even
 * number of digits and is read in pairs ("a9008d" = A9 00 8D). At least one
 * byte and at most `capacity` are accepted; *count gets the number stored
 * in buf. */
mh_status mh_args_bytes(const mh_json *args, const char *name, uint8_t *buf, size_t capacity,
                        size_t *count, char *err, size_t err_size);

/* The member `name` as a boolean (JSON true/false only). */
mh_status mh_args_bool(const mh_json *args, const char *name, bool *out,
                       char *err, size_t err_size);

/* The member `name` as a string; *length (if not NULL) gets its length.
 * Strings holding a NUL byte are refused (they cannot be C strings). */
mh_status mh_args_string(const mh_json *args, const char *name, const char **out,
                         size_t *length, char *err, size_t err_size);

/* The member `name` as one of `count` fixed strings (exact match); *index
 * gets its position. The message lists the choices:
 *     format: expected one of "hex", "text", got "bin" */
mh_status mh_args_choice(const mh_json *args, const char *name, const char *const *choices,
                         size_t count, size_t *index, char *err, size_t err_size);

/* "$C000": '$' and upper-case hex, at least 4 digits (more when needed:
 * "$10000"). Like snprintf: returns the length it needs (without NUL) and
 * writes at most size bytes including the NUL. */
int mh_args_format_address(char *buf, size_t size, uint32_t address);

/* Inside an object: writes `key` as a number and `key`_hex as text,
 *     "pc": 49152, "pc_hex": "$C000"
 * the result convention for every address (DESIGN section 5). */
void mh_args_write_address(mh_json_writer *writer, const char *key, uint32_t address);

/* The same for a byte value: "value": 255, "value_hex": "$FF". */
void mh_args_write_byte(mh_json_writer *writer, const char *key, uint8_t value);

/* Inside an object: `key` and a plain value, the decoders' fields:
 *     "count": 3   "running": true   "mode": "free_run"
 * (a NULL string is written as ""). */
void mh_args_write_uint(mh_json_writer *writer, const char *key, uint64_t value);
void mh_args_write_bool(mh_json_writer *writer, const char *key, int value);
void mh_args_write_string(mh_json_writer *writer, const char *key, const char *value);

/* Inside an object: `key` and an array of the names of the bits set in
 * bits (0 .. count-1, lowest first), name(bit) giving each; a bit whose
 * name is NULL is left out:  "sources": ["timer_a", "flag"]. */
void mh_args_write_bit_names(mh_json_writer *writer, const char *key, unsigned bits,
                             unsigned count, const char *(*name)(unsigned bit));

#ifdef __cplusplus
}
#endif
#endif
