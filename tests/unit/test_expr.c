/* test_expr.c - the condition expression language (mcphost/expr.h, mh_expr):
 * parsing and precedence, evaluation semantics, compile errors with their
 * positions and messages, and hostile inputs (limits, deep nesting, bytes
 * that are not ASCII). Names come from a small test resolver: A X Y P (as a
 * CPU's registers), value, and the indexed mem[] and io[]. */
#include <mcphost/expr.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mh_test.h"

enum { ID_A = 1, ID_X, ID_Y, ID_P, ID_VALUE, ID_MEM = 10, ID_IO };

typedef struct test_name {
    const char *name;
    int32_t id;
    int indexed;
} test_name;

static const test_name names[] = {
    {"a", ID_A, 0},     {"x", ID_X, 0},       {"y", ID_Y, 0},   {"p", ID_P, 0},
    {"value", ID_VALUE, 0}, {"mem", ID_MEM, 1}, {"io", ID_IO, 1},
};

static int resolve_calls;

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int resolve(void *user, const char *name, size_t length, int32_t *id, int *indexed)
{
    (void)user;
    resolve_calls++;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *n = names[i].name;
        if (strlen(n) != length)
            continue;
        size_t k = 0;
        while (k < length && lower((unsigned char)name[k]) == n[k])
            k++;
        if (k == length) {
            *id = names[i].id;
            *indexed = names[i].indexed;
            return 1;
        }
    }
    return 0;
}

typedef struct machine {
    int64_t a, x, y, p, value;
    int fetches;
    int64_t last_index;
} machine;

static int64_t fetch(void *user, int32_t id, int64_t index)
{
    machine *m = user;
    m->fetches++;
    switch (id) {
    case ID_A: return m->a;
    case ID_X: return m->x;
    case ID_Y: return m->y;
    case ID_P: return m->p;
    case ID_VALUE: return m->value;
    case ID_MEM: m->last_index = index; return (index * 7) & 0xFF;
    case ID_IO: m->last_index = index; return index + 1000;
    default: return -999;
    }
}

static machine default_machine(void)
{
    machine m = {.a = 0x10, .x = 7, .y = 0, .p = 0x30, .value = -5};
    return m;
}

/* Compiles (must succeed) and evaluates against m. */
static int64_t eval_on(const char *text, machine *m)
{
    mh_expr *e = NULL;
    size_t pos = 12345;
    char err[256] = "";
    mh_status st = mh_expr_compile(text, resolve, NULL, &e, &pos, err, sizeof err);
    if (st != MH_OK || !e) {
        fprintf(stderr, "\ncompile of \"%s\" failed: %s\n", text, err);
        CU_FAIL("compile failed");
        return -424242;
    }
    CU_ASSERT_STRING_EQUAL(mh_expr_text(e), text);
    int64_t v = mh_expr_eval(e, fetch, m);
    mh_expr_free(e);
    return v;
}

static int64_t ev(const char *text)
{
    machine m = default_machine();
    return eval_on(text, &m);
}

#define EV(text, expected)                                                              \
    do {                                                                                \
        int64_t got_ = ev(text);                                                        \
        if (got_ != (int64_t)(expected))                                                \
            fprintf(stderr, "\n\"%s\" = %lld, expected %lld\n", text, (long long)got_,  \
                    (long long)(expected));                                             \
        CU_ASSERT_EQUAL(got_, (int64_t)(expected));                                     \
    } while (0)

/* Compiles text, which must fail with exactly this position and message. */
static void check_error(const char *text, size_t position, const char *message)
{
    mh_expr *e = (mh_expr *)&resolve_calls; /* must be set to NULL */
    size_t pos = 12345;
    char err[256] = "untouched";
    mh_status st = mh_expr_compile(text, resolve, NULL, &e, &pos, err, sizeof err);
    CU_ASSERT_EQUAL(st, MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(e);
    if (pos != position || strcmp(err, message) != 0)
        fprintf(stderr, "\n\"%.60s\": got %zu \"%s\"\n   expected %zu \"%s\"\n", text, pos, err,
                position, message);
    CU_ASSERT_EQUAL(pos, position);
    CU_ASSERT_STRING_EQUAL(err, message);
    if (st == MH_OK)
        mh_expr_free(e);
}

/* ---- expr.parse ---- */

static void test_numbers(void)
{
    EV("49152", 49152);
    EV("$C000", 0xC000);
    EV("$c000", 0xC000);
    EV("0xC000", 0xC000);
    EV("0XfF", 255);
    EV("%1010", 10);
    EV("%00000010", 2);
    EV("0", 0);
    EV("007", 7);
    EV("$FFFFFFFFFFFFFFFF", -1);
    EV("18446744073709551615", -1);
    EV("9223372036854775807", INT64_MAX);
    EV("-9223372036854775808", INT64_MIN);
    EV("%1111111111111111111111111111111111111111111111111111111111111111", -1);
    EV("  \t\n 42 \r\n", 42);
}

static void test_precedence(void)
{
    /* each level against the next: the C table */
    EV("1 || 0 && 0", 1);        /* && binds tighter than || */
    EV("0 && 0 | 1", 0);         /* | tighter than && */
    EV("1 | 1 ^ 1", 1);          /* ^ tighter than |: 1 | 0 */
    EV("3 ^ 1 & 1", 2);          /* & tighter than ^: 3 ^ 1 */
    EV("2 & 1 == 1", 0);         /* == tighter than &: 2 & 1 */
    EV("1 == 1 < 2", 1);         /* < tighter than ==: 1 == 1 */
    EV("0 == 2 < 1", 1);         /* 0 == (2<1) */
    EV("1 < 1 << 1", 1);         /* << tighter than <: 1 < 2 */
    EV("1 << 1 + 1", 4);         /* + tighter than << */
    EV("2 + 3 * 4", 14);         /* * tighter than + */
    EV("10 - 4 % 3", 9);
    EV("-2 * 3", -6);            /* unary tighter than * */
    EV("!0 + 1", 2);
    EV("~0 & $FF", 255);
    EV("!A == 0", 1);            /* (!A) == 0 as in C */
    /* left associativity */
    EV("10 - 3 - 2", 5);
    EV("100 / 10 / 5", 2);
    EV("2 * 3 % 4", 2);
    EV("1 << 2 << 3", 32);
    EV("7 == 7 == 1", 1);
    EV("8 >> 1 >> 1", 2);
    /* parentheses */
    EV("(2 + 3) * 4", 20);
    EV("((((1))))", 1);
    EV("2 * (3 + (4 - 1)) * 2", 24);
}

static void test_names(void)
{
    EV("A", 0x10);
    EV("a", 0x10);
    EV("x + X + x", 21);
    EV("VALUE", -5);
    EV("VaLuE * 2", -10);
    EV("A == $10 && (X > 5 || !(P & %00000010))", 1);
    EV("A == $10 && (X > 5 || !(P & %00000010)) && mem[$D012] >= 100", 1); /* $D012*7&255=126 */
    EV("MEM[$D012]", (0xD012 * 7) & 0xFF);
    EV("io[X + 1]", 1008);
    EV("io[io[1] - 1000]", 1001);
    EV("mem [ 2 ] ", 14);
    machine m = default_machine();
    CU_ASSERT_EQUAL(eval_on("mem[$D020 + A]", &m), ((0xD020 + 0x10) * 7) & 0xFF);
    CU_ASSERT_EQUAL(m.last_index, 0xD030);
    CU_ASSERT_EQUAL(m.fetches, 2);
}

static void test_text_kept(void)
{
    const char *src = "  A==1   &&  mem[$D020]  ";
    mh_expr *e = NULL;
    CU_ASSERT_EQUAL(mh_expr_compile(src, resolve, NULL, &e, NULL, NULL, 0), MH_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_STRING_EQUAL(mh_expr_text(e), src);
    CU_ASSERT_PTR_NOT_EQUAL(mh_expr_text(e), src); /* a copy */
    mh_expr_free(e);
    CU_ASSERT_PTR_NULL(mh_expr_text(NULL));
    mh_expr_free(NULL);
}

MH_SUITE("expr.parse", NULL, NULL, MH_TEST(test_numbers), MH_TEST(test_precedence),
         MH_TEST(test_names), MH_TEST(test_text_kept))

/* ---- expr.eval ---- */

static void test_unary(void)
{
    EV("-5", -5);
    EV("--5", 5);
    EV("- -5", 5);
    EV("-A", -16);
    EV("!5", 0);
    EV("!0", 1);
    EV("!!7", 1);
    EV("!A", 0);
    EV("!Y", 1);
    EV("~0", -1);
    EV("~A", ~(int64_t)0x10);
    EV("-~A", 0x11);
    EV("-(-9223372036854775807 - 1)", INT64_MIN); /* wraps */
    EV("-X * -X", 49);
}

static void test_comparisons(void)
{
    EV("A == 16", 1);
    EV("A == 17", 0);
    EV("A != 17", 1);
    EV("A != 16", 0);
    EV("X < 8", 1);
    EV("X < 7", 0);
    EV("X <= 7", 1);
    EV("X > 7", 0);
    EV("X >= 7", 1);
    EV("X > 6", 1);
    EV("value < 0", 1);         /* signed */
    EV("$FFFFFFFFFFFFFFFF < 0", 1);
    EV("(X > 1) + (X > 2) + (X > 100)", 2); /* 0 or 1 */
    EV("5 && 7", 1);
    EV("0 || 9", 1);
    EV("A && X", 1);
    EV("A && Y", 0);
    EV("Y || Y", 0);
    EV("Y || X", 1);
    EV("(A || Y) * 10", 10);
}

static void test_arithmetic(void)
{
    EV("7 / 2", 3);
    EV("-7 / 2", -3);
    EV("7 % 3", 1);
    EV("-7 % 3", -1);
    EV("A / 0", 0);
    EV("A % 0", 0);
    EV("A / Y", 0);
    EV("A % Y", 0);
    EV("(-9223372036854775807 - 1) / -1", INT64_MIN);
    EV("(-9223372036854775807 - 1) % -1", 0);
    EV("9223372036854775807 + 1", INT64_MIN);
    EV("$7FFFFFFFFFFFFFFF * 2", -2);
    EV("1 << 64", 1);
    EV("1 << 65", 2);
    EV("1 << 63", INT64_MIN);
    EV("1 << -1", INT64_MIN);   /* -1 mod 64 = 63 */
    EV("256 >> 68", 16);
    EV("-16 >> 2", -4);         /* sign-extending */
    EV("$FF00 >> 8", 0xFF);
    EV("$F0 | $0F", 0xFF);
    EV("$FF ^ $0F", 0xF0);
    EV("$FF & $0F", 0x0F);
    EV("A + X * 2 - 1", 0x10 + 14 - 1);
    /* the same with runtime operands (no constant folding) */
    machine m = default_machine();
    m.x = 0;
    CU_ASSERT_EQUAL(eval_on("A / X", &m), 0);
    CU_ASSERT_EQUAL(eval_on("A % X", &m), 0);
    m.x = 64 + 3;
    CU_ASSERT_EQUAL(eval_on("A << X", &m), 0x80);
    CU_ASSERT_EQUAL(eval_on("A >> X", &m), 2);
    m.x = -1;
    m.a = INT64_MIN;
    CU_ASSERT_EQUAL(eval_on("A / X", &m), INT64_MIN);
    CU_ASSERT_EQUAL(eval_on("A % X", &m), 0);
    CU_ASSERT_EQUAL(eval_on("-A", &m), INT64_MIN);
    CU_ASSERT_EQUAL(eval_on("X * A", &m), INT64_MIN);
    CU_ASSERT_EQUAL(eval_on("A - 1", &m), INT64_MAX);
    m.value = -16;
    CU_ASSERT_EQUAL(eval_on("value >> 2", &m), -4);
    CU_ASSERT_EQUAL(eval_on("value >> X", &m), -1);
}

static void test_short_circuit(void)
{
    machine m = default_machine();
    m.y = 0;
    CU_ASSERT_EQUAL(eval_on("Y && mem[1] && mem[2]", &m), 0);
    CU_ASSERT_EQUAL(m.fetches, 1);
    m.fetches = 0;
    CU_ASSERT_EQUAL(eval_on("A || mem[1]", &m), 1);
    CU_ASSERT_EQUAL(m.fetches, 1);
    m.fetches = 0;
    CU_ASSERT_EQUAL(eval_on("A && X && mem[1] == 7", &m), 1);
    CU_ASSERT_EQUAL(m.fetches, 3);
    m.fetches = 0;
    CU_ASSERT_EQUAL(eval_on("(Y || X) + (A && Y) * 2 + (A || Y) * 4", &m), 5);
}

static void test_same_program_many_values(void)
{
    mh_expr *e = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_expr_compile("A == $10 && (X > 5 || !(P & %00000010))", resolve,
                                          NULL, &e, NULL, NULL, 0),
                          MH_OK);
    machine m = default_machine();
    int hits = 0;
    for (int a = 0; a < 256; a++) {
        for (int x = 0; x < 8; x++) {
            for (int p = 0; p < 4; p++) {
                m.a = a;
                m.x = x;
                m.p = p;
                int64_t want = a == 0x10 && (x > 5 || !(p & 2));
                int64_t got = mh_expr_eval(e, fetch, &m);
                if (got != want)
                    CU_FAIL("mismatch");
                hits += (int)got;
            }
        }
    }
    CU_ASSERT_EQUAL(hits, 2 * 4 + 6 * 2);
    mh_expr_free(e);
}

static void test_null_fetch(void)
{
    mh_expr *e = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_expr_compile("A + 5", resolve, NULL, &e, NULL, NULL, 0), MH_OK);
    CU_ASSERT_EQUAL(mh_expr_eval(e, NULL, NULL), 5);
    CU_ASSERT_EQUAL(mh_expr_eval(NULL, fetch, NULL), 0);
    mh_expr_free(e);
}

/* One compiled program, evaluated from four threads at once, each with its
 * own machine: every thread gets its own right answers. */
typedef struct thread_job {
    const mh_expr *e;
    int64_t base;
    int wrong;
} thread_job;

static void *eval_thread(void *arg)
{
    thread_job *job = arg;
    machine m = default_machine();
    for (int i = 0; i < 20000; i++) {
        m.a = job->base + i;
        m.x = i & 7;
        int64_t want = ((job->base + i) & 0xFF) == 0x10 && (m.x > 5 || !(m.p & 2));
        if (mh_expr_eval(job->e, fetch, &m) != want)
            job->wrong++;
    }
    return NULL;
}

static void test_threads(void)
{
    mh_expr *e = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_expr_compile("(A & $FF) == $10 && (X > 5 || !(P & %00000010))",
                                          resolve, NULL, &e, NULL, NULL, 0),
                          MH_OK);
    pthread_t threads[4];
    thread_job jobs[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (thread_job){e, t * 1000, 0};
        CU_ASSERT_EQUAL_FATAL(pthread_create(&threads[t], NULL, eval_thread, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(threads[t], NULL);
        CU_ASSERT_EQUAL(jobs[t].wrong, 0);
    }
    mh_expr_free(e);
}

MH_SUITE("expr.eval", NULL, NULL, MH_TEST(test_unary), MH_TEST(test_comparisons),
         MH_TEST(test_arithmetic), MH_TEST(test_short_circuit),
         MH_TEST(test_same_program_many_values), MH_TEST(test_null_fetch),
         MH_TEST(test_threads))

/* ---- expr.errors ---- */

static void test_error_names(void)
{
    check_error("foo", 0, "unknown name \"foo\" at position 0");
    check_error("A == foo", 5, "unknown name \"foo\" at position 5");
    check_error("A == 1 && mem[$D020] == bogus_2", 24,
                "unknown name \"bogus_2\" at position 24");
    check_error("and", 0, "unknown name \"and\" at position 0");
    check_error("A[1]", 1, "\"A\" takes no index, but \"[\" follows at position 1");
    check_error("x [1]", 2, "\"x\" takes no index, but \"[\" follows at position 2");
    check_error("mem == 1", 4, "\"mem\" needs an index in brackets, e.g. mem[$D020], at position 4");
    check_error("1 + MEM", 7, "\"MEM\" needs an index in brackets, e.g. MEM[$D020], at position 7");
    check_error("mem[1", 5,
                "expected an operator or \"]\" at position 5 (to close \"[\" at position 3), "
                "found end of text");
    check_error("mem[1 2]", 6,
                "expected an operator or \"]\" at position 6 (to close \"[\" at position 3), "
                "found \"2\"");
    check_error("mem[]", 4, "expected a number, a name or \"(\" at position 4, found \"]\"");
    /* without a resolver every name is unknown */
    mh_expr *e = NULL;
    size_t pos = 99;
    char err[128];
    CU_ASSERT_EQUAL(mh_expr_compile("1 + A", NULL, NULL, &e, &pos, err, sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(pos, 4);
    CU_ASSERT_STRING_EQUAL(err, "unknown name \"A\" at position 4");
    CU_ASSERT_EQUAL_FATAL(mh_expr_compile("1 + 2", NULL, NULL, &e, &pos, err, sizeof err), MH_OK);
    CU_ASSERT_EQUAL(mh_expr_eval(e, NULL, NULL), 3);
    mh_expr_free(e);
}

static void test_error_syntax(void)
{
    check_error("A ==", 4, "expected a number, a name or \"(\" at position 4, found end of text");
    check_error("A == )", 5, "expected a number, a name or \"(\" at position 5, found \")\"");
    check_error("A +* 2", 3, "expected a number, a name or \"(\" at position 3, found \"*\"");
    check_error("()", 1, "expected a number, a name or \"(\" at position 1, found \")\"");
    check_error("+5", 0, "expected a number, a name or \"(\" at position 0, found \"+\"");
    check_error("(A == 1", 7,
                "expected an operator or \")\" at position 7 (to close \"(\" at position 0), "
                "found end of text");
    check_error("((A == 1)", 9,
                "expected an operator or \")\" at position 9 (to close \"(\" at position 0), "
                "found end of text");
    check_error("(A B)", 3,
                "expected an operator or \")\" at position 3 (to close \"(\" at position 0), "
                "found \"B\"");
    check_error("A == 1)", 6, "unbalanced \")\" at position 6: nothing is open");
    check_error("1]", 1, "unbalanced \"]\" at position 1: nothing is open");
    check_error("A == 1 X", 7, "expected an operator or end of text at position 7, found \"X\"");
    check_error("A ! B", 2, "expected an operator or end of text at position 2, found \"!\"");
    check_error("A (1)", 2, "expected an operator or end of text at position 2, found \"(\"");
    check_error("A = 1", 2, "\"=\" at position 2 is not an operator; write \"==\" to compare");
    check_error("A == 1 @", 7, "unexpected character \"@\" at position 7");
    check_error("A == #$10", 5, "unexpected character \"#\" at position 5");
    check_error("", 0, "empty expression: expected a number, a name or \"(\" at position 0");
    check_error(" \t\r\n", 4, "empty expression: expected a number, a name or \"(\" at position 4");
}

static void test_error_numbers(void)
{
    check_error("$", 1, "expected hex digits after \"$\" at position 1");
    check_error("A == $", 6, "expected hex digits after \"$\" at position 6");
    check_error("0x", 2, "expected hex digits after \"0x\" at position 2");
    check_error("%2", 1, "expected binary digits after \"%\" at position 1");
    check_error("%", 1, "expected binary digits after \"%\" at position 1");
    check_error("%102", 3, "invalid binary digit \"2\" in number at position 3");
    check_error("12ab", 2, "invalid decimal digit \"a\" in number at position 2");
    check_error("$1G", 2, "invalid hex digit \"G\" in number at position 2");
    check_error("0x1_", 3, "invalid hex digit \"_\" in number at position 3");
    check_error("0b101", 1, "invalid digit \"b\" in number at position 1; write binary as %101");
    check_error("$10000000000000000", 0,
                "number \"$10000000000000000\" at position 0 does not fit in 64 bits");
    check_error("1 + 18446744073709551616", 4,
                "number \"18446744073709551616\" at position 4 does not fit in 64 bits");
    check_error("0x1FFFFFFFFFFFFFFFF", 0,
                "number \"0x1FFFFFFFFFFFFFFFF\" at position 0 does not fit in 64 bits");
    check_error("%11111111111111111111111111111111111111111111111111111111111111111", 0,
                "number \"%111111111111111111111111111111111111111...\" at position 0 does not "
                "fit in 64 bits");
    check_error("99999999999999999999999999999", 0,
                "number \"99999999999999999999999999999\" at position 0 does not fit in 64 bits");
}

static void test_error_arguments(void)
{
    mh_expr *e = NULL;
    size_t pos = 99;
    char err[128] = "";
    CU_ASSERT_EQUAL(mh_expr_compile(NULL, resolve, NULL, &e, &pos, err, sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_EQUAL(pos, 0);
    CU_ASSERT_STRING_EQUAL(err, "no expression text at position 0");
    CU_ASSERT_EQUAL(mh_expr_compile("1", resolve, NULL, NULL, &pos, err, sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    /* position and message are optional; a short buffer gets a cut message */
    CU_ASSERT_EQUAL(mh_expr_compile("foo", resolve, NULL, &e, NULL, NULL, 0),
                    MH_ERR_INVALID_ARGUMENT);
    char small[8];
    memset(small, 'Z', sizeof small);
    CU_ASSERT_EQUAL(mh_expr_compile("foo", resolve, NULL, &e, &pos, small, sizeof small),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(small, "unknown");
    memset(small, 'Z', sizeof small);
    CU_ASSERT_EQUAL(mh_expr_compile("foo", resolve, NULL, &e, &pos, small, 1),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(small[0], '\0');
    CU_ASSERT_EQUAL(small[1], 'Z');
}

MH_SUITE("expr.errors", NULL, NULL, MH_TEST(test_error_names), MH_TEST(test_error_syntax),
         MH_TEST(test_error_numbers), MH_TEST(test_error_arguments))

/* ---- expr.hostile ---- */

/* text = prefix + n copies of unit + suffix, in a malloc'ed buffer */
static char *repeat(const char *prefix, const char *unit, size_t n, const char *suffix)
{
    size_t p = strlen(prefix), u = strlen(unit), s = strlen(suffix);
    char *t = malloc(p + u * n + s + 1);
    memcpy(t, prefix, p);
    for (size_t i = 0; i < n; i++)
        memcpy(t + p + u * i, unit, u);
    memcpy(t + p + u * n, suffix, s + 1);
    return t;
}

static void check_error_owned(char *text, size_t position, const char *message)
{
    check_error(text, position, message);
    free(text);
}

static void check_ok_owned(char *text, int64_t expected)
{
    CU_ASSERT_EQUAL(ev(text), expected);
    free(text);
}

#define TOO_DEEP(pos)                                                                     \
    "nesting too deep at position " #pos " (at most 64 parentheses, indexes and unary " \
    "operators inside each other)"

static void test_too_long(void)
{
    char *t = repeat("1", " ", 1023, "");  /* exactly 1024 characters: fine */
    check_ok_owned(t, 1);
    check_error_owned(repeat("1", " ", 1024, ""), 1024,
                      "expression too long: more than 1024 characters at position 1024");
    check_error_owned(repeat("", "(", 10000, "1"), 1024,
                      "expression too long: more than 1024 characters at position 1024");
    /* a huge text is not read to its end */
    size_t big = 64u << 20;
    char *huge = malloc(big + 1);
    memset(huge, '1', big);
    huge[big] = '\0';
    check_error(huge, 1024, "expression too long: more than 1024 characters at position 1024");
    free(huge);
}

/* 64 levels of each kind of nesting are fine, 65 are not; 1000 fail at the
 * 65th opener (position 64 when each opener is one character). */
static void test_too_deep(void)
{
    char *open = repeat("", "(", 64, "");
    char *close = repeat("", ")", 64, "");
    char *t = malloc(200);
    snprintf(t, 200, "%sA%s", open, close);
    check_ok_owned(t, 0x10);
    free(open);
    free(close);
    check_error_owned(repeat("", "(", 65, "1"), 64, TOO_DEEP(64));
    check_error_owned(repeat("", "(", 1000, "1"), 64, TOO_DEEP(64));
    check_ok_owned(repeat("", "!", 64, "5"), 5 != 0);
    check_error_owned(repeat("", "!", 65, "5"), 64, TOO_DEEP(64));
    check_error_owned(repeat("", "!", 1000, "5"), 64, TOO_DEEP(64));
    check_ok_owned(repeat("", "-", 64, "A"), 0x10);
    check_error_owned(repeat("", "-", 1000, "A"), 64, TOO_DEEP(64));
    check_ok_owned(repeat("", "~", 64, "A"), 0x10);
    check_error_owned(repeat("", "~", 1000, "A"), 64, TOO_DEEP(64));
    check_error_owned(repeat("", "-(", 500, "A"), 64, TOO_DEEP(64));
    /* indexes: io[io[...io[1]...]]: 64 deep fine; the 65th "[" is at 64*3+2 */
    char *idx = repeat("", "io[", 64, "1");
    char *tail = repeat("", "]", 64, "");
    t = malloc(400);
    snprintf(t, 400, "%s%s", idx, tail);
    check_ok_owned(t, 1 + 64 * 1000);
    free(idx);
    free(tail);
    check_error_owned(repeat("", "io[", 300, "1"), 194, TOO_DEEP(194));
    /* depth is nesting, not length: many siblings are fine */
    check_ok_owned(repeat("(1)", "+(1)", 200, ""), 201);
    check_ok_owned(repeat("1", "+!!1", 100, ""), 101);
    check_ok_owned(repeat("1", "+!!!1", 100, ""), 1);
}

static void test_too_many_nodes(void)
{
    /* 256 operands + 255 operators = 511 nodes; with a unary minus 512 */
    check_ok_owned(repeat("A", "+A", 255, ""), 256 * 0x10);
    check_ok_owned(repeat("-A", "+A", 255, ""), 254 * 0x10);
    check_ok_owned(repeat("-1", "+1", 255, ""), 254);
    /* the 513th node is the 257th operand, at position 512 */
    check_error_owned(repeat("A", "+A", 256, ""), 512,
                      "too many operands and operators at position 512 (at most 512)");
    check_error_owned(repeat("1", "+1", 400, ""), 512,
                      "too many operands and operators at position 512 (at most 512)");
    /* or an operator: "--...-A+A..." */
    check_error_owned(repeat("-A", "*A", 300, ""), 512,
                      "too many operands and operators at position 512 (at most 512)");
    /* a program as deep in stack as the limits allow, evaluated right */
    char *t = repeat("", "A+(", 63, "A");
    char *close = repeat(t, ")", 63, "");
    check_ok_owned(close, 64 * 0x10);
    free(t);
}

static void test_bytes(void)
{
    check_error("A == \xC3\xA9", 5,
                "unexpected byte 0xC3 at position 5; only ASCII text is allowed");
    check_error("\xFF", 0, "unexpected byte 0xFF at position 0; only ASCII text is allowed");
    check_error("A\x01", 1, "unexpected control character 0x01 at position 1");
    check_error("A\x7F", 1, "unexpected control character 0x7F at position 1");
    check_error("mem[\x80]", 4, "unexpected byte 0x80 at position 4; only ASCII text is allowed");
    check_error("x\xC3\xB6", 1, "unexpected byte 0xC3 at position 1; only ASCII text is allowed");
    check_error("fo\xC3\xB6", 0, "unknown name \"fo\" at position 0"); /* the first fault */
    /* a NUL ends the text */
    CU_ASSERT_EQUAL(ev("A\0 + garbage"), 0x10);
    /* every single byte: compiles (digits) or fails at position 0 or 1 */
    for (int b = 1; b < 256; b++) {
        char text[2] = {(char)b, 0};
        mh_expr *e = NULL;
        size_t pos = 99;
        char err[256] = "";
        mh_status st = mh_expr_compile(text, resolve, NULL, &e, &pos, err, sizeof err);
        if (b >= '0' && b <= '9') {
            CU_ASSERT_EQUAL(st, MH_OK);
            CU_ASSERT_EQUAL(mh_expr_eval(e, fetch, NULL), b - '0');
        } else if (strchr("axyp", lower(b))) {
            CU_ASSERT_EQUAL(st, MH_OK);
        } else {
            CU_ASSERT_EQUAL(st, MH_ERR_INVALID_ARGUMENT);
            CU_ASSERT(pos <= 1);
            CU_ASSERT_PTR_NOT_NULL(strstr(err, "at position"));
        }
        mh_expr_free(e);
    }
}

static void test_long_names(void)
{
    char *name = repeat("", "q", 300, "");
    check_error(name, 0, "unknown name \"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq...\" at position 0");
    free(name);
    name = repeat("A == 1 || (", "q", 200, ")");
    check_error(name, 11, "unknown name \"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq...\" at position 11");
    free(name);
    /* a long found-token is cut too */
    name = repeat("1 ", "z", 100, "");
    check_error(name, 2, "expected an operator or end of text at position 2, found "
                         "\"zzzzzzzzzzzzzzzzzzzzzzzz...\"");
    free(name);
}

/* A reference: random expression trees, printed with only the parentheses
 * precedence needs, must evaluate to what the tree computes with C's rules
 * (written here independently of the library). */
typedef struct rng {
    uint64_t s;
} rng;

static unsigned rnd(rng *r, unsigned n)
{
    r->s = r->s * 6364136223846793005u + 1442695040888963407u;
    return (unsigned)((r->s >> 33) % n);
}

typedef struct ref_op {
    const char *text;
    int precedence;
} ref_op;

static const ref_op ref_ops[] = {
    {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6}, {"!=", 6},
    {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9},
    {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
};

static int64_t ref_binary(int op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    unsigned n = (unsigned)(ub & 63);
    switch (op) {
    case 0: return a || b;
    case 1: return a && b;
    case 2: return a | b;
    case 3: return a ^ b;
    case 4: return a & b;
    case 5: return a == b;
    case 6: return a != b;
    case 7: return a < b;
    case 8: return a <= b;
    case 9: return a > b;
    case 10: return a >= b;
    case 11: return (int64_t)(ua << n);
    case 12: return a >= 0 ? (int64_t)(ua >> n) : -1 - (int64_t)((~ua) >> n);
    case 13: return (int64_t)(ua + ub);
    case 14: return (int64_t)(ua - ub);
    case 15: return (int64_t)(ua * ub);
    case 16: return b == 0 ? 0 : (b == -1 ? (int64_t)(0 - ua) : a / b);
    default: return (b == 0 || b == -1) ? 0 : a % b;
    }
}

/* Appends a random expression to buf; returns its value; *prec is the
 * precedence of its top operator (11 for operands and unary forms). */
static int64_t gen(rng *r, int depth, char *buf, size_t *len, int *prec, const machine *m)
{
    unsigned kind = depth <= 0 ? rnd(r, 3) : rnd(r, 10);
    char tmp[64];
    if (kind < 3) {
        static const char *const leaf_names[] = {"A", "x", "Y", "p", "VALUE"};
        int64_t v;
        switch (rnd(r, 6)) {
        case 0: v = (int64_t)rnd(r, 300); snprintf(tmp, sizeof tmp, "%lld", (long long)v); break;
        case 1: v = (int64_t)rnd(r, 70000); snprintf(tmp, sizeof tmp, "$%llX", (long long)v); break;
        case 2: v = (int64_t)rnd(r, 64); snprintf(tmp, sizeof tmp, "0x%llx", (long long)v); break;
        case 3:
            v = (int64_t)rnd(r, 16);
            snprintf(tmp, sizeof tmp, "%%%d%d%d%d", (int)(v >> 3) & 1, (int)(v >> 2) & 1,
                     (int)(v >> 1) & 1, (int)v & 1);
            break;
        default: {
            unsigned k = rnd(r, 5);
            int64_t vals[] = {m->a, m->x, m->y, m->p, m->value};
            v = vals[k];
            snprintf(tmp, sizeof tmp, "%s", leaf_names[k]);
        }
        }
        *len += (size_t)snprintf(buf + *len, 4096 - *len, "%s", tmp);
        *prec = 11;
        return v;
    }
    if (kind == 3) {
        static const char unary[] = "!~-";
        unsigned u = rnd(r, 3);
        buf[(*len)++] = unary[u];
        size_t at = *len;
        int p;
        int64_t v = gen(r, depth - 1, buf, len, &p, m);
        if (p < 11 || buf[at] == '-') { /* parenthesize binary operands; avoid "--" reading */
            memmove(buf + at + 1, buf + at, *len - at);
            buf[at] = '(';
            (*len)++;
            buf[(*len)++] = ')';
        }
        *prec = 11;
        return u == 0 ? v == 0 : u == 1 ? ~v : (int64_t)(0 - (uint64_t)v);
    }
    unsigned op = rnd(r, (unsigned)(sizeof ref_ops / sizeof ref_ops[0]));
    int my = ref_ops[op].precedence;
    int pa, pb;
    size_t at = *len;
    int64_t a = gen(r, depth - 1, buf, len, &pa, m);
    if (pa < my) {
        memmove(buf + at + 1, buf + at, *len - at);
        buf[at] = '(';
        (*len)++;
        buf[(*len)++] = ')';
    }
    *len += (size_t)snprintf(buf + *len, 4096 - *len, " %s ", ref_ops[op].text);
    at = *len;
    int64_t b = gen(r, depth - 1, buf, len, &pb, m);
    if (pb <= my) {
        memmove(buf + at + 1, buf + at, *len - at);
        buf[at] = '(';
        (*len)++;
        buf[(*len)++] = ')';
    }
    buf[*len] = '\0';
    *prec = my;
    return ref_binary((int)op, a, b);
}

static void test_reference(void)
{
    rng r = {0x2545F4914F6CDD1Du};
    machine m = default_machine();
    int rounds = mh_test_full() ? 100000 : 10000, checked = 0;
    static char buf[4096];
    for (int i = 0; i < rounds; i++) {
        m.a = (int64_t)rnd(&r, 256);
        m.x = (int64_t)rnd(&r, 256);
        m.y = (int64_t)rnd(&r, 3);
        m.p = (int64_t)rnd(&r, 256);
        m.value = (int64_t)rnd(&r, 1000) - 500;
        size_t len = 0;
        int p;
        int64_t want = gen(&r, 1 + (int)rnd(&r, 5), buf, &len, &p, &m);
        buf[len] = '\0';
        mh_expr *e = NULL;
        char err[256] = "";
        if (mh_expr_compile(buf, resolve, NULL, &e, NULL, err, sizeof err) != MH_OK) {
            fprintf(stderr, "\n\"%s\": %s\n", buf, err);
            CU_FAIL("reference text did not compile");
            continue;
        }
        int64_t got = mh_expr_eval(e, fetch, &m);
        if (got != want) {
            fprintf(stderr, "\n\"%s\" = %lld, reference %lld\n", buf, (long long)got,
                    (long long)want);
            CU_FAIL("value differs from the reference");
        }
        checked++;
        mh_expr_free(e);
    }
    CU_ASSERT_EQUAL(checked, rounds);
}

/* Random texts over the language's alphabet (fixed seed): every compile
 * either succeeds, and then evaluates and the text is kept, or fails with a
 * position inside the text and a message that names that position. */
static void test_random_texts(void)
{
    static const char *const pieces[] = {
        "A", "x", "mem[", "io[", "]", "(", ")", "1", "$FF", "0x10", "%101", "99999999999999999999",
        "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^",
        "&&", "||", "!", "~", " ", "foo", "=", "$", "\xC3", "0b1", "[", "value",
    };
    const size_t npieces = sizeof pieces / sizeof pieces[0];
    rng r = {0x9E3779B97F4A7C15u};
    int ok = 0, bad = 0;
    int rounds = mh_test_full() ? 200000 : 20000;
    char text[200];
    machine m = default_machine();
    for (int i = 0; i < rounds; i++) {
        size_t len = 0;
        int n = (int)rnd(&r, 12) + 1;
        for (int k = 0; k < n; k++) {
            const char *p = pieces[rnd(&r, (unsigned)npieces)];
            size_t pl = strlen(p);
            if (len + pl >= sizeof text)
                break;
            memcpy(text + len, p, pl);
            len += pl;
        }
        text[len] = '\0';
        mh_expr *e = NULL;
        size_t pos = 99999;
        char err[256] = "";
        mh_status st = mh_expr_compile(text, resolve, NULL, &e, &pos, err, sizeof err);
        if (st == MH_OK) {
            ok++;
            CU_ASSERT_STRING_EQUAL(mh_expr_text(e), text);
            (void)mh_expr_eval(e, fetch, &m);
            mh_expr_free(e);
        } else {
            bad++;
            char want[40];
            snprintf(want, sizeof want, "at position %zu", pos);
            if (st != MH_ERR_INVALID_ARGUMENT || pos > len || !strstr(err, want)) {
                fprintf(stderr, "\n\"%s\": %d %zu \"%s\"\n", text, (int)st, pos, err);
                CU_FAIL("bad error");
            }
            CU_ASSERT_PTR_NULL(e);
        }
    }
    /* both paths were taken (the alphabet makes most texts invalid) */
    CU_ASSERT(ok > 0);
    CU_ASSERT(bad > rounds / 2);
}

MH_SUITE("expr.hostile", NULL, NULL, MH_TEST(test_too_long), MH_TEST(test_too_deep),
         MH_TEST(test_too_many_nodes), MH_TEST(test_bytes), MH_TEST(test_long_names),
         MH_TEST(test_reference), MH_TEST(test_random_texts))

/* ---- constants (mh_expr_compile_with): a program's labels ---- */

static int label_calls;

static int labels(void *user, const char *name, size_t length, int64_t *value, char *why,
                  size_t why_size)
{
    (void)user;
    label_calls++;
    if (length == 4 && memcmp(name, "loop", 4) == 0) {
        *value = 0xC000;
        return 1;
    }
    snprintf(why, why_size, "closest: loop");
    return 0;
}

static void test_constants(void)
{
    machine m = {0};
    m.x = 0xC000;
    mh_expr *e = NULL;
    char err[200] = "";
    /* the resolver's names come first: "x" is a register, "loop" a label */
    CU_ASSERT_EQUAL_FATAL(mh_expr_compile_with("x == loop && loop + 2 == $C002", resolve, NULL, labels,
                                               NULL, &e, NULL, err, sizeof err),
                          MH_OK);
    CU_ASSERT_EQUAL(mh_expr_eval(e, fetch, &m), 1);
    m.x = 1;
    CU_ASSERT_EQUAL(mh_expr_eval(e, fetch, &m), 0);
    mh_expr_free(e);
    label_calls = 0;
    size_t pos = 0;
    CU_ASSERT_EQUAL(mh_expr_compile_with("a == lop", resolve, NULL, labels, NULL, &e, &pos, err,
                                         sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_EQUAL(pos, 5);
    CU_ASSERT_STRING_EQUAL(err, "unknown name \"lop\" at position 5: closest: loop");
    CU_ASSERT_EQUAL(label_calls, 1);
    /* a label takes no index; without the callback it is unknown */
    CU_ASSERT_EQUAL(mh_expr_compile_with("loop[1]", resolve, NULL, labels, NULL, &e, NULL, err,
                                         sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_expr_compile("loop == 1", resolve, NULL, &e, NULL, err, sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(err, "unknown name \"loop\" at position 0");
}

MH_SUITE("expr.constants", NULL, NULL, MH_TEST(test_constants))
