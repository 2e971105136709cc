/* fuzz_expr.c - libFuzzer target for the condition expression language
 * (mh_expr, mcphost/expr.h).
 *
 * Each input is compiled as an expression text (cut at the first NUL) with
 * a resolver that knows every name starting with a letter a-m (indexed when
 * it starts with a-c), and a constant callback (mh_expr_compile_with, as
 * labels are) that knows those starting with n-p and explains the rest. Invariants, each aborting on
 * violation (ASan/UBSan catch memory and undefined-behaviour bugs):
 *   1. success: the kept text equals the input; two evaluations against
 *      the same fetch agree; a second compile gives the same value;
 *   2. failure: MH_ERR_INVALID_ARGUMENT, no program, the position is inside
 *      the text (or MH_EXPR_MAX_TEXT for too long), and the message names
 *      "at position N"; a 5-byte error buffer still gets a cut, terminated
 *      message.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_expr
 *   run:   build-fuzz/tests/fuzz/fuzz_expr -max_total_time=60 -max_len=2048 CORPUS_DIR
 */
#include <mcphost/expr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_check.h"

static int resolve(void *user, const char *name, size_t length, int32_t *id, int *indexed)
{
    (void)user;
    CHECK(length > 0);
    char c = (char)(name[0] | 0x20);
    if (c < 'a' || c > 'm')
        return 0;
    *id = (int32_t)(c - 'a') * 1000 + (int32_t)length;
    *indexed = c <= 'c';
    return 1;
}

static int constant(void *user, const char *name, size_t length, int64_t *value, char *why,
                    size_t why_size)
{
    (void)user;
    CHECK(length > 0);
    char c = (char)(name[0] | 0x20);
    if (c < 'n' || c > 'p') {
        snprintf(why, why_size, "no label \"%.*s\" either", (int)(length > 16 ? 16 : length), name);
        return 0;
    }
    *value = (int64_t)length * 0x101;
    return 1;
}

static int64_t fetch(void *user, int32_t id, int64_t index)
{
    (void)user;
    return (int64_t)((uint64_t)id * 0x9E3779B97F4A7C15u ^ (uint64_t)index * 31u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t length = strlen(text);

    mh_expr *e = NULL;
    size_t pos = (size_t)-1;
    char err[256];
    memset(err, 'Q', sizeof err);
    mh_status st = mh_expr_compile_with(text, resolve, NULL, constant, NULL, &e, &pos, err, sizeof err);
    if (st == MH_OK) {
        CHECK(e != NULL);
        CHECK(length <= MH_EXPR_MAX_TEXT);
        CHECK(strcmp(mh_expr_text(e), text) == 0);
        int64_t v1 = mh_expr_eval(e, fetch, NULL);
        int64_t v2 = mh_expr_eval(e, fetch, NULL);
        CHECK(v1 == v2);
        (void)mh_expr_eval(e, NULL, NULL);
        mh_expr *again = NULL;
        CHECK(mh_expr_compile_with(text, resolve, NULL, constant, NULL, &again, NULL, NULL, 0) == MH_OK);
        CHECK(mh_expr_eval(again, fetch, NULL) == v1);
        mh_expr_free(again);
        mh_expr_free(e);
    } else {
        CHECK(st == MH_ERR_INVALID_ARGUMENT);
        CHECK(e == NULL);
        CHECK(memchr(err, '\0', sizeof err) != NULL);
        CHECK(pos <= length || (length > MH_EXPR_MAX_TEXT && pos == MH_EXPR_MAX_TEXT));
        char want[48];
        snprintf(want, sizeof want, "at position %zu", pos);
        CHECK(strstr(err, want) != NULL);
        char small[5];
        size_t pos2 = 0;
        CHECK(mh_expr_compile_with(text, resolve, NULL, constant, NULL, &e, &pos2, small, sizeof small) ==
              st);
        CHECK(pos2 == pos && strlen(small) == 4 && memcmp(small, err, 4) == 0);
    }
    free(text);
    return 0;
}
