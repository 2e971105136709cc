/* asm6502.*: disassembler <-> assembler round trip for every opcode and
 * addressing mode, the exact text of error messages, and the syntax
 * (labels, forward references, expressions, directives, output). */
#include <stdio.h>
#include <string.h>

#include "mcphost/asm6502.h"
#include "mcphost/disasm6502.h"
#include "mh_test.h"

/* Assembles src with origin; returns the status, fills out (flattened). */
static mh_status assemble(const char *src, uint32_t origin, uint8_t *out, size_t *count,
                          char *error, size_t error_size)
{
    mh_asm6502_options opt;
    memset(&opt, 0, sizeof opt);
    opt.origin = origin;
    mh_asm6502_result r;
    mh_status status = mh_asm6502_assemble(src, strlen(src), &opt, &r);
    size_t n = 0;
    for (size_t i = 0; i < r.chunk_count; i++) {
        if (out) memcpy(out + n, r.chunks[i].bytes, r.chunks[i].size);
        n += r.chunks[i].size;
    }
    if (count) *count = n;
    if (error) snprintf(error, error_size, "%s", r.error);
    mh_asm6502_result_free(&r);
    return status;
}

/* --- Round trip ---------------------------------------------------------- */

static const uint32_t option_sets[] = {
    0, MH_DISASM6502_HEX_0X, MH_DISASM6502_LOWERCASE,
    MH_DISASM6502_HEX_0X | MH_DISASM6502_LOWERCASE,
};

static void test_roundtrip_every_opcode(void)
{
    static const uint8_t operands[][2] = {
        {0x00, 0x00}, {0x12, 0x00}, {0x12, 0x34}, {0x80, 0x7F}, {0xFF, 0xFF}, {0x7F, 0x01},
    };
    static const uint16_t pcs[] = {0x0000, 0x1000, 0xC0F0, 0xFFF0};
    int checked = 0, byte_exact = 0;
    for (size_t o = 0; o < sizeof option_sets / sizeof option_sets[0]; o++) {
        mh_disasm6502_options opt = {option_sets[o], NULL, NULL};
        for (int op = 0; op < 256; op++) {
            const mh_op6502_info *info = mh_op6502_get((uint8_t)op);
            int canonical = mh_op6502_find((mh_mn6502)info->mn, (mh_am6502)info->mode) == op;
            for (size_t v = 0; v < sizeof operands / sizeof operands[0]; v++) {
                for (size_t p = 0; p < sizeof pcs / sizeof pcs[0]; p++) {
                    uint8_t bytes[3] = {(uint8_t)op, operands[v][0], operands[v][1]};
                    char text[64], again[64], error[256], src[96];
                    int length = mh_disasm6502_buffer(&opt, bytes, 3, pcs[p], text, sizeof text);
                    snprintf(src, sizeof src, "  %s", text);
                    uint8_t out[8];
                    size_t n = 0;
                    mh_status st = assemble(src, pcs[p], out, &n, error, sizeof error);
                    if (st != MH_OK || (int)n != length) {
                        fprintf(stderr, "\n  $%02X '%s' at $%04X: %s (%zu bytes)\n", op, text,
                                pcs[p], error, n);
                        CU_FAIL("round trip: assembly failed");
                        continue;
                    }
                    mh_disasm6502_buffer(&opt, out, n, pcs[p], again, sizeof again);
                    if (strcmp(text, again) != 0) {
                        fprintf(stderr, "\n  $%02X: '%s' came back as '%s'\n", op, text, again);
                        CU_FAIL("round trip: text differs");
                    }
                    if (canonical) {
                        CU_ASSERT_EQUAL(memcmp(out, bytes, n), 0);
                        byte_exact++;
                    } else {
                        /* an alias encoding: same mnemonic and mode */
                        CU_ASSERT_EQUAL(mh_op6502_get(out[0])->mn, info->mn);
                        CU_ASSERT_EQUAL(mh_op6502_get(out[0])->mode, info->mode);
                        CU_ASSERT_EQUAL(memcmp(out + 1, bytes + 1, n - 1), 0);
                    }
                    checked++;
                }
            }
        }
    }
    CU_ASSERT_EQUAL(checked, 4 * 256 * 6 * 4);
    CU_ASSERT(byte_exact > 0);
}

/* Assembly -> disassembly -> assembly for hand-written text. */
static void test_roundtrip_from_source(void)
{
    static const char *const lines[] = {
        "LDA #$01", "LDA $12", "LDA $12,X", "LDX $12,Y", "LDA $1234", "LDA $1234,X",
        "LDA $1234,Y", "JMP ($1234)", "LDA ($12,X)", "LDA ($12),Y", "ASL A", "RTS",
        "LAX $12,Y", "SAX ($12,X)", "SHA ($12),Y", "DCP $1234,Y", "NOP $12,X", "JAM",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char src[64], text[64];
        snprintf(src, sizeof src, " %s", lines[i]);
        uint8_t out[4];
        size_t n;
        CU_ASSERT_EQUAL_FATAL(assemble(src, 0x2000, out, &n, NULL, 0), MH_OK);
        mh_disasm6502_buffer(NULL, out, n, 0x2000, text, sizeof text);
        CU_ASSERT_STRING_EQUAL(text, lines[i]);
    }
}

/* --- Errors ---------------------------------------------------------------- */

typedef struct error_case {
    const char *source;
    const char *message;
} error_case;

static const error_case error_cases[] = {
    {"start:\n  NOP\n        LDA\n", "line 3, column 12: expected an operand after LDA"},
    {"        LDA ; load", "line 1, column 12: expected an operand after LDA"},
    {"  LDZ #1", "line 1, column 3: unknown mnemonic 'LDZ' (a label must start in column 1 or "
                 "end with ':')"},
    {"  LDA #", "line 1, column 8: expected a number or label"},
    {"  LDA #)", "line 1, column 8: expected a number or label, not ')'"},
    {"  LDA #300", "line 1, column 8: immediate value 300 does not fit in a byte"},
    {"  LDA #-129", "line 1, column 8: immediate value -129 does not fit in a byte"},
    {"  STA #1", "line 1, column 7: STA has no immediate addressing mode"},
    {"  STX $1234,Y", "line 1, column 7: STX has no absolute,Y addressing mode and $1234 is not "
                      "in zero page"},
    {"  LDA ($12,Y)", "line 1, column 12: expected X after ',' in (zp,X)"},
    {"  LDA ($12),X", "line 1, column 13: expected Y after '),' in (zp),Y"},
    {"  LDA ($1234),Y", "line 1, column 8: the pointer of (zero page),Y must be in zero page, "
                        "not $1234"},
    {"  LDA $12,Z", "line 1, column 11: expected X or Y after ','"},
    {"  JMP ($12),Y", "line 1, column 7: JMP has no (zero page),Y addressing mode"},
    {"  JMP $12,X", "line 1, column 7: JMP has no zero page,X or absolute,X addressing mode"},
    {"  INX #1", "line 1, column 7: INX has no immediate addressing mode"},
    {"  LDA (1+2", "line 1, column 11: expected ')'"},
    {"  LDA $12 junk", "line 1, column 11: unexpected 'junk' after the operand"},
    {"  LDA 5/0", "line 1, column 8: division by zero"},
    {"  LDA nowhere", "line 1, column 7: undefined label 'nowhere'"},
    {"  BNE far\nfar = $2000", "line 1, column 7: branch target $2000 is out of range (4094 "
                               "bytes away; a branch reaches -128..+127)"},
    {"x: NOP\nx: NOP", "line 2, column 1: 'x' is already defined on line 1"},
    {"  .foo 1", "line 1, column 3: unknown directive '.foo'"},
    {"  .byte", "line 1, column 8: expected a value after .byte"},
    {"  .byte 1,", "line 1, column 11: expected a value after ','"},
    {"  .byte 1 2", "line 1, column 11: unexpected '2' after a value (expected ',')"},
    {"  .byte 256", "line 1, column 9: value 256 does not fit in a byte"},
    {"  .word 65535+1", "line 1, column 9: value 65536 does not fit in a word"},
    {"  .text 1", "line 1, column 9: expected a string after .text"},
    {"  .text \"abc", "line 1, column 9: unterminated string"},
    {"  LDA 'ab'", "line 1, column 7: a character constant holds exactly one character"},
    {"  LDA $", "line 1, column 8: expected hex digits after '$'"},
    {"  LDA $12345", "line 1, column 7: number $12345 is larger than $FFFF"},
    {"  LDA %102", "line 1, column 10: unexpected '2' in a number"},
    {"  LDA @", "line 1, column 7: unexpected character '@'"},
    {"*=", "line 1, column 3: expected an address for the origin"},
    {"* $1000", "line 1, column 3: expected '=' after '*'"},
    {"*= later\nlater = $1000", "line 1, column 4: the origin must not use labels defined "
                                "further down"},
    {"*= $FFFF\n  NOP\n  NOP", "line 3, column 3: code runs past $FFFF"},
    {"  \"str\"", "line 1, column 3: expected a label, mnemonic or directive, not a string"},
    {"value =", "line 1, column 8: expected a value after 'value ='"},
};

static void test_error_messages(void)
{
    for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        char error[256];
        mh_status st = assemble(error_cases[i].source, 0x1000, NULL, NULL, error, sizeof error);
        CU_ASSERT_EQUAL(st, MH_ERR_INVALID_ARGUMENT);
        if (strcmp(error, error_cases[i].message) != 0) {
            fprintf(stderr, "\n  source:  %s\n  got:     %s\n  want:    %s\n",
                    error_cases[i].source, error, error_cases[i].message);
            CU_FAIL("error message differs");
        }
    }
}

static void test_error_position_fields(void)
{
    mh_asm6502_result r;
    const char *src = "  NOP\n  NOP\n\tLDA #";
    CU_ASSERT_EQUAL(mh_asm6502_assemble(src, strlen(src), NULL, &r), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(r.error_line, 3);
    CU_ASSERT_EQUAL(r.error_column, 7);
    CU_ASSERT_EQUAL(r.chunk_count, 0);
    mh_asm6502_result_free(&r);

    char error[64];
    uint8_t out[2];
    CU_ASSERT_EQUAL(mh_asm6502_line("  LDA $1234", 0, out, 2, error, sizeof error), -1);
    CU_ASSERT_STRING_EQUAL(error, "the line assembles to 3 bytes, more than the 2 that fit");
}

/* --- Syntax -------------------------------------------------------------- */

static void test_labels_and_forward_references(void)
{
    const char *src = "        *= $C000\n"
                      "start:  LDX #0\n"
                      "loop    LDA text,X\n" /* label in column 1 without ':' */
                      "        BEQ done\n"
                      "        STA $0400,X\n"
                      "        INX\n"
                      "        BNE loop\n"
                      "done:   RTS\n"
                      "text:   .text \"HI\"\n"
                      "        .byte 0\n";
    uint8_t out[32];
    size_t n;
    char error[256];
    CU_ASSERT_EQUAL_FATAL(assemble(src, 0, out, &n, error, sizeof error), MH_OK);
    static const uint8_t want[] = {0xA2, 0x00, 0xBD, 0x0E, 0xC0, 0xF0, 0x06, 0x9D, 0x00,
                                   0x04, 0xE8, 0xD0, 0xF5, 0x60, 'H',  'I',  0x00};
    CU_ASSERT_EQUAL_FATAL(n, sizeof want);
    CU_ASSERT_EQUAL(memcmp(out, want, n), 0);
}

static void test_zero_page_choice(void)
{
    uint8_t out[16];
    size_t n;
    /* known small value: zero page; forward reference: absolute; wide literal: absolute */
    CU_ASSERT_EQUAL(assemble(" LDA $12\n LDA fwd\n LDA $0012\nfwd = $12", 0, out, &n, NULL, 0),
                    MH_OK);
    static const uint8_t want[] = {0xA5, 0x12, 0xAD, 0x12, 0x00, 0xAD, 0x12, 0x00};
    CU_ASSERT_EQUAL(n, sizeof want);
    CU_ASSERT_EQUAL(memcmp(out, want, sizeof want), 0);
    /* a zero-page-only mode with a forward reference stays zero page */
    CU_ASSERT_EQUAL(assemble(" LDA (ptr),Y\n STX ptr,Y\nptr = $FB", 0, out, &n, NULL, 0), MH_OK);
    static const uint8_t want2[] = {0xB1, 0xFB, 0x96, 0xFB};
    CU_ASSERT_EQUAL(n, sizeof want2);
    CU_ASSERT_EQUAL(memcmp(out, want2, sizeof want2), 0);
    /* LDA zp,Y does not exist: absolute,Y */
    CU_ASSERT_EQUAL(assemble(" LDA $12,Y", 0, out, &n, NULL, 0), MH_OK);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(out[0], 0xB9);
    /* %binary with more than 8 digits forces absolute */
    CU_ASSERT_EQUAL(assemble(" LDA %000000000001", 0, out, &n, NULL, 0), MH_OK);
    CU_ASSERT_EQUAL(out[0], 0xAD);
}

static void test_expressions(void)
{
    uint8_t out[32];
    size_t n;
    const char *src = "base = $1234\n"
                      " .byte <base, >base, <base+1, >(base+$100)\n"
                      " .byte 2+3*4, (2+3)*4, 20/3, -1, 'A', '\\n', %1010\n"
                      " .word base*2-base, * \n"
                      " LDA #>base\n";
    char error[256];
    CU_ASSERT_EQUAL_FATAL(assemble(src, 0x0800, out, &n, error, sizeof error), MH_OK);
    static const uint8_t want[] = {0x34, 0x12, 0x35, 0x13, 14, 20, 6, 0xFF, 'A', '\n', 10,
                                   0x34, 0x12, 0x0B, 0x08, 0xA9, 0x12};
    CU_ASSERT_EQUAL_FATAL(n, sizeof want);
    CU_ASSERT_EQUAL(memcmp(out, want, n), 0);
}

static void test_accumulator_forms_and_case(void)
{
    uint8_t out[16];
    size_t n;
    CU_ASSERT_EQUAL(assemble(" asl\n rol a\n LsR A\n ror", 0, out, &n, NULL, 0), MH_OK);
    static const uint8_t want[] = {0x0A, 0x2A, 0x4A, 0x6A};
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(memcmp(out, want, 4), 0);
    CU_ASSERT_EQUAL(assemble(" lda ($10),y\n sta $2000,x\n ldx 0x10,Y", 0, out, &n, NULL, 0), MH_OK);
    static const uint8_t want2[] = {0xB1, 0x10, 0x9D, 0x00, 0x20, 0xB6, 0x10};
    CU_ASSERT_EQUAL(n, sizeof want2);
    CU_ASSERT_EQUAL(memcmp(out, want2, sizeof want2), 0);
}

static void test_aliases_and_canonical(void)
{
    uint8_t out[16];
    size_t n;
    CU_ASSERT_EQUAL(assemble(" ISB $12\n DCM $12\n ASR #1\n AXS #1\n XAA #1\n KIL\n NOP\n SBC #1",
                             0, out, &n, NULL, 0),
                    MH_OK);
    static const uint8_t want[] = {0xE7, 0x12, 0xC7, 0x12, 0x4B, 0x01, 0xCB, 0x01,
                                   0x8B, 0x01, 0x02, 0xEA, 0xE9, 0x01};
    CU_ASSERT_EQUAL(n, sizeof want);
    CU_ASSERT_EQUAL(memcmp(out, want, sizeof want), 0);
}

static void test_chunks_symbols_image(void)
{
    const char *src = "*= $1000\nfirst: NOP\n  NOP\n*= $2000\nsecond: .word first\r\n.org $3000\n";
    mh_asm6502_result r;
    CU_ASSERT_EQUAL_FATAL(mh_asm6502_assemble(src, strlen(src), NULL, &r), MH_OK);
    CU_ASSERT_EQUAL(r.chunk_count, 2);
    CU_ASSERT_EQUAL(r.byte_count, 4);
    CU_ASSERT_EQUAL(r.chunks[0].address, 0x1000);
    CU_ASSERT_EQUAL(r.chunks[0].size, 2);
    CU_ASSERT_EQUAL(r.chunks[1].address, 0x2000);
    CU_ASSERT_EQUAL(r.chunks[1].bytes[1], 0x10);
    CU_ASSERT_EQUAL_FATAL(r.symbol_count, 2);
    CU_ASSERT_STRING_EQUAL(r.symbols[0].name, "first");
    CU_ASSERT_EQUAL(r.symbols[0].value, 0x1000);
    CU_ASSERT_EQUAL(r.symbols[1].line, 5);
    CU_ASSERT_STRING_EQUAL(r.error, "");
    static uint8_t image[65536];
    static uint8_t written[8192];
    memset(image, 0xAA, sizeof image);
    mh_asm6502_to_image(&r, image, written);
    CU_ASSERT_EQUAL(image[0x1000], 0xEA);
    CU_ASSERT_EQUAL(image[0x2001], 0x10);
    CU_ASSERT_EQUAL(image[0x2002], 0xAA);
    CU_ASSERT_EQUAL(written[0x1000 >> 3], 0x03);
    CU_ASSERT_EQUAL(written[0x2000 >> 3], 0x03);
    CU_ASSERT_EQUAL(written[0x3000 >> 3], 0x00);
    mh_asm6502_result_free(&r);
    mh_asm6502_result_free(&r); /* harmless twice */
}

static int resolve(void *user, const char *name, size_t length, int32_t *value)
{
    (void)user;
    if (length == 6 && memcmp(name, "CHROUT", 6) == 0) {
        *value = 0xFFD2;
        return 1;
    }
    return 0;
}

static void test_resolve_callback_and_line(void)
{
    mh_asm6502_options opt;
    memset(&opt, 0, sizeof opt);
    opt.origin = 0xC000;
    opt.resolve = resolve;
    mh_asm6502_result r;
    const char *src = " JSR CHROUT";
    CU_ASSERT_EQUAL_FATAL(mh_asm6502_assemble(src, strlen(src), &opt, &r), MH_OK);
    CU_ASSERT_EQUAL(r.chunks[0].bytes[1], 0xD2);
    CU_ASSERT_EQUAL(r.chunks[0].bytes[2], 0xFF);
    mh_asm6502_result_free(&r);

    uint8_t out[8];
    char error[128];
    CU_ASSERT_EQUAL(mh_asm6502_line("BNE *", 0x1000, out, sizeof out, error, sizeof error), 2);
    CU_ASSERT_EQUAL(out[1], 0xFE);
    CU_ASSERT_EQUAL(mh_asm6502_line("lda #$01 ; comment", 0x1000, out, sizeof out, error,
                                    sizeof error),
                    2);
    CU_ASSERT_EQUAL(mh_asm6502_line("", 0x1000, out, sizeof out, error, sizeof error), 0);
    CU_ASSERT_EQUAL(mh_asm6502_line(" .text \"a\\\"b\"", 0, out, sizeof out, error, sizeof error), 3);
    CU_ASSERT_EQUAL(out[1], '"');
}

MH_SUITE("asm6502.roundtrip", NULL, NULL, MH_TEST(test_roundtrip_every_opcode),
         MH_TEST(test_roundtrip_from_source))
MH_SUITE("asm6502.errors", NULL, NULL, MH_TEST(test_error_messages),
         MH_TEST(test_error_position_fields))
MH_SUITE("asm6502.syntax", NULL, NULL, MH_TEST(test_labels_and_forward_references),
         MH_TEST(test_zero_page_choice), MH_TEST(test_expressions),
         MH_TEST(test_accumulator_forms_and_case), MH_TEST(test_aliases_and_canonical),
         MH_TEST(test_chunks_symbols_image), MH_TEST(test_resolve_callback_and_line))
