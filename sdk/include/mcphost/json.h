/* mcphost/json.h - the SDK's self-contained JSON reader and writer, for
 * plugins (link the static library mcphost::json).
 *
 * Offers:
 *   - mh_json_parse(): a strict RFC 8259 parser (no comments, no trailing
 *     commas, no leading zeros, no duplicate object keys, valid UTF-8 only,
 *     \u escapes incl. surrogate pairs decoded to UTF-8) with a depth and a
 *     size limit, building a read-only tree. Errors say where (byte offset,
 *     line, column) and what was expected:
 *         "line 1, column 7: expected ':' after object key"
 *   - accessors for that tree: type, object lookup and iteration, arrays,
 *     strings with length (they may hold NUL), numbers as double or as exact
 *     int64/uint64, booleans, null, and mh_json_get_*() shortcuts;
 *   - mh_json_writer: builds compact JSON text into a growable buffer, puts
 *     commas and colons itself and records the first misuse or allocation
 *     failure instead of producing invalid JSON;
 *   - RFC 4648 base64 encoding and decoding (binary memory dumps);
 *   - mh_utf8_prefix(): where to cut a text quoted in a message so the cut
 *     does not split a UTF-8 character.
 * No cJSON types appear here: plugins do not depend on the host's cJSON.
 *
 * Ownership:
 *   - mh_json_parse() copies what it needs from the input text; the text may
 *     be freed once it returns. The returned mh_json_doc owns every value,
 *     key and string of the tree; mh_json_free() releases all of it at once,
 *     and every pointer obtained from the tree dies with it.
 *   - An mh_json_writer is owned by its creator (mh_json_writer_new/_free).
 *     mh_json_writer_finish() hands over a malloc'ed string that the caller
 *     frees with free().
 *
 * Thread-safety: no global mutable state. A parsed tree is immutable and
 * may be read from any number of threads at once; one writer must be used
 * by one thread at a time. Number conversion reads the C locale's decimal
 * point only to undo a non-"C" LC_NUMERIC, so do not call setlocale()
 * concurrently with parsing or writing doubles.
 */
#ifndef MCPHOST_JSON_H
#define MCPHOST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Reading ---------------------------------------------------------- */

#define MH_JSON_DEFAULT_MAX_DEPTH 128u              /* nested arrays/objects */
#define MH_JSON_DEFAULT_MAX_SIZE (16u * 1024u * 1024u) /* bytes of input text */

typedef enum mh_json_type {
    MH_JSON_NONE = 0, /* no value: a NULL pointer (missing member/index) */
    MH_JSON_NULL,
    MH_JSON_BOOL,
    MH_JSON_NUMBER,
    MH_JSON_STRING,
    MH_JSON_ARRAY,
    MH_JSON_OBJECT
} mh_json_type;

typedef struct mh_json_doc mh_json_doc; /* a parsed document (owns the tree) */
typedef struct mh_json mh_json;         /* one value inside a document */

/* Parser options; zero (or a NULL pointer) means the default for each. */
typedef struct mh_json_parse_opts {
    size_t max_size;    /* longest accepted input in bytes; 0: MH_JSON_DEFAULT_MAX_SIZE */
    uint32_t max_depth; /* deepest nesting of arrays/objects; 0: MH_JSON_DEFAULT_MAX_DEPTH.
                           The parser is iterative, so large values are safe. */
} mh_json_parse_opts;

/* Why a parse failed. */
typedef struct mh_json_error {
    mh_status status; /* MH_OK; MH_ERR_INVALID_ARGUMENT: not valid JSON;
                         MH_ERR_LIMIT: size or depth limit; MH_ERR_NO_MEMORY */
    size_t offset;    /* byte offset of the problem in the input */
    size_t line;      /* 1-based line of offset (0 when not about a position) */
    size_t column;    /* 1-based column of offset, counting UTF-8 characters */
    char message[200]; /* "line 3, column 12: expected ',' or '}' after object member" */
} mh_json_error;

/* Parses `length` bytes of `text` (which need not be NUL-terminated; a NUL
 * byte inside is an error outside strings). Exactly one JSON value,
 * surrounded by optional whitespace. Returns the document, or NULL with
 * *error filled in (error may be NULL). opts may be NULL. */
mh_json_doc *mh_json_parse(const char *text, size_t length,
                           const mh_json_parse_opts *opts, mh_json_error *error);

/* Releases a document and every value in it. NULL is ignored. */
void mh_json_free(mh_json_doc *doc);

/* The document's top-level value (never NULL for a document). */
const mh_json *mh_json_root(const mh_json_doc *doc);

/* The type of a value; MH_JSON_NONE for NULL, so lookups chain safely. */
mh_json_type mh_json_typeof(const mh_json *value);

/* "null", "boolean", "number", "string", "array", "object"; "nothing" for
 * MH_JSON_NONE. Static strings, for error messages. */
const char *mh_json_type_name(mh_json_type type);

/* Objects. Lookup compares keys byte for byte; keys are unique (the parser
 * rejects duplicates). Members keep their document order. All return
 * NULL/0 when `object` is not an object or the key/index does not exist. */
const mh_json *mh_json_object_get(const mh_json *object, const char *key);
const mh_json *mh_json_object_getn(const mh_json *object, const char *key, size_t key_length);
size_t mh_json_object_size(const mh_json *object);
/* The key of member `index` (NUL-terminated; *key_length, if not NULL, gets
 * its length, as keys may contain NUL). */
const char *mh_json_object_key(const mh_json *object, size_t index, size_t *key_length);
const mh_json *mh_json_object_value(const mh_json *object, size_t index);

/* Arrays: size, and element by index (NULL when out of range or not an array). */
size_t mh_json_array_size(const mh_json *array);
const mh_json *mh_json_array_get(const mh_json *array, size_t index);

/* A string's UTF-8 bytes, NUL-terminated, with the exact length in *length
 * (if not NULL) since strings may contain NUL (\u0000). NULL if not a string. */
const char *mh_json_as_string(const mh_json *value, size_t *length);

/* Typed reads. Each returns MH_OK and stores the value, or leaves *out alone
 * and returns MH_ERR_NOT_FOUND (value is NULL), MH_ERR_INVALID_ARGUMENT
 * (another type, or for the integer reads a number that is not a whole
 * number) or MH_ERR_LIMIT (a whole number outside the target type). */
mh_status mh_json_as_bool(const mh_json *value, bool *out);
mh_status mh_json_as_double(const mh_json *value, double *out);
/* Exact: succeeds only when the number in the text is mathematically an
 * integer in range, whatever its spelling ("42", "4.2e1", "-0", "1E3").
 * The check works on the decimal digits, not on the rounded double, so
 * 9007199254740993 reads exactly. */
mh_status mh_json_as_int64(const mh_json *value, int64_t *out);
mh_status mh_json_as_uint64(const mh_json *value, uint64_t *out);
/* True when the value is a number that is a whole number (any magnitude). */
bool mh_json_is_integer(const mh_json *value);
bool mh_json_is_null(const mh_json *value);

/* Shortcuts on an object's member `key`.
 * mh_json_get_string: the string, or `fallback` when the member is missing
 * or not a string. The others return the mh_json_as_*() status of the member
 * (MH_ERR_NOT_FOUND when missing) and store only on MH_OK. */
const char *mh_json_get_string(const mh_json *object, const char *key, const char *fallback);
mh_status mh_json_get_int(const mh_json *object, const char *key, int64_t *out);
mh_status mh_json_get_uint(const mh_json *object, const char *key, uint64_t *out);
mh_status mh_json_get_double(const mh_json *object, const char *key, double *out);
mh_status mh_json_get_bool(const mh_json *object, const char *key, bool *out);

/* ---- Writing ---------------------------------------------------------- */

/* Builds one JSON value as compact text (no whitespace). Separators are
 * automatic: inside an object call mh_json_write_key() before every value.
 * The first misuse (a value without a key inside an object, a key outside
 * an object, an unbalanced or mismatched end, a second top-level value, a
 * non-finite double, raw text that is not JSON) or allocation failure is
 * recorded; every later call is then ignored and finish returns NULL.
 * Strings: '"', '\\' and control characters are escaped (\n \r \t \b \f, the
 * rest as \u00XX; also U+007F, U+2028, U+2029); valid UTF-8 passes through;
 * each byte of invalid UTF-8 becomes U+FFFD. A NULL string argument is
 * misuse (write null explicitly with mh_json_write_null()). */
typedef struct mh_json_writer mh_json_writer;

/* A new, empty writer, or NULL when out of memory. Every writer function
 * accepts NULL and then does nothing, so one check at finish suffices. */
mh_json_writer *mh_json_writer_new(void);
void mh_json_writer_free(mh_json_writer *writer);

/* MH_OK, or the first failure: MH_ERR_STATE (misuse), MH_ERR_INVALID_ARGUMENT
 * (non-finite double, invalid raw JSON, NULL string), MH_ERR_NO_MEMORY.
 * A NULL writer reports MH_ERR_NO_MEMORY. */
mh_status mh_json_writer_status(const mh_json_writer *writer);
/* What went wrong, e.g. "a value inside an object needs a key first";
 * "" when nothing did. Static text, valid as long as the writer. */
const char *mh_json_writer_error(const mh_json_writer *writer);

/* Hands over the finished document: a malloc'ed NUL-terminated string the
 * caller frees, with its length in *length (if not NULL). Returns NULL when
 * the writer has failed or the value is incomplete (unclosed container, no
 * value); the reason stays readable through _status/_error. On success the
 * writer is empty again and can build another document; free it with
 * mh_json_writer_free() either way. */
char *mh_json_writer_finish(mh_json_writer *writer, size_t *length);

void mh_json_write_object_begin(mh_json_writer *writer);
void mh_json_write_object_end(mh_json_writer *writer);
void mh_json_write_array_begin(mh_json_writer *writer);
void mh_json_write_array_end(mh_json_writer *writer);
void mh_json_write_key(mh_json_writer *writer, const char *key);
void mh_json_write_keyn(mh_json_writer *writer, const char *key, size_t length);
void mh_json_write_string(mh_json_writer *writer, const char *text);
void mh_json_write_stringn(mh_json_writer *writer, const char *text, size_t length);
void mh_json_write_int(mh_json_writer *writer, int64_t value);
void mh_json_write_uint(mh_json_writer *writer, uint64_t value);
/* Finite values only; the shortest text that reads back as the same double. */
void mh_json_write_double(mh_json_writer *writer, double value);
void mh_json_write_bool(mh_json_writer *writer, bool value);
void mh_json_write_null(mh_json_writer *writer);
/* Inserts one complete JSON value given as text (checked with the parser,
 * default limits; copied as given, surrounding whitespace removed). */
void mh_json_write_raw(mh_json_writer *writer, const char *json, size_t length);
/* A string value holding the base64 (RFC 4648, padded) of `size` bytes. */
void mh_json_write_base64(mh_json_writer *writer, const void *data, size_t size);

/* ---- Base64 (RFC 4648 section 4, standard alphabet, '=' padding) ------- */

/* Characters needed for `size` bytes, without the NUL: 4 * ceil(size / 3).
 * Returns SIZE_MAX if that does not fit in size_t. */
size_t mh_base64_encoded_length(size_t size);

/* Encodes into out (capacity out_size, which must hold the encoded length
 * plus a NUL). Returns the encoded length, or SIZE_MAX (out untouched) if
 * out_size is too small. */
size_t mh_base64_encode(char *out, size_t out_size, const void *data, size_t size);

/* The same into a malloc'ed NUL-terminated string the caller frees; NULL
 * when out of memory. */
char *mh_base64_encode_alloc(const void *data, size_t size);

/* Decodes strict base64 (length a multiple of 4, correct padding, no
 * whitespace, unused bits zero). Writes at most out_size bytes; returns the
 * decoded size, or SIZE_MAX if the text is not valid base64 or out_size is
 * too small (3 * length / 4 always suffices). */
size_t mh_base64_decode(void *out, size_t out_size, const char *text, size_t length);

/* ---- Quoting text in messages ------------------------------------------ */

/* The length of the longest prefix of the NUL-terminated `text` that has at
 * most max_bytes bytes and does not end inside a UTF-8 character, as an int
 * for "%.*s": a message that quotes a client's text (a path, a name) cut
 * short stays valid UTF-8 where "%.200s" could cut a character in two.
 *     snprintf(msg, size, "unknown tool \"%.*s\"", mh_utf8_prefix(name, 120), name);
 * A NULL text has length 0. */
int mh_utf8_prefix(const char *text, size_t max_bytes);

#ifdef __cplusplus
}
#endif
#endif
