/* disasm6502.*: opcode facts, the text of every addressing mode, labels,
 * hex syntax and case options, buffers that end early, listing lines. */
#include <stdio.h>
#include <string.h>

#include "mcphost/disasm6502.h"
#include "mh_test.h"

static const char *dis(const mh_disasm6502_options *opt, uint8_t b0, uint8_t b1, uint8_t b2,
                       uint16_t pc, int *length)
{
    static char out[64];
    uint8_t bytes[3] = {b0, b1, b2};
    *length = mh_disasm6502_buffer(opt, bytes, 3, pc, out, sizeof out);
    return out;
}

static void test_opcode_facts(void)
{
    int documented = 0, undocumented = 0, jams = 0;
    for (int op = 0; op < 256; op++) {
        const mh_op6502_info *info = mh_op6502_get((uint8_t)op);
        CU_ASSERT_PTR_NOT_NULL_FATAL(info);
        CU_ASSERT_EQUAL(info->length, mh_am6502_length((mh_am6502)info->mode));
        CU_ASSERT_STRING_EQUAL(info->mnemonic, mh_mn6502_name((mh_mn6502)info->mn));
        if (info->undocumented) undocumented++;
        else documented++;
        if (info->flow == MH_FLOW6502_JAM) jams++;
    }
    CU_ASSERT_EQUAL(documented, 151);
    CU_ASSERT_EQUAL(undocumented, 105);
    CU_ASSERT_EQUAL(jams, 12);
    CU_ASSERT_EQUAL(mh_op6502_get(0x20)->flow, MH_FLOW6502_CALL);
    CU_ASSERT_EQUAL(mh_op6502_get(0x60)->flow, MH_FLOW6502_RETURN);
    CU_ASSERT_EQUAL(mh_op6502_get(0x40)->flow, MH_FLOW6502_RETURN);
    CU_ASSERT_EQUAL(mh_op6502_get(0x6C)->flow, MH_FLOW6502_JUMP);
    CU_ASSERT_EQUAL(mh_op6502_get(0xD0)->flow, MH_FLOW6502_BRANCH);
    CU_ASSERT_EQUAL(mh_op6502_get(0x00)->flow, MH_FLOW6502_INTERRUPT);
    CU_ASSERT_EQUAL(mh_op6502_get(0xEA)->undocumented, 0);
    CU_ASSERT_EQUAL(mh_op6502_get(0xEB)->undocumented, 1);
    CU_ASSERT_PTR_NULL(mh_mn6502_name(MH_MN6502_COUNT));
}

static void test_find_canonical(void)
{
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_NOP, MH_AM6502_IMP), 0xEA);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_NOP, MH_AM6502_IMM), 0x80);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_NOP, MH_AM6502_ZP), 0x04);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_NOP, MH_AM6502_ABSX), 0x1C);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_SBC, MH_AM6502_IMM), 0xE9);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_ANC, MH_AM6502_IMM), 0x0B);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_JAM, MH_AM6502_IMP), 0x02);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_LDA, MH_AM6502_ZPY), -1);
    CU_ASSERT_EQUAL(mh_op6502_find(MH_MN6502_STX, MH_AM6502_ABSY), -1);
    /* Every opcode is found under its own mnemonic and mode, or is an alias. */
    for (int op = 0; op < 256; op++) {
        const mh_op6502_info *info = mh_op6502_get((uint8_t)op);
        int found = mh_op6502_find((mh_mn6502)info->mn, (mh_am6502)info->mode);
        CU_ASSERT_FATAL(found >= 0);
        CU_ASSERT_EQUAL(mh_op6502_get((uint8_t)found)->mn, info->mn);
        CU_ASSERT_EQUAL(mh_op6502_get((uint8_t)found)->mode, info->mode);
    }
}

static void test_every_mode_text(void)
{
    int n;
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x18, 0, 0, 0, &n), "CLC");
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x0A, 0, 0, 0, &n), "ASL A");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xA9, 0x0A, 0, 0, &n), "LDA #$0A");
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xA5, 0x12, 0, 0, &n), "LDA $12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xB5, 0x12, 0, 0, &n), "LDA $12,X");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xB6, 0x12, 0, 0, &n), "LDX $12,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xAD, 0x34, 0x12, 0, &n), "LDA $1234");
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xBD, 0x34, 0x12, 0, &n), "LDA $1234,X");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xB9, 0x34, 0x12, 0, &n), "LDA $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x6C, 0x34, 0x12, 0, &n), "JMP ($1234)");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xA1, 0x12, 0, 0, &n), "LDA ($12,X)");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xB1, 0x12, 0, 0, &n), "LDA ($12),Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xD0, 0xFE, 0, 0xC000, &n), "BNE $C000");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x10, 0x7F, 0, 0xC000, &n), "BPL $C081");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x30, 0x80, 0, 0x0010, &n), "BMI $FF92"); /* wraps */
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xAD, 0x12, 0x00, 0, &n), "LDA $0012"); /* absolute stays wide */
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x00, 0x00, 0, 0, &n), "BRK");
    CU_ASSERT_EQUAL(n, 1);
}

static void test_undocumented_names(void)
{
    int n;
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x03, 0x12, 0, 0, &n), "SLO ($12,X)");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x3F, 0x34, 0x12, 0, &n), "RLA $1234,X");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x5B, 0x34, 0x12, 0, &n), "SRE $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x73, 0x12, 0, 0, &n), "RRA ($12),Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x97, 0x12, 0, 0, &n), "SAX $12,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xB3, 0x12, 0, 0, &n), "LAX ($12),Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xC7, 0x12, 0, 0, &n), "DCP $12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xEF, 0x34, 0x12, 0, &n), "ISC $1234");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x2B, 0x12, 0, 0, &n), "ANC #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x4B, 0x12, 0, 0, &n), "ALR #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x6B, 0x12, 0, 0, &n), "ARR #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xCB, 0x12, 0, 0, &n), "SBX #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xBB, 0x34, 0x12, 0, &n), "LAS $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x93, 0x12, 0, 0, &n), "SHA ($12),Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x9F, 0x34, 0x12, 0, &n), "SHA $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x9E, 0x34, 0x12, 0, &n), "SHX $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x9C, 0x34, 0x12, 0, &n), "SHY $1234,X");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x9B, 0x34, 0x12, 0, &n), "TAS $1234,Y");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x8B, 0x12, 0, 0, &n), "ANE #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xAB, 0x12, 0, 0, &n), "LXA #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x1C, 0x34, 0x12, 0, &n), "NOP $1234,X");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x80, 0x12, 0, 0, &n), "NOP #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0x1A, 0, 0, 0, &n), "NOP");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xEB, 0x12, 0, 0, &n), "SBC #$12");
    CU_ASSERT_STRING_EQUAL(dis(NULL, 0xF2, 0, 0, 0, &n), "JAM");
    CU_ASSERT_EQUAL(n, 1);
}

static const char *labels(void *user, uint16_t addr)
{
    (void)user;
    switch (addr) {
    case 0xC000: return "loop";
    case 0x00FB: return "ptr";
    case 0xD020: return "border";
    case 0xFFFE: return "irqvec";
    default: return NULL;
    }
}

static void test_labels(void)
{
    mh_disasm6502_options opt = {0, labels, NULL};
    int n;
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0xD0, 0xFE, 0, 0xC000, &n), "BNE loop");
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0xB1, 0xFB, 0, 0, &n), "LDA (ptr),Y");
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0x8D, 0x20, 0xD0, 0, &n), "STA border");
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0x6C, 0xFE, 0xFF, 0, &n), "JMP (irqvec)");
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0xA9, 0xFB, 0, 0, &n), "LDA #$FB"); /* immediates stay numbers */
    CU_ASSERT_STRING_EQUAL(dis(&opt, 0x8D, 0x21, 0xD0, 0, &n), "STA $D021");
}

static void test_syntax_options(void)
{
    mh_disasm6502_options hex0x = {MH_DISASM6502_HEX_0X, NULL, NULL};
    mh_disasm6502_options lower = {MH_DISASM6502_LOWERCASE, NULL, NULL};
    mh_disasm6502_options both = {MH_DISASM6502_LOWERCASE | MH_DISASM6502_HEX_0X, NULL, NULL};
    int n;
    CU_ASSERT_STRING_EQUAL(dis(&hex0x, 0xBD, 0xEF, 0xBE, 0, &n), "LDA 0xBEEF,X");
    CU_ASSERT_STRING_EQUAL(dis(&hex0x, 0xA9, 0x0A, 0, 0, &n), "LDA #0x0A");
    CU_ASSERT_STRING_EQUAL(dis(&lower, 0xB1, 0xAB, 0, 0, &n), "lda ($ab),y");
    CU_ASSERT_STRING_EQUAL(dis(&lower, 0x0A, 0, 0, 0, &n), "asl a");
    CU_ASSERT_STRING_EQUAL(dis(&both, 0xA1, 0xCD, 0, 0, &n), "lda (0xcd,x)");
}

static void test_short_buffer_and_truncation(void)
{
    char out[64];
    uint8_t bytes[2] = {0xAD, 0x34};
    CU_ASSERT_EQUAL(mh_disasm6502_buffer(NULL, bytes, 2, 0, out, sizeof out), 1);
    CU_ASSERT_STRING_EQUAL(out, ".BYTE $AD");
    CU_ASSERT_EQUAL(mh_disasm6502_buffer(NULL, bytes, 0, 0, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    uint8_t lda[3] = {0xAD, 0x34, 0x12};
    char small[6];
    CU_ASSERT_EQUAL(mh_disasm6502_buffer(NULL, lda, 3, 0, small, sizeof small), 3);
    CU_ASSERT_STRING_EQUAL(small, "LDA $"); /* truncated like snprintf */
}

static uint8_t read_mem(void *user, uint16_t addr)
{
    return ((const uint8_t *)user)[addr];
}

static void test_reader_and_line(void)
{
    static uint8_t mem[65536];
    mem[0xC000] = 0xA9;
    mem[0xC001] = 0x01;
    mem[0xC002] = 0x8D;
    mem[0xC003] = 0x20;
    mem[0xC004] = 0xD0;
    mem[0xFFFF] = 0x20; /* JSR wrapping around the end of memory */
    mem[0x0000] = 0x34;
    mem[0x0001] = 0x12;
    char out[64];
    CU_ASSERT_EQUAL(mh_disasm6502(NULL, read_mem, mem, 0xC002, out, sizeof out), 3);
    CU_ASSERT_STRING_EQUAL(out, "STA $D020");
    CU_ASSERT_EQUAL(mh_disasm6502(NULL, read_mem, mem, 0xFFFF, out, sizeof out), 3);
    CU_ASSERT_STRING_EQUAL(out, "JSR $1234");
    CU_ASSERT_EQUAL(mh_disasm6502_line(NULL, read_mem, mem, 0xC000, out, sizeof out), 2);
    CU_ASSERT_STRING_EQUAL(out, "C000  A9 01     LDA #$01");
    CU_ASSERT_EQUAL(mh_disasm6502_line(NULL, read_mem, mem, 0xC002, out, sizeof out), 3);
    CU_ASSERT_STRING_EQUAL(out, "C002  8D 20 D0  STA $D020");
}

MH_SUITE("disasm6502.format", NULL, NULL, MH_TEST(test_opcode_facts), MH_TEST(test_find_canonical),
         MH_TEST(test_every_mode_text), MH_TEST(test_undocumented_names), MH_TEST(test_labels),
         MH_TEST(test_syntax_options), MH_TEST(test_short_buffer_and_truncation),
         MH_TEST(test_reader_and_line))
