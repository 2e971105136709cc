/* fuzz_json.c - libFuzzer target for the SDK JSON library (mh_json).
 *
 * Every input is used five ways, each with an invariant that aborts on
 * violation (ASan/UBSan catch memory and undefined-behaviour bugs):
 *   1. parsed as JSON: an error has a sane offset/line/message; a document
 *      is walked, written back with mh_json_writer, parsed again and must
 *      be the same tree (strings byte-exact, numbers the same double,
 *      exact integers the same integer);
 *   2. parsed again under tight limits (depth 4, half the size): no crash,
 *      a limit error when the first parse exceeded them;
 *   3. if the document is an object, every mcphost/args.h reader runs on it;
 *   4. written as a string value: the output must parse back to the same
 *      bytes when they are valid UTF-8, and parse at all otherwise;
 *   5. base64-encoded and decoded back; and decoded as base64 text;
 *   6. an object rendered as facts text (mh_toolkit_facts_text).
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_json
 *   run:   build-fuzz/tests/fuzz/fuzz_json -max_total_time=60 -max_len=4096 CORPUS_DIR
 */
#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/toolkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_check.h"

static void write_value(mh_json_writer *w, const mh_json *v)
{
    size_t n = 0;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    switch (mh_json_typeof(v)) {
    case MH_JSON_NULL: mh_json_write_null(w); break;
    case MH_JSON_BOOL:
        CHECK(mh_json_as_bool(v, &b) == MH_OK);
        mh_json_write_bool(w, b);
        break;
    case MH_JSON_NUMBER:
        if (mh_json_as_int64(v, &i) == MH_OK) mh_json_write_int(w, i);
        else if (mh_json_as_uint64(v, &u) == MH_OK) mh_json_write_uint(w, u);
        else {
            CHECK(mh_json_as_double(v, &d) == MH_OK);
            mh_json_write_double(w, d);
        }
        break;
    case MH_JSON_STRING: {
        const char *s = mh_json_as_string(v, &n);
        CHECK(s && s[n] == '\0');
        mh_json_write_stringn(w, s, n);
        break;
    }
    case MH_JSON_ARRAY:
        mh_json_write_array_begin(w);
        for (size_t k = 0; k < mh_json_array_size(v); k++) write_value(w, mh_json_array_get(v, k));
        CHECK(mh_json_array_get(v, mh_json_array_size(v)) == NULL);
        mh_json_write_array_end(w);
        break;
    case MH_JSON_OBJECT:
        mh_json_write_object_begin(w);
        for (size_t k = 0; k < mh_json_object_size(v); k++) {
            const char *key = mh_json_object_key(v, k, &n);
            CHECK(key && key[n] == '\0');
            CHECK(mh_json_object_getn(v, key, n) == mh_json_object_value(v, k)); /* keys are unique */
            mh_json_write_keyn(w, key, n);
            write_value(w, mh_json_object_value(v, k));
        }
        mh_json_write_object_end(w);
        break;
    case MH_JSON_NONE: CHECK(0);
    }
}

static void same_tree(const mh_json *a, const mh_json *b)
{
    CHECK(mh_json_typeof(a) == mh_json_typeof(b));
    size_t na = 0, nb = 0;
    switch (mh_json_typeof(a)) {
    case MH_JSON_NUMBER: {
        double da = 0, db = 0;
        int64_t ia = 0, ib = 0;
        CHECK(mh_json_as_double(a, &da) == MH_OK && mh_json_as_double(b, &db) == MH_OK);
        CHECK(da == db);
        if (mh_json_as_int64(a, &ia) == MH_OK) CHECK(mh_json_as_int64(b, &ib) == MH_OK && ia == ib);
        break;
    }
    case MH_JSON_BOOL: {
        bool x = false, y = false;
        CHECK(mh_json_as_bool(a, &x) == MH_OK && mh_json_as_bool(b, &y) == MH_OK && x == y);
        break;
    }
    case MH_JSON_STRING: {
        const char *sa = mh_json_as_string(a, &na), *sb = mh_json_as_string(b, &nb);
        CHECK(na == nb && memcmp(sa, sb, na) == 0);
        break;
    }
    case MH_JSON_ARRAY:
        CHECK(mh_json_array_size(a) == mh_json_array_size(b));
        for (size_t k = 0; k < mh_json_array_size(a); k++)
            same_tree(mh_json_array_get(a, k), mh_json_array_get(b, k));
        break;
    case MH_JSON_OBJECT:
        CHECK(mh_json_object_size(a) == mh_json_object_size(b));
        for (size_t k = 0; k < mh_json_object_size(a); k++) {
            const char *ka = mh_json_object_key(a, k, &na), *kb = mh_json_object_key(b, k, &nb);
            CHECK(na == nb && memcmp(ka, kb, na) == 0);
            same_tree(mh_json_object_value(a, k), mh_json_object_value(b, k));
        }
        break;
    case MH_JSON_NULL:
    case MH_JSON_NONE: break;
    }
}

static void check_error(const mh_json_error *e, size_t size)
{
    CHECK(e->status != MH_OK);
    CHECK(e->message[0] != '\0');
    CHECK(memchr(e->message, '\0', sizeof e->message) != NULL);
    if (e->line) {
        CHECK(e->offset <= size);
        CHECK(e->column >= 1);
        CHECK(strncmp(e->message, "line ", 5) == 0);
    }
}

static void run_args(const mh_json *args)
{
    char err[MH_ARGS_ERROR_SIZE];
    uint32_t a = 0, start = 0, length = 0;
    int64_t i = 0;
    uint8_t bytes[64];
    size_t count = 0, index = 0;
    bool b = false;
    const char *s = NULL;
    static const char *const choices[] = {"hex", "text"};
    mh_status st;
    st = mh_args_address(args, "address", 0xFFFF, &a, err, sizeof err);
    CHECK(st != MH_OK || a <= 0xFFFF);
    st = mh_args_range(args, 0xFFFF, 16, 4096, &start, &length, err, sizeof err);
    CHECK(st != MH_OK || (length >= 1 && length <= 4096 && (uint64_t)start + length - 1 <= 0xFFFF));
    st = mh_args_int(args, "count", -5, 1000, &i, err, sizeof err);
    CHECK(st != MH_OK || (i >= -5 && i <= 1000));
    st = mh_args_bytes(args, "bytes", bytes, sizeof bytes, &count, err, sizeof err);
    CHECK(st != MH_OK || (count >= 1 && count <= sizeof bytes));
    mh_args_bool(args, "on", &b, err, sizeof err);
    mh_args_string(args, "text", &s, NULL, err, sizeof err);
    st = mh_args_choice(args, "format", choices, 2, &index, err, sizeof err);
    CHECK(st != MH_OK || index < 2);
    /* A tiny error buffer gets a NUL-terminated message whenever there is
     * an error (on success it is not written: fill it so that shows). */
    char tiny[5];
    memset(tiny, 'x', sizeof tiny);
    st = mh_args_address(args, "address", 0xFF, &a, tiny, sizeof tiny);
    CHECK(st == MH_OK || memchr(tiny, '\0', sizeof tiny) != NULL);

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "address", a);
    mh_json_write_object_end(w);
    char *text = mh_json_writer_finish(w, NULL);
    CHECK(text != NULL);
    free(text);
    mh_json_writer_free(w);
}

static int valid_utf8(const uint8_t *data, size_t size)
{
    /* Valid exactly when the parser accepts it as string content once
     * quotes, backslashes and control characters are out of the way. */
    char *quoted = malloc(size + 2);
    quoted[0] = '"';
    for (size_t k = 0; k < size; k++) {
        int special = data[k] < 0x20 || data[k] == '"' || data[k] == '\\';
        quoted[k + 1] = special ? 'x' : (char)data[k];
    }
    quoted[size + 1] = '"';
    mh_json_doc *doc = mh_json_parse(quoted, size + 2, NULL, NULL);
    free(quoted);
    mh_json_free(doc);
    return doc != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    mh_json_error e;

    /* 1. Parse, and round-trip through the writer. */
    mh_json_doc *doc = mh_json_parse(text, size, NULL, &e);
    if (!doc) {
        check_error(&e, size);
    } else {
        CHECK(e.status == MH_OK);
        mh_json_writer *w = mh_json_writer_new();
        write_value(w, mh_json_root(doc));
        size_t len = 0;
        char *out = mh_json_writer_finish(w, &len);
        CHECK(out != NULL);
        CHECK(strlen(out) == len); /* NUL is always escaped */
        mh_json_writer_free(w);
        mh_json_doc *again = mh_json_parse(out, len, NULL, &e);
        if (!again) fprintf(stderr, "rewritten text does not parse: %s\n%s\n", e.message, out);
        CHECK(again != NULL);
        same_tree(mh_json_root(doc), mh_json_root(again));
        mh_json_free(again);
        free(out);

        /* 3. The argument readers. */
        if (mh_json_typeof(mh_json_root(doc)) == MH_JSON_OBJECT) run_args(mh_json_root(doc));

        /* 6. The facts renderer (mcphost/toolkit.h) on the rewritten text,
         * with the input as the text already shown: an object renders to a
         * string, anything else to NULL. */
        char *json = malloc(size + 1);
        CHECK(json != NULL);
        memcpy(json, text, size);
        json[size] = '\0';
        char *facts = strlen(json) == size ? mh_toolkit_facts_text(json, json, 512) : NULL;
        if (strlen(json) == size)
            CHECK((facts != NULL) == (mh_json_typeof(mh_json_root(doc)) == MH_JSON_OBJECT));
        free(facts);
        free(json);
    }

    /* 2. Tight limits. */
    mh_json_parse_opts tight = {size / 2 + 1, 4};
    mh_json_doc *small = mh_json_parse(text, size, &tight, &e);
    if (small) {
        CHECK(doc != NULL);
        mh_json_free(small);
    } else {
        check_error(&e, size);
    }
    mh_json_free(doc);

    /* 4. The input as a string value. */
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_stringn(w, text, size);
    size_t len = 0;
    char *out = mh_json_writer_finish(w, &len);
    mh_json_writer_free(w);
    CHECK(out != NULL);
    doc = mh_json_parse(out, len, NULL, &e);
    CHECK(doc != NULL);
    if (valid_utf8(data, size)) {
        size_t n = 0;
        const char *s = mh_json_as_string(mh_json_root(doc), &n);
        CHECK(n == size && memcmp(s, data, size) == 0);
    }
    mh_json_free(doc);
    free(out);

    /* 5. Base64 both ways. */
    char *b64 = mh_base64_encode_alloc(data, size);
    CHECK(b64 != NULL);
    uint8_t *back = malloc(size + 1);
    CHECK(mh_base64_decode(back, size, b64, strlen(b64)) == size);
    CHECK(memcmp(back, data, size) == 0);
    free(b64);
    size_t decoded = mh_base64_decode(back, size + 1, text, size);
    CHECK(decoded == SIZE_MAX || decoded <= size);
    free(back);
    return 0;
}
