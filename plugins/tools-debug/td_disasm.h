/* td_disasm.h - symbol-aware disassembly of a session's memory for the
 * registers and code tools: one instruction at a time, read with the
 * memory interface's side-effect-free peek, operands named from the
 * session's symbol table (td_store.h).
 *
 * Ownership: a td_disasm lives on the handler's stack; between
 * td_disasm_begin() and td_disasm_end() it holds the store's lock (no host
 * calls in between except peeks). Threads: [emu-thread].
 */
#ifndef TD_DISASM_H
#define TD_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "td_store.h"
#include "td_util.h"

typedef struct td_disasm {
    td_call *c;
    td_session_state *symbols; /* NULL: no symbols for this session */
    char label[TD_MAX_SYMBOL_NAME + 1];
} td_disasm;

void td_disasm_begin(td_disasm *d, td_call *c);
void td_disasm_end(td_disasm *d);

/* One instruction at offset of space (shown: added for printed addresses,
 * as in td_range). Writes the text ("LDA #$01", operands by symbol) and
 * the instruction's bytes; returns its length (1..3). At the end of the
 * space an incomplete instruction is ".BYTE $xx" of length 1. */
int td_disasm_one(td_disasm *d, size_t space, uint32_t offset, uint32_t shown, char *text,
                  size_t text_size, uint8_t bytes[3]);

/* The name of the symbol exactly at address, or NULL. */
const char *td_disasm_symbol(td_disasm *d, uint32_t address);

#endif
