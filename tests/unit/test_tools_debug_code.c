/* tools_debug.code - assemble, disassemble, symbols_load/symbols_list,
 * backtrace and cycles_stopwatch through the in-process host on a bare6502
 * session: assembled bytes land in memory and disassemble back with
 * labels, assembly errors name the line and write nothing, symbol files in
 * both syntaxes load through mh.files/1 (and paths outside the allowed
 * directory are refused), a hand-made stack gives the frames the heuristic
 * promises, and the stopwatch is either served by the debug engine or
 * refused with a clear message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_engine.h"
#include "mh_test.h"
#include "test_tools_debug_common.h"

static mh_harness h;
static char tmpdir[64];

static int write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static int suite_init(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mh_td_code_XXXXXX");
    if (!mkdtemp(tmpdir) || tdt_setup(&h) != 0 || tdt_allow_dir(&h, tmpdir) != 0) return -1;
    if (!tdt_ok(mh_harness_call_tool(&h, "session_create",
                                     "{\"machine\":\"bare6502\",\"name\":\"code\",\"options\":{\"start\":\"$0800\"}}")))
        return -1;
    return tdt_ok(mh_harness_call_tool(&h, "session_create",
                                       "{\"machine\":\"bare6502\",\"name\":\"other\",\"options\":{\"start\":\"$0800\"}}"))
               ? 0
               : -1;
}

static int suite_cleanup(void)
{
    tdt_teardown(&h);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *hex_at(const char *address, int length)
{
    static char hex[64];
    const cJSON *r = tdt_call(&h, "memory_read", "{\"session\":\"code\",\"address\":\"%s\",\"length\":%d}", address, length);
    snprintf(hex, sizeof hex, "%s", tdt_str(tdt_sc(r), "hex"));
    return hex;
}

static void test_assemble_one_line_and_a_block(void)
{
    const cJSON *r = tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C000\",\"source\":\"LDA #$01\"}");
    TDT_OK(r);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "bytes_written"), 2);
    CU_ASSERT_STRING_EQUAL(hex_at("$C000", 2), "A901");
    r = tdt_call(&h, "assemble",
                 "{\"session\":\"code\",\"address\":\"$C000\",\"source\":\"start: LDX #5\\nloop: DEX\\n"
                 " BNE loop\\n JSR sub\\n RTS\\nsub: NOP\\n RTS\\n\",\"keep_labels\":true}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "bytes_written"), 11);
    const cJSON *chunk = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "chunks"), 0);
    CU_ASSERT_STRING_EQUAL(tdt_str(chunk, "hex"), "A205CAD0FD2009C060EA60");
    CU_ASSERT_STRING_EQUAL(tdt_str(chunk, "address_hex"), "$C000");
    CU_ASSERT_EQUAL(tdt_num(s, "labels_kept"), 3);
    CU_ASSERT_STRING_EQUAL(hex_at("$C000", 11), "A205CAD0FD2009C060EA60");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "Assembled 11 bytes into cpu: $C000-$C00A"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "JSR sub"));
}

static void test_disassemble_with_labels_count_and_range(void)
{
    const cJSON *r = tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":\"$C000\",\"count\":4}");
    TDT_OK(r);
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "lines");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(lines), 4);
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(lines, 0), "text"), "LDX #$05");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(lines, 0), "label"), "start");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(lines, 2), "text"), "BNE loop");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(lines, 3), "text"), "JSR sub");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(lines, 3), "bytes"), "20 09 C0");
    CU_ASSERT_STRING_EQUAL(tdt_str(tdt_sc(r), "next_address_hex"), "$C008");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "loop:\n C002  CA"));
    /* A range: every instruction that starts in $C000-$C007. */
    r = tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":\"$C000\",\"end\":\"$C007\"}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "lines")), 4);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "next_address"), 0xC008);
    /* Default: at PC, marked current. */
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"code\",\"pc\":\"$C002\"}"));
    r = tdt_call(&h, "disassemble", "{\"session\":\"code\",\"count\":1}");
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "lines"), 0);
    CU_ASSERT_EQUAL(tdt_num(first, "address"), 0xC002);
    CU_ASSERT_TRUE(tdt_bool(first, "current"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), ">C002"));
    /* registers_get names PC's symbol too. */
    r = tdt_call(&h, "registers_get", "{\"session\":\"code\"}");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "instruction"), "label"), "loop");
    /* The end of memory: an instruction cut short is a .BYTE. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"code\",\"address\":\"$FFFF\",\"bytes\":\"AD\"}"));
    r = tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":\"$FFFF\",\"count\":5}");
    lines = cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "lines");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(lines), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(tdt_str(cJSON_GetArrayItem(lines, 0), "text"), ".BYTE"));
}

static void test_disassemble_bad_inputs(void)
{
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":\"$10000\"}"), "above the highest address");
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":0,\"count\":0}"), "count");
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":0,\"count\":2001}"), "count");
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":0,\"count\":3,\"length\":4}"),
            "either count", "not both");
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":0,\"space\":\"x\"}"), "unknown memory space");
    TDT_ERR(tdt_call(&h, "disassemble", "{\"session\":\"code\",\"space\":\"ram\"}"), "address: missing");
}

static void test_assemble_errors_name_the_line_and_write_nothing(void)
{
    TDT_OK(tdt_call(&h, "memory_fill", "{\"session\":\"code\",\"address\":\"$C100\",\"length\":8,\"bytes\":\"00\"}"));
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C100\",\"source\":\"LDA #1\\nFOO $12\\n\"}"),
            "assembly failed, nothing was written", "line 2");
    CU_ASSERT_STRING_EQUAL(hex_at("$C100", 4), "00000000");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C100\",\"source\":\"NOP\\n\\n  LDA\"}"),
            "line 3");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C100\",\"source\":\"BNE far\\nfar = $D000\"}"),
            "line 1");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C100\",\"source\":\"x = 5\"}"), "no bytes");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$FFFF\",\"source\":\"LDA #1\"}"), "runs past");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C100\"}"), "source");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"source\":\"NOP\"}"), "address");
    TDT_ERR(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$1C100\",\"source\":\"NOP\"}"), "address");
    CU_ASSERT_STRING_EQUAL(hex_at("$C100", 4), "00000000");
}

static void test_symbols_load_both_syntaxes(void)
{
    CU_ASSERT_EQUAL_FATAL(write_file("prog.lbl", "; VICE labels\n"
                                                 "al C:c000 .main\n"
                                                 "al C:C010 .data\n"
                                                 "al 0400 .screen\n"
                                                 "\n"
                                                 "border = $D020\n"
                                                 "count EQU 10 ; a constant\n"
                                                 "irq: = 0xEA31\n"
                                                 "// more\n"
                                                 "# and more\n"
                                                 "this is junk\n"
                                                 "al C:XYZ .bad\n"),
                          0);
    const cJSON *r = tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"prog.lbl\",\"replace\":true}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "loaded"), 6);
    CU_ASSERT_EQUAL(tdt_num(s, "total"), 6); /* replace dropped assemble's labels */
    CU_ASSERT_EQUAL(tdt_num(s, "skipped"), 2);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "errors"), 0);
    CU_ASSERT_EQUAL(tdt_num(e, "line"), 11);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "line 12"));
    r = tdt_call(&h, "symbols_list", "{\"session\":\"code\"}");
    TDT_OK(r);
    s = tdt_sc(r);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(s, "symbols");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(list), 6);
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(list, 0), "name"), "count"); /* by address */
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(list, 1), "name"), "screen");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(list, 5), "address_hex"), "$EA31");
    r = tdt_call(&h, "symbols_list", "{\"session\":\"code\",\"filter\":\"BOR\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "count"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "$D020 border"));
    r = tdt_call(&h, "symbols_list", "{\"session\":\"code\",\"address\":\"$C000\",\"end\":\"$CFFF\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "count"), 2);
    r = tdt_call(&h, "symbols_list", "{\"session\":\"code\",\"limit\":1}");
    CU_ASSERT_TRUE(tdt_bool(tdt_sc(r), "truncated"));
    /* Another session has its own (empty) table. */
    r = tdt_call(&h, "symbols_list", "{\"session\":\"other\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "total"), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "no symbols"));
    /* The symbols serve assemble and disassemble. */
    TDT_OK(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$C000\",\"source\":\"STA border\\nJMP irq\"}"));
    CU_ASSERT_STRING_EQUAL(hex_at("$C000", 6), "8D20D04C31EA");
    r = tdt_call(&h, "disassemble", "{\"session\":\"code\",\"address\":\"$C000\",\"count\":2}");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "main:\n C000  8D 20 D0  STA border"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "JMP irq"));
    /* Loading again without replace adds; a name defined again moves. */
    CU_ASSERT_EQUAL_FATAL(write_file("more.sym", "border = $D021\nextra = $1234\n"), 0);
    r = tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"%s/more.sym\"}", tmpdir);
    TDT_OK(r);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "total"), 7);
    r = tdt_call(&h, "symbols_list", "{\"session\":\"code\",\"filter\":\"border\"}");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "symbols"), 0), "address_hex"), "$D021");
}

static void test_symbols_load_refusals(void)
{
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"../etc/passwd\"}"), "path:", "\"..\"",
            "--allow-dir");
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"/etc/passwd\"}"), "path:",
            "outside the allowed directories");
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"missing.lbl\"}"), "path:", "missing.lbl");
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"\"}"), "path");
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\"}"), "path");
    CU_ASSERT_EQUAL_FATAL(write_file("junk.txt", "hello world\nfoo = bar\nal C:10000 .big\n"), 0);
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"junk.txt\"}"),
            "no symbols found, nothing was loaded", "line 1", "line 2", "line 3", "al C:1000 .start");
    CU_ASSERT_EQUAL_FATAL(write_file("long.sym", "a234567890123456789012345678901234567890123456789012345678901234567890"
                                                 "12345678901234567890123456789012345678901234567890123456789 = 1\n"),
                          0);
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"long.sym\"}"), "not a name");
    TDT_ERR(tdt_call(&h, "symbols_list", "{\"session\":\"code\",\"limit\":0}"), "limit");
}

static void test_symbols_load_hostile_files(void)
{
    char path[256];
    /* CRLF line ends, a NUL in one line, tabs, a huge line, an empty file. */
    snprintf(path, sizeof path, "%s/crlf.lbl", tmpdir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("al C:1000 .one\r\n\tal\tC:1001\t.two\r\nthree = $1002\r\n", f);
    fwrite("bad\0 = 1\n", 1, 10, f);
    for (int i = 0; i < 100000; i++) fputc('x', f);
    fputs(" = 5\nfour = $10000\nfive = -1\n6x = 1\nal C:1000\n= 5\nseven = $\n", f);
    fclose(f);
    const cJSON *r = tdt_call(&h, "symbols_load", "{\"session\":\"other\",\"path\":\"crlf.lbl\",\"replace\":true}");
    TDT_OK(r);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "loaded"), 3);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "skipped"), 8);
    r = tdt_call(&h, "symbols_list", "{\"session\":\"other\"}");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "symbols"), 2), "name"), "three");
    CU_ASSERT_EQUAL_FATAL(write_file("empty.lbl", ""), 0);
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"other\",\"path\":\"empty.lbl\"}"), "no symbols found");
    /* A directory is not a file. */
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"other\",\"path\":\"%s\"}", tmpdir), "path");
    /* A binary file. */
    snprintf(path, sizeof path, "%s/bin.prg", tmpdir);
    f = fopen(path, "wb");
    for (int i = 0; i < 4096; i++) fputc((i * 37) & 0xFF, f);
    fclose(f);
    TDT_ERR(tdt_call(&h, "symbols_load", "{\"session\":\"other\",\"path\":\"bin.prg\"}"), "no symbols found");
}

static void test_backtrace_heuristic(void)
{
    /* JSR at $C010 (to $C020) and an interrupted NOP at $C030. */
    TDT_OK(tdt_call(&h, "symbols_load", "{\"session\":\"code\",\"path\":\"prog.lbl\",\"replace\":true}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"code\",\"address\":\"$C010\",\"bytes\":\"20 20 C0\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"code\",\"address\":\"$C030\",\"bytes\":\"EA\"}"));
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"code\",\"address\":\"$C020\",\"bytes\":\"EA\"}"));
    /* Stack from S+1 = $01F9: a pushed data byte, the JSR's return
     * address - 1 ($C012), the interrupt frame (P, PCL, PCH), one byte. */
    TDT_OK(tdt_call(&h, "memory_write", "{\"session\":\"code\",\"address\":\"$01F9\",\"bytes\":\"00 12 C0 22 30 C0 00\"}"));
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"code\",\"s\":\"$F8\",\"pc\":\"$C020\"}"));
    const cJSON *r = tdt_call(&h, "backtrace", "{\"session\":\"code\"}");
    TDT_OK(r);
    const cJSON *s = tdt_sc(r);
    CU_ASSERT_EQUAL(tdt_num(s, "pc"), 0xC020);
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(s, "frames");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(frames), 2);
    const cJSON *f = cJSON_GetArrayItem(frames, 0);
    CU_ASSERT_STRING_EQUAL(tdt_str(f, "kind"), "jsr");
    CU_ASSERT_EQUAL(tdt_num(f, "call_site"), 0xC010);
    CU_ASSERT_EQUAL(tdt_num(f, "target"), 0xC020);
    CU_ASSERT_EQUAL(tdt_num(f, "return_to"), 0xC013);
    CU_ASSERT_EQUAL(tdt_num(f, "stack"), 0x01FA);
    CU_ASSERT_STRING_EQUAL(tdt_str(f, "confidence"), "guess"); /* after the pushed byte */
    CU_ASSERT_STRING_EQUAL(tdt_str(f, "site_label"), "data");
    f = cJSON_GetArrayItem(frames, 1);
    CU_ASSERT_STRING_EQUAL(tdt_str(f, "kind"), "irq/nmi");
    CU_ASSERT_EQUAL(tdt_num(f, "interrupted"), 0xC030);
    CU_ASSERT_EQUAL(tdt_num(f, "p"), 0x22);
    CU_ASSERT_STRING_EQUAL(tdt_str(f, "confidence"), "guess"); /* still after the gap */
    CU_ASSERT_EQUAL(tdt_num(s, "unexplained"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "JSR $C020"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "heuristic"));
    /* Contiguous from S+1: likely, both. */
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"code\",\"s\":\"$F9\"}"));
    frames = cJSON_GetObjectItemCaseSensitive(tdt_sc(tdt_call(&h, "backtrace", "{\"session\":\"code\"}")), "frames");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(frames, 0), "confidence"), "likely");
    CU_ASSERT_STRING_EQUAL(tdt_str(cJSON_GetArrayItem(frames, 1), "confidence"), "likely");
    /* An empty stack. */
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"code\",\"s\":\"$FF\"}"));
    r = tdt_call(&h, "backtrace", "{\"session\":\"code\"}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tdt_sc(r), "frames")), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "empty"));
    TDT_ERR(tdt_call(&h, "backtrace", "{\"session\":\"code\",\"limit\":0}"), "limit");
}

static void test_cycles_stopwatch(void)
{
    const mh_debug_service *debug = &mh_debug_service_impl;
    const cJSON *r = tdt_call(&h, "cycles_stopwatch", "{\"session\":\"code\",\"reset\":true}");
    if (!debug->stopwatch) {
        TDT_ERR(r, "cycles_stopwatch needs the host's debug engine", "mh.debug/1");
        return;
    }
    TDT_OK(r);
    CU_ASSERT_TRUE(tdt_bool(tdt_sc(r), "reset"));
    r = tdt_call(&h, "cycles_stopwatch", "{\"session\":\"code\"}");
    TDT_OK(r);
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "cycles"), 0); /* nothing ran since the reset */
    CU_ASSERT_FALSE(tdt_bool(tdt_sc(r), "reset"));
    /* Three instructions of 2 + 4 + 2 cycles, stepped with the engine. */
    TDT_OK(tdt_call(&h, "assemble", "{\"session\":\"code\",\"address\":\"$0A00\",\"source\":\"LDA #1\\nSTA $C000\\nNOP\"}"));
    TDT_OK(tdt_call(&h, "registers_set", "{\"session\":\"code\",\"pc\":\"$0A00\"}"));
    r = tdt_call(&h, "execution_step", "{\"session\":\"code\",\"count\":3}");
    TDT_OK(r);
    r = tdt_call(&h, "cycles_stopwatch", "{\"session\":\"code\",\"reset\":true}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "cycles"), 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "8 cycles"));
    r = tdt_call(&h, "cycles_stopwatch", "{\"session\":\"code\"}");
    CU_ASSERT_EQUAL(tdt_num(tdt_sc(r), "cycles"), 0);
    TDT_ERR(tdt_call(&h, "cycles_stopwatch", "{\"session\":\"code\",\"reset\":1}"), "reset");
}

MH_SUITE("tools_debug.code", suite_init, suite_cleanup, MH_TEST(test_assemble_one_line_and_a_block),
         MH_TEST(test_disassemble_with_labels_count_and_range), MH_TEST(test_disassemble_bad_inputs),
         MH_TEST(test_assemble_errors_name_the_line_and_write_nothing),
         MH_TEST(test_symbols_load_both_syntaxes), MH_TEST(test_symbols_load_refusals), MH_TEST(test_symbols_load_hostile_files),
         MH_TEST(test_backtrace_heuristic), MH_TEST(test_cycles_stopwatch))
