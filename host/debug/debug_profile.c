/* debug_profile.c - the profiler's accounting (debug_profile.h). */
#include "debug_profile.h"

#include <stdlib.h>
#include <string.h>

#include "mcphost/disasm6502.h"

#define OP_JSR 0x20
#define OP_RTI 0x40
#define OP_RTS 0x60

int dbg_profile_is_flow(uint8_t opcode)
{
    mh_flow6502 flow = (mh_flow6502)mh_op6502_get(opcode)->flow;
    return flow != MH_FLOW6502_NONE && flow != MH_FLOW6502_JAM;
}

static void point_view(dbg_profile *p)
{
    p->view.struct_size = sizeof p->view;
    p->view.insn_count = p->insn_count;
    p->view.cycle_count = p->cycle_count;
    p->view.functions = p->functions;
    p->view.usage = p->usage;
    p->view.reads = p->reads;
    p->view.writes = p->writes;
    p->view.edges = p->edges.keys;
    p->view.callers = p->callers.keys;
    p->view.returns = p->returns.keys;
    p->view.pair_slots = DBG_PAIRS_CAPACITY;
}

dbg_profile *dbg_profile_new(void)
{
    dbg_profile *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (dbg_pairs_reset(&p->edges) != 0 || dbg_pairs_reset(&p->callers) != 0 ||
        dbg_pairs_reset(&p->returns) != 0) {
        dbg_profile_free(p);
        return NULL;
    }
    point_view(p);
    return p;
}

void dbg_profile_free(dbg_profile *p)
{
    if (!p) return;
    dbg_pairs_free(&p->edges);
    dbg_pairs_free(&p->callers);
    dbg_pairs_free(&p->returns);
    free(p);
}

void dbg_profile_reset(dbg_profile *p)
{
    memset(p->insn_count, 0, sizeof p->insn_count);
    memset(p->cycle_count, 0, sizeof p->cycle_count);
    memset(p->functions, 0, sizeof p->functions);
    memset(p->usage, 0, sizeof p->usage);
    memset(p->reads, 0, sizeof p->reads);
    memset(p->writes, 0, sizeof p->writes);
    dbg_pairs_reset(&p->edges); /* the tables exist: only emptied */
    dbg_pairs_reset(&p->callers);
    dbg_pairs_reset(&p->returns);
    p->depth = 0;
    p->have_last = 0;
    p->root_cycles = 0;
    p->view.cycles = p->view.instructions = 0;
}

void dbg_profile_pause(dbg_profile *p) { p->have_last = 0; }

const mh_profile_view *dbg_profile_view(dbg_profile *p)
{
    p->view.on = p->on;
    p->view.pairs_full = p->edges.full || p->callers.full || p->returns.full;
    return &p->view;
}

/* ---- the shadow call stack ---- */

static mh_profile_function *top_function(dbg_profile *p)
{
    return p->depth ? &p->functions[p->stack[p->depth - 1].entry] : NULL;
}

static void call(dbg_profile *p, uint16_t entry, uint32_t kind, uint16_t site, uint8_t caller_s,
                 uint64_t start)
{
    mh_profile_function *f = &p->functions[entry];
    f->calls++;
    f->kinds |= kind;
    dbg_pairs_add(&p->callers, entry, site);
    if (p->depth == DBG_PROFILE_DEPTH) return; /* deeper than any real stack: not followed */
    p->stack[p->depth++] = (dbg_frame){entry, caller_s, start};
}

/* Whether a frame below the top one is in entry (a recursive call: its
 * time counts once, in the outermost frame). */
static int entered_below(const dbg_profile *p, uint16_t entry)
{
    for (size_t i = 0; i + 1 < p->depth; i++)
        if (p->stack[i].entry == entry) return 1;
    return 0;
}

/* After an RTS or RTI at `from` left S at s: every frame whose caller's S
 * is at or below s has returned (a routine that dropped its return address
 * and returned from further up unwinds more than one). */
static void unwind(dbg_profile *p, uint8_t s, uint16_t from, uint64_t now)
{
    while (p->depth) {
        const dbg_frame *f = &p->stack[p->depth - 1];
        uint8_t above = (uint8_t)(s - f->caller_s);
        if (above >= 0x80) break; /* S is still below the caller's: inside */
        if (above == 0) dbg_pairs_add(&p->returns, f->entry, from);
        if (!entered_below(p, f->entry))
            p->functions[f->entry].inclusive_cycles += now - f->start;
        p->depth--;
    }
}

/* ---- data reads ---- */

/* Mnemonics that read the byte their operand addresses (loads, ALU,
 * compares, BIT, read-modify-write, and the undocumented ones that do;
 * NOP with a memory operand reads it too). */
static int reads_operand(uint8_t mn)
{
    switch (mn) {
    case MH_MN6502_ADC: case MH_MN6502_AND: case MH_MN6502_ASL: case MH_MN6502_BIT:
    case MH_MN6502_CMP: case MH_MN6502_CPX: case MH_MN6502_CPY: case MH_MN6502_DEC:
    case MH_MN6502_EOR: case MH_MN6502_INC: case MH_MN6502_LDA: case MH_MN6502_LDX:
    case MH_MN6502_LDY: case MH_MN6502_LSR: case MH_MN6502_NOP: case MH_MN6502_ORA:
    case MH_MN6502_ROL: case MH_MN6502_ROR: case MH_MN6502_SBC: case MH_MN6502_SLO:
    case MH_MN6502_RLA: case MH_MN6502_SRE: case MH_MN6502_RRA: case MH_MN6502_LAX:
    case MH_MN6502_DCP: case MH_MN6502_ISC: case MH_MN6502_LAS:
        return 1;
    default:
        return 0;
    }
}

static void mark_read(dbg_profile *p, uint16_t address)
{
    p->usage[address] |= MH_USAGE_READ;
    p->reads[address]++;
}

static uint8_t peek(const dbg_profile_at *at, uint16_t address)
{
    return at->peek ? at->peek(at->peek_user, address) : 0;
}

/* A pointer in memory: read as data, and where it points. */
static uint16_t read_pointer(dbg_profile *p, const dbg_profile_at *at, uint16_t lo, uint16_t hi)
{
    mark_read(p, lo);
    mark_read(p, hi);
    return (uint16_t)(peek(at, lo) | peek(at, hi) << 8);
}

/* The data the instruction at `at` is about to read. */
static void mark_reads(dbg_profile *p, const dbg_profile_at *at, const mh_op6502_info *op)
{
    const uint8_t b1 = at->bytes[1];
    const uint16_t word = (uint16_t)(b1 | at->bytes[2] << 8);
    uint16_t ea;
    switch (op->mode) {
    case MH_AM6502_ZP: ea = b1; break;
    case MH_AM6502_ZPX: ea = (uint8_t)(b1 + at->x); break;
    case MH_AM6502_ZPY: ea = (uint8_t)(b1 + at->y); break;
    case MH_AM6502_ABS: ea = word; break;
    case MH_AM6502_ABSX: ea = (uint16_t)(word + at->x); break;
    case MH_AM6502_ABSY: ea = (uint16_t)(word + at->y); break;
    case MH_AM6502_IZX: {
        uint8_t zp = (uint8_t)(b1 + at->x);
        ea = read_pointer(p, at, zp, (uint8_t)(zp + 1));
        break;
    }
    case MH_AM6502_IZY: ea = (uint16_t)(read_pointer(p, at, b1, (uint8_t)(b1 + 1)) + at->y); break;
    case MH_AM6502_IND: /* JMP ($xxFF) takes its high byte from $xx00 */
        read_pointer(p, at, word, (uint16_t)((word & 0xFF00) | (uint8_t)(word + 1)));
        return;
    default: {
        /* pulls from the stack */
        unsigned pulled = op->mn == MH_MN6502_PLA || op->mn == MH_MN6502_PLP ? 1
                          : op->mn == MH_MN6502_RTS                          ? 2
                          : op->mn == MH_MN6502_RTI                          ? 3
                                                                              : 0;
        for (unsigned i = 1; i <= pulled; i++) mark_read(p, (uint16_t)(0x100 + (uint8_t)(at->s + i)));
        return;
    }
    }
    if (reads_operand(op->mn)) mark_read(p, ea);
}

/* ---- one boundary ---- */

static void account_last(dbg_profile *p, const dbg_profile_at *at)
{
    uint64_t delta = at->cycle >= p->last_cycle ? at->cycle - p->last_cycle : 0;
    uint64_t sequence = 0; /* a hardware interrupt's own cycles */
    if (at->interrupt & (MH_ENTRY_IRQ | MH_ENTRY_NMI))
        sequence = at->interrupt_cycles < delta ? at->interrupt_cycles : delta;
    uint64_t own = delta - sequence;
    p->view.cycles += delta;
    p->cycle_count[p->last_pc] += own;
    mh_profile_function *f = top_function(p);
    if (f) f->exclusive_cycles += own;
    else p->root_cycles += own;

    /* What the last instruction did to the flow. */
    const uint8_t op = p->last_bytes[0];
    const uint64_t ended = at->cycle - sequence; /* when it ended */
    if (dbg_profile_is_flow(op))
        dbg_pairs_add(&p->edges, p->last_pc,
                      at->interrupt & (MH_ENTRY_IRQ | MH_ENTRY_NMI) ? at->resume : at->pc);
    if (op == OP_JSR) {
        uint16_t target = (uint16_t)(p->last_bytes[1] | p->last_bytes[2] << 8);
        call(p, target, MH_ENTRY_JSR, p->last_pc, p->last_s, ended);
    } else if (op == OP_RTS || op == OP_RTI) {
        /* S after it: with an interrupt since, before the 3 bytes it pushed */
        uint8_t s = at->interrupt & (MH_ENTRY_IRQ | MH_ENTRY_NMI) ? (uint8_t)(at->s + 3) : at->s;
        unwind(p, s, p->last_pc, ended);
    }
}

void dbg_profile_step(dbg_profile *p, const dbg_profile_at *at)
{
    if (at->reset || at->cycle < p->last_cycle) {
        /* a reset, or a snapshot from the past: nothing returns any more */
        p->depth = 0;
        p->have_last = 0;
    }
    if (p->have_last) account_last(p, at);
    if (at->interrupt) {
        /* the handler: its caller's S is the one before the 3 pushes; an
         * IRQ or NMI starts with the sequence, a BRK's cycles were its own */
        uint64_t sequence = at->interrupt & (MH_ENTRY_IRQ | MH_ENTRY_NMI) ? at->interrupt_cycles : 0;
        if (sequence > at->cycle) sequence = at->cycle;
        uint16_t site = p->have_last ? p->last_pc : at->pc;
        call(p, at->pc, at->interrupt, site, (uint8_t)(at->s + 3), at->cycle - sequence);
        mh_profile_function *f = top_function(p);
        if (f && p->have_last) f->exclusive_cycles += sequence;
    }
    p->insn_count[at->pc]++;
    p->view.instructions++;
    mh_profile_function *f = top_function(p);
    if (f) f->instructions++;
    const mh_op6502_info *op = mh_op6502_get(at->bytes[0]);
    int length = op->length;
    mark_reads(p, at, op);
    p->usage[at->pc] |= MH_USAGE_OPCODE;
    for (int i = 1; i < length && i < 3; i++)
        p->usage[(uint16_t)(at->pc + i)] |= MH_USAGE_OPERAND;
    p->have_last = 1;
    p->last_pc = at->pc;
    memcpy(p->last_bytes, at->bytes, sizeof p->last_bytes);
    p->last_s = at->s;
    p->last_cycle = at->cycle;
}
