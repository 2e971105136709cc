/* op6502_table.c - opcode facts for the disassembler, the assembler and
 * debuggers (mh_op6502_get and friends), built from the opcode grid. */
#include <stddef.h>

#include "mcphost/disasm6502.h"
#include "op6502_grid.h"

/* The grid's mnemonic order must match mh_mn6502. */
#define MN_ORDER(name, kind, flow, seq) GRID_MN_##name,
enum { MH_OP6502_MNEMONICS(MN_ORDER) GRID_MN_COUNT };
#define MN_CHECK(name, kind, flow, seq) \
    _Static_assert((int)GRID_MN_##name == (int)MH_MN6502_##name, "mnemonic order: " #name);
MH_OP6502_MNEMONICS(MN_CHECK)
_Static_assert((int)GRID_MN_COUNT == (int)MH_MN6502_COUNT, "mnemonic count");

#define MN_NAME(name, kind, flow, seq) #name,
static const char *const mnemonic_names[MH_MN6502_COUNT] = {MH_OP6502_MNEMONICS(MN_NAME)};

/* Instruction length per addressing mode. */
enum {
    LEN_IMP = 1, LEN_ACC = 1, LEN_IMM = 2, LEN_ZP = 2, LEN_ZPX = 2, LEN_ZPY = 2, LEN_ABS = 3,
    LEN_ABSX = 3, LEN_ABSY = 3, LEN_IND = 3, LEN_IZX = 2, LEN_IZY = 2, LEN_REL = 2
};
static const uint8_t mode_length[MH_AM6502_COUNT] = {
    LEN_IMP, LEN_ACC, LEN_IMM, LEN_ZP, LEN_ZPX, LEN_ZPY, LEN_ABS,
    LEN_ABSX, LEN_ABSY, LEN_IND, LEN_IZX, LEN_IZY, LEN_REL,
};

enum { DOC_D = 0, DOC_U = 1 };

#define FLOW_OF(name, kind, flow, seq) FLOW_OF_##name = MH_FLOW6502_##flow,
enum { MH_OP6502_MNEMONICS(FLOW_OF) FLOW_OF_COUNT_ };

#define OP_INFO(mn, mode, doc)                                                            \
    {#mn, (uint8_t)MH_MN6502_##mn, (uint8_t)MH_AM6502_##mode, (uint8_t)LEN_##mode,       \
     (uint8_t)DOC_##doc, (uint8_t)FLOW_OF_##mn, {0, 0, 0}},
static const mh_op6502_info op_info[256] = {MH_OP6502_GRID(OP_INFO)};

const mh_op6502_info *mh_op6502_get(uint8_t opcode)
{
    return &op_info[opcode];
}

const char *mh_mn6502_name(mh_mn6502 mn)
{
    if ((unsigned)mn >= MH_MN6502_COUNT) return NULL;
    return mnemonic_names[mn];
}

int mh_am6502_length(mh_am6502 mode)
{
    if ((unsigned)mode >= MH_AM6502_COUNT) return 0;
    return mode_length[mode];
}

int mh_op6502_find(mh_mn6502 mn, mh_am6502 mode)
{
    int found = -1;
    for (int op = 0; op < 256; op++) {
        if (op_info[op].mn != (uint8_t)mn || op_info[op].mode != (uint8_t)mode) continue;
        if (!op_info[op].undocumented) return op;
        if (found < 0) found = op;
    }
    return found;
}
