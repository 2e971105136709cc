/* mcphost/disasm6502.h - 6502-family opcode facts and disassembler
 * (static library mh_cpu6502).
 *
 * Offers:
 *   - mh_op6502_get(): mnemonic, addressing mode, length, documented or not,
 *     and control-flow class of each of the 256 NMOS opcodes (what a
 *     debugger needs for "step over", call stacks and stop records);
 *   - mh_op6502_find(): the opcode for a mnemonic + addressing mode (the
 *     canonical one where several exist, e.g. NOP, SBC #, ANC #, JAM);
 *   - mh_disasm6502() / mh_disasm6502_buffer(): one instruction as text,
 *     e.g. "LDA ($12),Y", "BNE $C010", "ASL A", "SLO $1234,X", with
 *     symbolic operands from an optional label callback, "$" or "0x" hex,
 *     upper or lower case; returns the instruction length;
 *   - mh_disasm6502_line(): the same with address and bytes in front,
 *     "C000  A9 01     LDA #$01", for listings.
 *
 * Implemented: every NMOS opcode, undocumented ones with the common names
 * SLO RLA SRE RRA SAX LAX DCP ISC ANC ALR ARR SBX LAS SHA SHX SHY TAS ANE
 * LXA, NOP with operands, JAM. Absolute operands are always printed with
 * four hex digits and zero-page ones with two, so the text re-assembles to
 * the same addressing mode (see asm6502.h). BRK is one byte long.
 * Not implemented: 65C02/65816 opcodes, illegal-opcode alias names (the
 * assembler accepts the common aliases).
 *
 * Ownership: the caller owns every buffer. mnemonic strings returned by
 * mh_op6502_get() and mh_mn6502_name() are static. A label callback's
 * string only needs to live until the callback is called again.
 * Threading: [thread-safe]; no global mutable state.
 */
#ifndef MCPHOST_DISASM6502_H
#define MCPHOST_DISASM6502_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Addressing modes. Operand syntax in the comment. */
typedef enum mh_am6502 {
    MH_AM6502_IMP = 0, /* (none)      CLC                       */
    MH_AM6502_ACC,     /* A           ASL A                     */
    MH_AM6502_IMM,     /* #$12        LDA #$12                  */
    MH_AM6502_ZP,      /* $12                                   */
    MH_AM6502_ZPX,     /* $12,X                                 */
    MH_AM6502_ZPY,     /* $12,Y                                 */
    MH_AM6502_ABS,     /* $1234                                 */
    MH_AM6502_ABSX,    /* $1234,X                               */
    MH_AM6502_ABSY,    /* $1234,Y                               */
    MH_AM6502_IND,     /* ($1234)     JMP only                  */
    MH_AM6502_IZX,     /* ($12,X)                               */
    MH_AM6502_IZY,     /* ($12),Y                               */
    MH_AM6502_REL,     /* $C010       branches, target address  */
    MH_AM6502_COUNT
} mh_am6502;

/* Mnemonics: the 56 documented ones in alphabetical order, then the
 * undocumented ones. Values are stable (only appended). */
typedef enum mh_mn6502 {
    MH_MN6502_ADC, MH_MN6502_AND, MH_MN6502_ASL, MH_MN6502_BCC, MH_MN6502_BCS,
    MH_MN6502_BEQ, MH_MN6502_BIT, MH_MN6502_BMI, MH_MN6502_BNE, MH_MN6502_BPL,
    MH_MN6502_BRK, MH_MN6502_BVC, MH_MN6502_BVS, MH_MN6502_CLC, MH_MN6502_CLD,
    MH_MN6502_CLI, MH_MN6502_CLV, MH_MN6502_CMP, MH_MN6502_CPX, MH_MN6502_CPY,
    MH_MN6502_DEC, MH_MN6502_DEX, MH_MN6502_DEY, MH_MN6502_EOR, MH_MN6502_INC,
    MH_MN6502_INX, MH_MN6502_INY, MH_MN6502_JMP, MH_MN6502_JSR, MH_MN6502_LDA,
    MH_MN6502_LDX, MH_MN6502_LDY, MH_MN6502_LSR, MH_MN6502_NOP, MH_MN6502_ORA,
    MH_MN6502_PHA, MH_MN6502_PHP, MH_MN6502_PLA, MH_MN6502_PLP, MH_MN6502_ROL,
    MH_MN6502_ROR, MH_MN6502_RTI, MH_MN6502_RTS, MH_MN6502_SBC, MH_MN6502_SEC,
    MH_MN6502_SED, MH_MN6502_SEI, MH_MN6502_STA, MH_MN6502_STX, MH_MN6502_STY,
    MH_MN6502_TAX, MH_MN6502_TAY, MH_MN6502_TSX, MH_MN6502_TXA, MH_MN6502_TXS,
    MH_MN6502_TYA,
    MH_MN6502_SLO, MH_MN6502_RLA, MH_MN6502_SRE, MH_MN6502_RRA, MH_MN6502_SAX,
    MH_MN6502_LAX, MH_MN6502_DCP, MH_MN6502_ISC, MH_MN6502_ANC, MH_MN6502_ALR,
    MH_MN6502_ARR, MH_MN6502_SBX, MH_MN6502_LAS, MH_MN6502_SHA, MH_MN6502_SHX,
    MH_MN6502_SHY, MH_MN6502_TAS, MH_MN6502_ANE, MH_MN6502_LXA, MH_MN6502_JAM,
    MH_MN6502_COUNT
} mh_mn6502;

/* Control-flow class of an opcode. */
typedef enum mh_flow6502 {
    MH_FLOW6502_NONE = 0,  /* falls through to the next instruction */
    MH_FLOW6502_BRANCH,    /* conditional relative branch */
    MH_FLOW6502_JUMP,      /* JMP abs / JMP (ind) */
    MH_FLOW6502_CALL,      /* JSR */
    MH_FLOW6502_RETURN,    /* RTS, RTI */
    MH_FLOW6502_INTERRUPT, /* BRK */
    MH_FLOW6502_JAM        /* halts the CPU until reset */
} mh_flow6502;

typedef struct mh_op6502_info {
    const char *mnemonic; /* upper case, static, e.g. "LDA" */
    uint8_t mn;           /* mh_mn6502 */
    uint8_t mode;         /* mh_am6502 */
    uint8_t length;       /* 1..3 bytes */
    uint8_t undocumented; /* 1 for the 105 undocumented opcodes */
    uint8_t flow;         /* mh_flow6502 */
    uint8_t reserved[3];
} mh_op6502_info;

/* Facts about one opcode; never NULL. */
const mh_op6502_info *mh_op6502_get(uint8_t opcode);

/* Upper-case name of a mnemonic, NULL when out of range. */
const char *mh_mn6502_name(mh_mn6502 mn);

/* Instruction length (1..3) of an addressing mode. */
int mh_am6502_length(mh_am6502 mode);

/* The opcode for mnemonic + mode, -1 if that combination does not exist.
 * Where several opcodes share it, the documented one, else the lowest. */
int mh_op6502_find(mh_mn6502 mn, mh_am6502 mode);

/* Flags for mh_disasm6502_options.flags. */
#define MH_DISASM6502_HEX_0X 0x01u    /* 0x12 / 0x1234 instead of $12 / $1234 */
#define MH_DISASM6502_LOWERCASE 0x02u /* lda #$0a instead of LDA #$0A */

/* Returns the byte at addr. [same thread as the caller] */
typedef uint8_t (*mh_disasm6502_read_fn)(void *user, uint16_t addr);

/* Returns a name for addr, or NULL to print the number. The string must
 * stay valid until the next call. [same thread as the caller] */
typedef const char *(*mh_disasm6502_label_fn)(void *user, uint16_t addr);

typedef struct mh_disasm6502_options {
    uint32_t flags;               /* MH_DISASM6502_* */
    mh_disasm6502_label_fn label; /* optional: symbolic operands */
    void *label_user;
} mh_disasm6502_options;

/* Disassembles the instruction at pc into out (always NUL-terminated,
 * truncated like snprintf). options may be NULL for "$", upper case, no
 * labels. Returns the instruction length (1..3). */
int mh_disasm6502(const mh_disasm6502_options *options, mh_disasm6502_read_fn read,
                  void *read_user, uint16_t pc, char *out, size_t out_size);

/* Same on a buffer holding count bytes starting at pc. When the buffer
 * ends inside the instruction, prints ".BYTE $xx" and returns 1. */
int mh_disasm6502_buffer(const mh_disasm6502_options *options, const uint8_t *bytes,
                         size_t count, uint16_t pc, char *out, size_t out_size);

/* A listing line: "C000  A9 01     LDA #$01" (address, up to three bytes,
 * instruction). Returns the instruction length. */
int mh_disasm6502_line(const mh_disasm6502_options *options, mh_disasm6502_read_fn read,
                       void *read_user, uint16_t pc, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif
