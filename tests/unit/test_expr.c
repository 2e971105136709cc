/* test_expr.c - the condition expression language (mcphost/expr.h, mh_expr):
 * parsing and precedence, evaluation semantics, compile errors with their
 * positions and messages, and hostile inputs (limits, deep nesting, bytes
 * that are not ASCII). Names come from a small test resolver: A X Y P (as a
 * CPU's registers), value, and the indexed mem[] and io[]. */
#include <mcphost/expr.h>
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

MH_SUITE("expr.eval", NULL, NULL, MH_TEST(test_unary), MH_TEST(test_comparisons),
         MH_TEST(test_arithmetic), MH_TEST(test_short_circuit),
         MH_TEST(test_same_program_many_values), MH_TEST(test_null_fetch))

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
