/* tools_debug.memory - memory_read, memory_write, memory_fill,
 * memory_search, memory_compare and memory_banks through the in-process
 * host: round trips on a bare6502 session, 64 KiB reads in hex and base64,
 * the C64's banking after $00/$01 change, side-effect-free I/O reads
 * ($DC0D twice with the timer flag set), spaces addressed by offset and by
 * CPU address, and every kind of bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/json.h"
#include "mh_test.h"
#include "sessions.h"
#include "test_tools_debug_common.h"

static mh_harness h;

static int suite_init(void)
{
    if (tdt_setup(&h) != 0) return -1;
    if (!tdt_ok(mh_harness_call_tool(&h, "session_create",
                                     "{\"machine\":\"bare6502\",\"name\":\"mem\",\"options\":{\"start\":\"$0800\"}}")))
        return -1;
    if (!tdt_ok(mh_harness_call_tool(&h, "session_create", "{\"machine\":\"c64\",\"name\":\"mem64\"}")))
        return -1;
    return tdt_ok(mh_harness_call_tool(&h, "session_create", "{\"machine\":\"fixture\",\"name\":\"nomem\"}")) ? 0 : -1;
}

static int suite_cleanup(void)
{
    tdt_teardown(&h);
    return 0;
}

static const char *read_hex(const char *session, const char *address, int length)
{
    static char hex[300];
    const cJSON *r = tdt_call(&h, "memory_read", "{\"session\":\"%s\",\"address\":\"%s\",\"length\":%d}",
                              session, address, length);
    snprintf(hex, sizeof hex, "%s", tdt_ok(r) ? tdt_str(tdt_sc(r), "hex") : "(error)");
    return hex;
}

static void test_write_read_round_trip(void)
{
    const cJSON *r = tdt_call(&h, "memory_write",
                              "{\"session\":\"mem\",\"address\":\"$C000\",\"bytes\":\"A9 01 8d 20 d0\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "length"), 5);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "end_hex"), "$C004");
    CU_ASSERT_TRUE(tdt_bool(s, "verified"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "Wrote 5 bytes to cpu $C000-$C004"));
    /* Array form, decimal address, and end instead of length. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":49157,\"bytes\":[96,\"$EA\",255]}"));
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"0xC000\",\"end\":\"$C007\"}");
    TDT_OK(r);
    s = tdt_sc(r);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "hex"), "A9018D20D060EAFF");
    CU_ASSERT_EQUAL(tdt_num(s, "address"), 0xC000);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "space"), "cpu");
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(s, "base64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "C000  A9 01 8D 20 D0 60 EA FF"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "|... .`..|"));
    /* The same bytes in space "ram". */
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"space\":\"ram\",\"address\":\"$C000\",\"length\":3}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "hex"), "A9018D");
}

static void test_read_64k_hex_and_base64(void)
{
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$FFFE\",\"bytes\":\"12 34\"}"));
    const cJSON *r = tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"length\":65536,\"format\":\"both\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    const char *hex = tdt_str(s, "hex");
    CU_ASSERT_EQUAL(strlen(hex), 131072);
    CU_ASSERT_STRING_EQUAL(hex + 131068, "1234");
    CU_ASSERT_EQUAL(strncmp(hex + 2 * 0xC000, "A9018D20D0", 10), 0);
    const char *b64 = tdt_str(s, "base64");
    static uint8_t bytes[65536 + 3];
    CU_ASSERT_EQUAL(mh_base64_decode(bytes, sizeof bytes, b64, strlen(b64)), 65536);
    CU_ASSERT_EQUAL(bytes[0xC000], 0xA9);
    CU_ASSERT_EQUAL(bytes[0xFFFF], 0x34);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "end_hex"), "$FFFF");
    /* Too long for a whole text dump: the first 4 KiB as one, and how to
     * page on (a client that shows only text sees them). */
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "65536 bytes of cpu $0000-$FFFF"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "\n0FF0 "));
    CU_ASSERT_PTR_NULL(strstr(mh_harness_text(r), "\n1000 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "page on with memory_read address $1000"));
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"$FFFE\",\"length\":2,\"format\":\"base64\"}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "base64"), "EjQ=");
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "hex"));
}

static void test_read_bad_inputs(void)
{
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"length\":0}"), "length");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"length\":65537}"),
            "length: 65537 is above the maximum 65536");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"$10000\"}"),
            "$10000 is above the highest address $FFFF");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"$FFF0\",\"length\":32}"),
            "length");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"$C000\",\"end\":\"$BFFF\"}"),
            "end");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"$G000\"}"), "address:",
            "\"$C000\"");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"space\":\"rom\"}"),
            "unknown memory space \"rom\"", "\"cpu\", \"ram\"");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\"}"), "address");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":-1}"), "address");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":\"99999999999999999999999\"}"), "address");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"length\":\"$10001\"}"), "length");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"length\":1e300}"), "length");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem\",\"address\":0,\"format\":\"bin\"}"), "format");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"nomem\",\"address\":0}"),
            "not available on session \"nomem\"", "mh.memory/1");
}

static void test_write_bad_inputs_write_nothing(void)
{
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":\"11 22\"}"));
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":\"A9 XY\"}"), "bytes");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":\"\"}"), "bytes");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":[256]}"), "bytes");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":\"123\"}"), "bytes");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\"}"), "bytes");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"bytes\":\"00\"}"), "address");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$FFFF\",\"bytes\":\"01 02\"}"),
            "runs past the end of memory space \"cpu\"");
    TDT_ERR(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$C100\",\"bytes\":\"00\",\"space\":\"vram\"}"),
            "unknown memory space \"vram\"");
    CU_ASSERT_STRING_EQUAL(read_hex("mem", "$C100", 2), "1122");
}

static void test_fill(void)
{
    const cJSON *r = tdt_call(&h, "memory_fill",
                              "{\"session\":\"mem\",\"address\":\"$C200\",\"length\":5,\"bytes\":\"DE AD\"}");
    TDT_OK(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "Filled 5 bytes of cpu $C200-$C204"));
    CU_ASSERT_STRING_EQUAL(read_hex("mem", "$C1FF", 7), "00DEADDEADDE00");
    TDT_OK(tdt_call(&h, "memory_fill", "{\"session\":\"mem\",\"address\":\"$C200\",\"end\":\"$C201\",\"bytes\":[0]}"));
    CU_ASSERT_STRING_EQUAL(read_hex("mem", "$C200", 3), "0000DE");
    TDT_ERR(tdt_call(&h, "memory_fill", "{\"session\":\"mem\",\"address\":\"$C200\",\"bytes\":\"00\"}"),
            "length", "end");
    char big[1200] = "";
    for (int i = 0; i < 257; i++) strcat(big, "00 ");
    TDT_ERR(tdt_call(&h, "memory_fill", "{\"session\":\"mem\",\"address\":0,\"length\":1,\"bytes\":\"%s\"}", big),
            "bytes");
    TDT_ERR(tdt_call(&h, "memory_fill", "{\"session\":\"mem\",\"address\":\"$FFFE\",\"length\":3,\"bytes\":\"00\"}"),
            "length");
}

static void test_search_with_wildcards(void)
{
    TDT_OK(tdt_call(&h, "memory_fill", "{\"session\":\"mem\",\"address\":\"$D000\",\"length\":256,\"bytes\":\"00\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$D000\",\"bytes\":\"A9 05 8D 20 D0\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$D010\",\"bytes\":\"A9 07 8D 21 D0\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$D020\",\"bytes\":\"48 45 4C 4C 4F\"}"));
    const char *range = "\"address\":\"$D000\",\"length\":256";
    const cJSON *r = tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"A9 ?? 8D\"}", range);
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "count"), 2);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(s, "matches");
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(m, 0), "address"), 0xD000);
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(m, 1), "address_hex"), "$D010");
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "pattern"), "A9 ?? 8D");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "2 matches of A9 ?? 8D in cpu $D000-$D0FF: $D000 $D010"));
    /* Other spellings of the same pattern, and half-byte wildcards. */
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"a9??8d\"}", range)), "count"), 2);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"$A9,*,0x8D\"}", range)), "count"), 2);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"8D 2? D0\"}", range)), "count"), 2);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"8D ?1\"}", range)), "count"), 1);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"A9 05\"}", range)), "count"), 1);
    r = tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"text\":\"HELLO\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "count"), 1);
    CU_ASSERT_EQUAL(tdt_num(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "matches"), 0), "address"), 0xD020);
    r = tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"A9 ?? 8D\",\"limit\":1}", range);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "count"), 2);
    CU_ASSERT_TRUE(tdt_bool(tdt_sc(r), "truncated"));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "matches")), 1);
    /* A pattern longer than the range, and no match. */
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"address\":\"$D000\",\"length\":2,\"pattern\":\"A9 05 8D\"}")), "count"), 0);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_search", "{\"session\":\"mem\",%s,\"pattern\":\"FF EE DD\"}", range)), "count"), 0);
}

static void test_search_bad_patterns(void)
{
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9 G1\"}"),
            "token 2 \"G1\" is not a byte", "\"??\"");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"  \"}"), "pattern: empty");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9 123\"}"), "odd number of digits");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"$123\"}"), "one or two hex digits");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"???\"}"), "odd number");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9\",\"text\":\"x\"}"), "not both");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\"}"), "either pattern", "not neither");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"text\":\"\"}"), "text:");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9\",\"length\":4}"),
            "need an address");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9\",\"limit\":0}"), "limit");
    char big[1200] = "";
    for (int i = 0; i < 257; i++) strcat(big, "?? ");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"%s\"}", big), "longer than 256 bytes");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"A9 \\u00e9\"}"), "token 2");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"0x\"}"), "token 1");
    TDT_ERR(tdt_call(&h, "memory_search", "{\"session\":\"mem\",\"pattern\":\"$\"}"), "token 1");
}

static void test_compare_ranges_and_snapshots(void)
{
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$E000\",\"bytes\":\"01 02 03 04\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$E100\",\"bytes\":\"01 FF 03 EE\"}"));
    const cJSON *r = tdt_call(&h, "memory_compare",
                              "{\"session\":\"mem\",\"address\":\"$E000\",\"length\":4,\"with\":\"$E100\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "mode"), "ranges");
    CU_ASSERT_EQUAL(tdt_num(s, "differences"), 2);
    const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "changes"), 0);
    CU_ASSERT_EQUAL(tdt_num(c0, "address"), 0xE001);
    CU_ASSERT_EQUAL(tdt_num(c0, "a"), 0x02);
    CU_ASSERT_EQUAL(tdt_num(c0, "b"), 0xFF);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s, "runs")), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "2 bytes differ"));

    /* Save, change, compare against the snapshot. */
    r = tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"address\":\"$E000\",\"length\":16,\"save_as\":\"before\"}");
    TDT_OK(r);
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "mode"), "saved");
    r = tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"before\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "differences"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "identical"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem\",\"address\":\"$E002\",\"bytes\":\"AA BB\"}"));
    r = tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"before\",\"save_as\":\"before\"}");
    TDT_OK(r);
    s = tdt_sc(r);
    CU_ASSERT_STRING_EQUAL(tdt_str(s, "mode"), "snapshot");
    CU_ASSERT_EQUAL(tdt_num(s, "differences"), 2);
    c0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "changes"), 0);
    CU_ASSERT_EQUAL(tdt_num(c0, "address"), 0xE002);
    CU_ASSERT_EQUAL(tdt_num(c0, "a"), 0x03); /* saved */
    CU_ASSERT_EQUAL(tdt_num(c0, "b"), 0xAA); /* now */
    const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "runs"), 0);
    CU_ASSERT_STRING_EQUAL(tdt_str(run, "start_hex"), "$E002");
    CU_ASSERT_STRING_EQUAL(tdt_str(run, "end_hex"), "$E003");
    /* It was saved again: now identical. */
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"before\"}")), "differences"), 0);
    /* Snapshots belong to their session. */
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem64\",\"against\":\"before\"}"),
            "no snapshot \"before\" in session \"mem64\"", "save_as");
}

static void test_compare_bad_inputs(void)
{
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"address\":0,\"length\":4}"),
            "give with", "against", "save_as");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"nope\"}"), "no snapshot \"nope\"");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"address\":0,\"length\":4,\"save_as\":\"a b\"}"),
            "not a snapshot name");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"address\":0,\"length\":4,\"with\":\"$FFFE\"}"),
            "with:", "runs past");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"before\",\"with\":0}"), "not both");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"against\":\"before\",\"address\":0}"),
            "leave out address");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"with\":0,\"length\":4}"), "address");
    TDT_ERR(tdt_call(&h, "memory_compare", "{\"session\":\"mem\",\"address\":0,\"length\":4,\"with\":0,\"with_space\":\"x\"}"),
            "with_space: unknown memory space \"x\"");
}

/* ---- the C64: banking and I/O ---- */

static int has_bank(const cJSON *result, unsigned start, unsigned end, const char *space)
{
    const cJSON *bank;
    cJSON_ArrayForEach(bank, cJSON_GetObjectItemCaseSensitive(tdt_sc(result), "banks"))
    if (tdt_num(bank, "start") == start && tdt_num(bank, "end") == end &&
        strcmp(tdt_str(bank, "space"), space) == 0)
        return 1;
    fprintf(stderr, "  no bank $%04X-$%04X %s in: %s\n", start, end, space, mh_harness_text(result));
    return 0;
}

static void test_c64_banks_follow_the_port(void)
{
    const cJSON *r = tdt_call(&h, "memory_banks", "{\"session\":\"mem64\"}");
    TDT_OK(r);
    CU_ASSERT_TRUE(has_bank(r, 0xA000, 0xBFFF, "basic"));
    CU_ASSERT_TRUE(has_bank(r, 0xE000, 0xFFFF, "kernal"));
    CU_ASSERT_TRUE(has_bank(r, 0xD000, 0xD7FF, "io"));
    CU_ASSERT_TRUE(has_bank(r, 0xD800, 0xDBFF, "color"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "$A000-$BFFF basic"));
    /* Port as outputs, $35: BASIC and KERNAL out, I/O stays. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem64\",\"address\":0,\"bytes\":\"2F 35\"}"));
    r = tdt_call(&h, "memory_banks", "{\"session\":\"mem64\"}");
    CU_ASSERT_TRUE(has_bank(r, 0x0002, 0xCFFF, "ram"));
    CU_ASSERT_TRUE(has_bank(r, 0xE000, 0xFFFF, "ram"));
    CU_ASSERT_TRUE(has_bank(r, 0xD000, 0xD7FF, "io"));
    /* $33: the character ROM at $D000. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem64\",\"address\":1,\"bytes\":\"33\"}"));
    r = tdt_call(&h, "memory_banks", "{\"session\":\"mem64\"}");
    CU_ASSERT_TRUE(has_bank(r, 0xD000, 0xDFFF, "char"));
    /* Back to the default. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem64\",\"address\":1,\"bytes\":\"37\"}"));
    CU_ASSERT_TRUE(has_bank(tdt_call(&h, "memory_banks", "{\"session\":\"mem64\"}"), 0xA000, 0xBFFF, "basic"));
}

static void test_c64_write_under_rom_and_spaces(void)
{
    /* A write to $A000 with BASIC banked in lands in the RAM below. */
    const cJSON *r = tdt_call(&h, "memory_write", "{\"session\":\"mem64\",\"address\":\"$A000\",\"bytes\":\"DE AD BE EF\"}");
    TDT_OK(r);
    CU_ASSERT_FALSE(tdt_bool(tdt_sc(r), "verified"));
    CU_ASSERT_TRUE(tdt_num(tdt_sc(r), "differing") > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "RAM below"));
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"ram\",\"address\":\"$A000\",\"length\":4}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "hex"), "DEADBEEF");
    /* Spaces with a place in the CPU map take offsets and CPU addresses. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"mem64\",\"address\":\"$D020\",\"bytes\":\"05\"}"));
    const char *a = tdt_str(tdt_sc(tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"io\",\"address\":\"$D020\",\"length\":1}")), "hex");
    char by_cpu[8];
    snprintf(by_cpu, sizeof by_cpu, "%s", a);
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"io\",\"address\":\"$0020\",\"length\":1}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "hex"), by_cpu);
    CU_ASSERT_EQUAL(by_cpu[1], '5'); /* the border colour nybble */
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "address"), 0x20);
    r = tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"basic\",\"address\":\"$A000\",\"length\":2}");
    TDT_OK(r);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "address"), 0xA000);
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "hex"), read_hex("mem64", "$A000", 2));
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"io\",\"address\":\"$C000\"}"),
            "outside memory space \"io\"", "$0000-$0FFF", "$D000-$DFFF");
    TDT_ERR(tdt_call(&h, "memory_read", "{\"session\":\"mem64\",\"space\":\"color\",\"address\":\"$DBFF\",\"length\":2}"),
            "runs past");
}

static void run_until(const char *name, uint64_t cycles)
{
    mh_session *s = mh_sessions_find(h.ctx.sessions, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_session_start(s, 1, cycles);
    mh_session_wait_finished(s);
    mh_session_unref(s);
}

static void test_c64_io_reads_have_no_side_effects(void)
{
    TDT_OK(mh_harness_call_tool(&h, "session_create", "{\"machine\":\"c64\",\"name\":\"io64\"}"));
    run_until("io64", 3000000); /* the KERNAL has set up CIA1's timer A */
    /* Mask every CIA1 interrupt, so no IRQ handler acknowledges $DC0D, and
     * let timer A underflow: its flag sets in the ICR. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"io64\",\"address\":\"$DC0D\",\"bytes\":\"7F\"}"));
    run_until("io64", 3100000);
    char first[8];
    snprintf(first, sizeof first, "%.7s", read_hex("io64", "$DC0D", 1));
    CU_ASSERT_TRUE(strtol(first, NULL, 16) & 0x01);
    CU_ASSERT_STRING_EQUAL(read_hex("io64", "$DC0D", 1), first);
    const cJSON *r = tdt_call(&h, "memory_read", "{\"session\":\"io64\",\"space\":\"io\",\"address\":\"$DC0D\",\"length\":1}");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "hex"), first);
    CU_ASSERT_STRING_EQUAL(read_hex("io64", "$DC0D", 1), first);
    TDT_OK(mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"io64\"}"));
}

MH_SUITE("tools_debug.memory", suite_init, suite_cleanup, MH_TEST(test_write_read_round_trip),
         MH_TEST(test_read_64k_hex_and_base64), MH_TEST(test_read_bad_inputs),
         MH_TEST(test_write_bad_inputs_write_nothing), MH_TEST(test_fill),
         MH_TEST(test_search_with_wildcards), MH_TEST(test_search_bad_patterns),
         MH_TEST(test_compare_ranges_and_snapshots), MH_TEST(test_compare_bad_inputs),
         MH_TEST(test_c64_banks_follow_the_port), MH_TEST(test_c64_write_under_rom_and_spaces),
         MH_TEST(test_c64_io_reads_have_no_side_effects))
