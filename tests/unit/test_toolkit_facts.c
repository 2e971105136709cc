/* Tests of mh_toolkit_facts_text and mh_toolkit_text_with_facts
 * (toolkit.facts): a structured result rendered as text a model reads:
 * lines, hex twins folded, inline records, Markdown tables, multi-line
 * strings, facts already shown left out, the size limit, and input that is
 * not an object. */
#include "mh_test.h"

#include <mcphost/toolkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_facts(const char *json, const char *shown, size_t max, const char *expected,
                        unsigned line)
{
    char *text = mh_toolkit_facts_text(json, shown, max);
    char cond[2048];
    int ok = text && expected && strcmp(text, expected) == 0;
    if (!expected) ok = text == NULL;
    snprintf(cond, sizeof cond, "expected \"%s\", got \"%s\"", expected ? expected : "(null)",
             text ? text : "(null)");
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, cond, __FILE__, "", CU_FALSE);
    free(text);
}
#define FACTS(json, shown, max, expected) check_facts((json), (shown), (max), (expected), __LINE__)

static void test_scalars_and_hex_twins(void)
{
    FACTS("{\"state\":\"paused\",\"pc\":49152,\"pc_hex\":\"$C000\",\"warp\":false,\"n\":null,"
          "\"ratio\":0.5}",
          NULL, 0, "state: paused\npc: $C000\nwarp: no\nn: none\nratio: 0.5");
    /* A _hex key without a number beside it is a fact of its own. */
    FACTS("{\"id_hex\":\"$01\"}", NULL, 0, "id_hex: $01");
    FACTS("{}", NULL, 0, "(no facts)");
}

static void test_objects_and_arrays(void)
{
    FACTS("{\"access\":{\"kind\":\"write\",\"address\":53280,\"address_hex\":\"$D020\"},"
          "\"kinds\":[\"read\",\"write\"],\"none\":[]}",
          NULL, 0, "access: kind=write, address=$D020\nkinds: read, write\nnone: none");
    /* An object too long for a line becomes a block. */
    FACTS("{\"o\":{\"a\":\"0123456789012345678901234567890123456789\","
          "\"b\":\"0123456789012345678901234567890123456789\","
          "\"c\":\"0123456789012345678901234567890123456789\"}}",
          NULL, 0,
          "o:\n  a: 0123456789012345678901234567890123456789\n"
          "  b: 0123456789012345678901234567890123456789\n"
          "  c: 0123456789012345678901234567890123456789");
}

static void test_tables(void)
{
    FACTS("{\"breakpoints\":[{\"id\":1,\"start\":49152,\"start_hex\":\"$C000\",\"enabled\":true},"
          "{\"id\":2,\"start\":53280,\"start_hex\":\"$D020\",\"enabled\":false,\"group\":\"a|b\"}]}",
          NULL, 0,
          "breakpoints (2):\n| id | start | enabled | group |\n|---|---|---|---|\n"
          "| 1 | $C000 | yes |  |\n| 2 | $D020 | no | a\\|b |");
    /* Records wider than a readable table: one line each. */
    char wide[1024] = "{\"voices\":[";
    for (int v = 0; v < 2; v++) {
        size_t n = strlen(wide);
        snprintf(wide + n, sizeof wide - n, "%s{", v ? "," : "");
        for (int k = 0; k < 15; k++) {
            n = strlen(wide);
            snprintf(wide + n, sizeof wide - n, "%s\"k%d\":%d", k ? "," : "", k, v * 100 + k);
        }
        strcat(wide, "}");
    }
    strcat(wide, "]}");
    char *text = mh_toolkit_facts_text(wide, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(strncmp(text, "voices (2):\n- k0=0, k1=1, ", 26), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n- k0=100, k1=101, "));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "k14=114"));
    CU_ASSERT_PTR_NULL(strstr(text, "|"));
    free(text);
    /* Cells hold nested values inline, newlines as " / ". */
    FACTS("{\"rows\":[{\"r\":{\"line\":1,\"cycle\":2},\"t\":\"x\\ny\"}]}", NULL, 0,
          "rows (1):\n| r | t |\n|---|---|\n| {line=1, cycle=2} | x / y |");
}

static void test_multiline_and_shown(void)
{
    FACTS("{\"listing\":\"LDA #$00\\nRTS\",\"n\":2}", NULL, 0, "listing:\nLDA #$00\nRTS\nn: 2");
    /* What the summary already shows is not repeated; short strings are. */
    FACTS("{\"screen\":\"READY. LINE ONE HERE\",\"lines\":[\"READY. LINE ONE HERE\"],\"mode\":\"text\"}",
          "READY. LINE ONE HERE", 0, "mode: text");
    /* Records the summary lists line by line (a listing) or on one line (a
     * list of matches) are not repeated; one fact missing keeps the table. */
    static const char listing[] =
        "{\"lines\":[{\"address\":49152,\"address_hex\":\"$C000\",\"bytes\":\"A9 02\","
        "\"text\":\"LDA #$02\",\"n\":null},{\"address\":49154,\"address_hex\":\"$C002\","
        "\"bytes\":\"60\",\"text\":\"RTS\"}],\"next\":49155,\"next_hex\":\"$C003\"}";
    FACTS(listing, " C000  A9 02  LDA #$02\n C002  60     RTS\n", 0, "next: $C003");
    FACTS(listing, " C000  A9 02  LDA #$02\n C002  61     RTS\n", 0,
          "lines (2):\n| address | bytes | text | n |\n|---|---|---|---|\n"
          "| $C000 | A9 02 | LDA #$02 | none |\n| $C002 | 60 | RTS |  |\nnext: $C003");
    /* Out of order, or a number only inside a longer one, is not shown. */
    FACTS(listing, " C002  60     RTS\n C000  A9 02  LDA #$02\n", 0,
          "lines (2):\n| address | bytes | text | n |\n|---|---|---|---|\n"
          "| $C000 | A9 02 | LDA #$02 | none |\n| $C002 | 60 | RTS |  |\nnext: $C003");
    /* A flag cannot be checked in a summary's own words: the table stays. */
    FACTS("{\"l\":[{\"a\":\"LDA #$02\",\"current\":true}]}", ">LDA #$02", 0,
          "l (1):\n| a | current |\n|---|---|\n| LDA #$02 | yes |");
    FACTS("{\"matches\":[{\"address\":1280,\"address_hex\":\"$0500\"},{\"address\":1536,"
          "\"address_hex\":\"$0600\"}],\"count\":2}",
          "2 matches: $0500 $0600", 0, "count: 2");
    FACTS("{\"m\":[{\"n\":5}]}", "x 15 y", 0, "m (1):\n| n |\n|---|\n| 5 |");
    char *both = mh_toolkit_text_with_facts("2 matches", "{\"count\":2}");
    CU_ASSERT_STRING_EQUAL(both, "2 matches\n\ncount: 2");
    free(both);
}

static void test_limit_and_bad_input(void)
{
    /* 200 rows under a 300-byte limit: cut, with a note saying how many. */
    char json[8192] = "{\"rows\":[";
    for (int i = 0; i < 200; i++) {
        size_t n = strlen(json);
        snprintf(json + n, sizeof json - n, "%s{\"i\":%d}", i ? "," : "", i);
    }
    strcat(json, "]}");
    char *text = mh_toolkit_facts_text(json, NULL, 300);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(strlen(text) < 600);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "more rows not shown)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "| 0 |"));
    CU_ASSERT_PTR_NULL(strstr(text, "| 199 |"));
    free(text);
    /* A long list of values is cut too. */
    char list[8192] = "{\"v\":[";
    for (int i = 0; i < 1000; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%d", i ? "," : "", i);
    }
    strcat(list, "]}");
    text = mh_toolkit_facts_text(list, NULL, 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(strlen(text) < 400);
    CU_ASSERT_EQUAL(strncmp(text, "v: 0, 1, 2, ", 12), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "more not shown)"));
    free(text);
    FACTS("[1,2]", NULL, 0, NULL);
    FACTS("{\"a\":", NULL, 0, NULL);
    FACTS("\"x\"", NULL, 0, NULL);
    CU_ASSERT_PTR_NULL(mh_toolkit_facts_text(NULL, NULL, 0));
    /* Deep nesting and odd keys do not break it. */
    FACTS("{\"a\":{\"b\":{\"c\":[[1,[2]],{\"\":3}]}}}", NULL, 0, "a: b={c=[[1, [2]], {=3}]}");
}

MH_SUITE("toolkit.facts", NULL, NULL, MH_TEST(test_scalars_and_hex_twins),
         MH_TEST(test_objects_and_arrays), MH_TEST(test_tables), MH_TEST(test_multiline_and_shown),
         MH_TEST(test_limit_and_bad_input))
