/* td_backtrace.c - backtrace (a heuristic walk of the 6502 stack page)
 * and cycles_stopwatch (the debug engine's stopwatch, mh.debug/1).
 *
 * The walk starts at S+1 and goes up to $01FF. At each position it tries,
 * in order:
 *   - a JSR frame: the two bytes are a return address R-1 (low byte first)
 *     and memory at R-3 holds $20 (JSR) whose operand is the callee;
 *   - an interrupt frame: P (bit 5 set), then PCL, PCH of an interrupted
 *     instruction whose opcode is documented; with B set in the pushed P
 *     it is a BRK, and the byte two below the PC must be $00.
 * A frame found right where the previous one ended (or at S+1) is
 * "likely"; one found after bytes nothing explains (pushed data, a frame
 * the walk misread) is a "guess". A 6502 stack has no frame pointers:
 * nothing here is certain, and data can look like a return address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/disasm6502.h>

#include "td_code.h"
#include "td_store.h"
#include "td_util.h"

static uint8_t peek(td_call *c, uint16_t address)
{
    uint8_t b = 0;
    c->mem->peek(c->mem_ctx, 0, address, &b, 1);
    return b;
}

/* "name" or "name+3" for the nearest symbol at or below address. */
static void where(td_session_state *state, uint32_t address, char *out, size_t size)
{
    out[0] = '\0';
    const td_symbol *s = state ? td_symbols_below(state, address) : NULL;
    if (!s || address - s->address > 0x400) return;
    if (s->address == address) snprintf(out, size, "%s", s->name);
    else snprintf(out, size, "%s+%u", s->name, (unsigned)(address - s->address));
}

typedef struct frame {
    int interrupt;     /* 0 JSR, 1 IRQ/NMI, 2 BRK */
    uint16_t at;       /* stack address of the frame's first byte */
    uint16_t size;
    uint16_t site;     /* JSR's address, or the interrupted PC */
    uint16_t target;   /* JSR's operand */
    uint16_t resume;   /* where execution continues */
    uint8_t p;
    int likely;
} frame;

static int try_jsr(td_call *c, uint16_t at, frame *f)
{
    if (at + 1 > 0x1FF) return 0;
    uint16_t pushed = (uint16_t)(peek(c, at) | peek(c, (uint16_t)(at + 1)) << 8);
    uint16_t site = (uint16_t)(pushed - 2);
    if (peek(c, site) != 0x20) return 0;
    f->interrupt = 0;
    f->at = at;
    f->size = 2;
    f->site = site;
    f->target = (uint16_t)(peek(c, (uint16_t)(site + 1)) | peek(c, (uint16_t)(site + 2)) << 8);
    f->resume = (uint16_t)(pushed + 1);
    return 1;
}

static int try_interrupt(td_call *c, uint16_t at, frame *f)
{
    if (at + 2 > 0x1FF) return 0;
    uint8_t p = peek(c, at);
    if (!(p & 0x20)) return 0;
    uint16_t pc = (uint16_t)(peek(c, (uint16_t)(at + 1)) | peek(c, (uint16_t)(at + 2)) << 8);
    const mh_op6502_info *op = mh_op6502_get(peek(c, pc));
    if (op->undocumented) return 0;
    int brk = (p & 0x10) != 0;
    if (brk && peek(c, (uint16_t)(pc - 2)) != 0x00) return 0;
    f->interrupt = brk ? 2 : 1;
    f->at = at;
    f->size = 3;
    f->p = p;
    f->site = brk ? (uint16_t)(pc - 2) : pc;
    f->target = 0;
    f->resume = pc;
    return 1;
}

void td_backtrace(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "backtrace", TD_NEED_CPU | TD_NEED_MEMORY) != 0) goto done;
    int64_t limit = 32;
    mh_status status = mh_args_int(c.args, "limit", 1, 128, &limit, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    const mh_cpu6502 *cpu = c.cpu->state(c.cpu_ctx);
    uint16_t pc = cpu->pc;
    uint8_t s = cpu->s;
    frame frames[128];
    size_t count = 0;
    unsigned unexplained = 0;
    int gap = 0;
    for (uint32_t at = 0x100u + s + 1u; at <= 0x1FF && count < (size_t)limit;) {
        frame f;
        if (try_jsr(&c, (uint16_t)at, &f) || try_interrupt(&c, (uint16_t)at, &f)) {
            f.likely = !gap;
            frames[count++] = f;
            at += f.size;
        } else {
            unexplained++;
            gap = 1;
            at++;
        }
    }
    td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 0);
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    char name[TD_MAX_SYMBOL_NAME + 16], callee[TD_MAX_SYMBOL_NAME + 16];
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "pc", pc);
    td_write_byte(w, "s", s);
    where(state, pc, name, sizeof name);
    td_buf_printf(&text, "#0  $%04X%s%s  (PC)\n", pc, name[0] ? " in " : "", name);
    mh_json_write_key(w, "frames");
    mh_json_write_array_begin(w);
    static const char *const kinds[] = {"jsr", "irq/nmi", "brk"};
    for (size_t i = 0; i < count; i++) {
        const frame *f = &frames[i];
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "kind");
        mh_json_write_string(w, kinds[f->interrupt]);
        mh_args_write_address(w, "stack", f->at);
        mh_args_write_address(w, f->interrupt ? "interrupted" : "call_site", f->site);
        mh_args_write_address(w, "return_to", f->resume);
        where(state, f->site, name, sizeof name);
        if (name[0]) {
            mh_json_write_key(w, "site_label");
            mh_json_write_string(w, name);
        }
        if (!f->interrupt) {
            mh_args_write_address(w, "target", f->target);
            where(state, f->target, callee, sizeof callee);
            if (callee[0]) {
                mh_json_write_key(w, "target_label");
                mh_json_write_string(w, callee);
            }
        } else {
            td_write_byte(w, "p", f->p);
        }
        mh_json_write_key(w, "confidence");
        mh_json_write_string(w, f->likely ? "likely" : "guess");
        mh_json_write_object_end(w);
        if (!f->interrupt)
            td_buf_printf(&text, "#%zu  $%04X  JSR $%04X%s%s%s, returns to $%04X%s%s  [stack $%04X, %s]\n",
                          i + 1, f->site, f->target, callee[0] ? " (" : "", callee,
                          callee[0] ? ")" : "", f->resume, name[0] ? " in " : "", name, f->at,
                          f->likely ? "likely" : "guess");
        else
            td_buf_printf(&text, "#%zu  %s at $%04X%s%s, P=$%02X  [stack $%04X, %s]\n", i + 1,
                          f->interrupt == 2 ? "BRK" : "IRQ/NMI interrupted", f->site,
                          name[0] ? " in " : "", name, f->p, f->at, f->likely ? "likely" : "guess");
    }
    td_store_unlock(c.plugin->store);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "unexplained");
    mh_json_write_uint(w, unexplained);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "stack $%04X-$01FF: %zu frame%s, %u byte%s unexplained (a heuristic: see "
                         "the tool description)",
                  0x100u + s + 1u > 0x1FF ? 0x1FFu : 0x100u + s + 1u, count, count == 1 ? "" : "s",
                  unexplained, unexplained == 1 ? "" : "s");
    if (s == 0xFF) td_buf_printf(&text, "; the stack is empty (S=$FF)");
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}

void td_cycles_stopwatch(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "cycles_stopwatch", 0) != 0) goto done;
    bool reset = false;
    mh_status status = mh_args_bool(c.args, "reset", &reset, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    const mh_debug_service *debug = c.plugin->debug;
    if (!debug ||
        debug->struct_size < offsetof(mh_debug_service, stopwatch) + sizeof debug->stopwatch ||
        !debug->stopwatch) {
        td_fail(&c, "cycles_stopwatch needs the host's debug engine (%s, stopwatch), which this "
                    "host does not provide; registers_get reports the CPU's cycle counter instead",
                MH_DEBUG_SERVICE_ID);
        goto done;
    }
    uint64_t cycles = debug->stopwatch(c.session, reset ? 1 : 0);
    int has_total = debug->cycles != NULL;
    uint64_t total = has_total ? debug->cycles(c.session) : 0;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "cycles");
    mh_json_write_uint(w, cycles);
    mh_json_write_key(w, "reset");
    mh_json_write_bool(w, reset);
    if (has_total) {
        mh_json_write_key(w, "total_cycles");
        mh_json_write_uint(w, total);
    }
    mh_json_write_object_end(w);
    char text[200];
    snprintf(text, sizeof text, "%llu cycles since the stopwatch was last reset%s",
             (unsigned long long)cycles, reset ? "; it restarts from 0 now" : "");
    td_result(&c, w, text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}
