/* td_disasm.c - symbol-aware disassembly through mh.memory/1 (td_disasm.h). */
#include "td_disasm.h"

#include <stdio.h>
#include <string.h>

#include <mcphost/disasm6502.h>

void td_disasm_begin(td_disasm *d, td_call *c)
{
    memset(d, 0, sizeof *d);
    d->c = c;
    if (c->plugin->store) {
        d->symbols = td_store_lock(c->plugin->store, td_session_name(c), 0);
        if (d->symbols && d->symbols->symbol_count == 0) d->symbols = NULL;
    }
}

void td_disasm_end(td_disasm *d)
{
    if (d->c && d->c->plugin->store) td_store_unlock(d->c->plugin->store);
    d->c = NULL;
}

const char *td_disasm_symbol(td_disasm *d, uint32_t address)
{
    if (!d->symbols) return NULL;
    const td_symbol *symbol = td_symbols_at(d->symbols, address);
    return symbol ? symbol->name : NULL;
}

static const char *label_fn(void *user, uint16_t address)
{
    td_disasm *d = user;
    const char *name = td_disasm_symbol(d, address);
    if (!name) return NULL;
    snprintf(d->label, sizeof d->label, "%s", name);
    return d->label;
}

int td_disasm_one(td_disasm *d, size_t space, uint32_t offset, uint32_t shown, char *text,
                  size_t text_size, uint8_t bytes[3])
{
    const mh_memory_space *info = d->c->mem->space(d->c->mem_ctx, space);
    uint32_t size = info ? info->size : 0;
    size_t have = offset < size ? size - offset : 0;
    if (have > 3) have = 3;
    memset(bytes, 0, 3);
    if (have == 0 || d->c->mem->peek(d->c->mem_ctx, space, offset, bytes, have) != MH_OK) {
        snprintf(text, text_size, "???");
        return 1;
    }
    mh_disasm6502_options options = {0, d->symbols ? label_fn : NULL, d};
    /* Branch targets are computed from the printed address; wrap at 64 KiB. */
    return mh_disasm6502_buffer(&options, bytes, have, (uint16_t)(offset + shown), text, text_size);
}
