/* cpu6502_decode.c - the core's decode table, built at compile time from
 * the opcode grid: for each opcode the first micro-state, the access state
 * that follows its addressing states, and its mnemonic. */
#include "cpu6502_internal.h"
#include "op6502_grid.h"

/* First state of each addressing mode (for mnemonics whose seq is MODE). */
enum {
    MODE_FIRST_IMP = S_IMP, MODE_FIRST_ACC = S_IMP, MODE_FIRST_IMM = S_IMM,
    MODE_FIRST_ZP = S_ZP1, MODE_FIRST_ZPX = S_ZPX1, MODE_FIRST_ZPY = S_ZPY1,
    MODE_FIRST_ABS = S_ABS1, MODE_FIRST_ABSX = S_ABSX1, MODE_FIRST_ABSY = S_ABSY1,
    MODE_FIRST_IND = S_JMP1, MODE_FIRST_IZX = S_IZX1, MODE_FIRST_IZY = S_IZY1,
    MODE_FIRST_REL = S_BR1
};

/* First state of the special sequences; MODE (0) defers to the mode. */
enum {
    SEQ_MODE = 0, SEQ_BR = S_BR1, SEQ_BRK = S_BRK1, SEQ_JMP = S_JMP1, SEQ_JSR = S_JSR1,
    SEQ_RTS = S_RTS1, SEQ_RTI = S_RTI1, SEQ_PUSH = S_PUSH1, SEQ_PULL = S_PULL1,
    SEQ_JAM = S_JAM1
};

/* Access state per kind. */
enum { ACCESS_R = S_READ, ACCESS_W = S_WRITE, ACCESS_M = S_RMW1, ACCESS_I = 0, ACCESS_S = 0 };

#define SEQ_OF(name, kind, flow, seq) SEQ_OF_##name = SEQ_##seq,
#define ACCESS_OF(name, kind, flow, seq) ACCESS_OF_##name = ACCESS_##kind,
enum { MH_OP6502_MNEMONICS(SEQ_OF) SEQ_OF_COUNT_ };
enum { MH_OP6502_MNEMONICS(ACCESS_OF) ACCESS_OF_COUNT_ };

#define DECODE(mn, mode, doc)                                                      \
    {(uint8_t)(SEQ_OF_##mn ? SEQ_OF_##mn : MODE_FIRST_##mode), (uint8_t)ACCESS_OF_##mn, \
     (uint8_t)MH_MN6502_##mn},

const mh_cpu_decode mh_cpu_decode_table[256] = {MH_OP6502_GRID(DECODE)};

#define COUNT_ONE(mn, mode, doc) +1
_Static_assert(0 MH_OP6502_GRID(COUNT_ONE) == 256, "opcode grid must have 256 entries");
_Static_assert(S_COUNT < 256, "micro-states must fit in a byte");
