/* cpu6502_core.inc.h - the cycle engine, written once and instantiated by
 * cpu6502_exec.c into loop variants (no include guard on purpose):
 *
 *   CORE_NAME   name of the generated static function
 *   CORE_FLAT   1: the bus is links.memory, inlined; 0: links.read/write
 *   CORE_HOOKS  1: calls links.sync / links.access; 0: no hook code at all
 *   CORE_LOCAL  1: runs on a local copy of the state (lets the compiler
 *               keep registers in machine registers; only when nothing
 *               outside can look at the state during the run)
 *   CORE_READ_FN, CORE_WRITE_FN  (optional, with CORE_FLAT 0) the bus
 *               functions to call directly while the links name
 *               CORE_READ_LINK, CORE_WRITE_LINK (the same bus as the
 *               links' callbacks; a machine's inlined bus:
 *               cpu6502_engine.h)
 *
 * One micro-state is one cycle: one bus access, then the state's own jump
 * to the next (threaded dispatch, see "Dispatch" below). A state must not
 * change anything before its bus read (a RDY stall repeats the state);
 * RD() jumps to `stall` when RDY is low after the read.
 * The function is:  uint32_t CORE_NAME(mh_cpu6502 *cpu, uint32_t budget)
 */

/* Rare paths (RDY stalls, the port, NMI edges, the end of a run, an
 * interrupt) out of the way of the straight line. */
#if defined(__GNUC__) || defined(__clang__)
#define CORE_RARE(x) __builtin_expect(!!(x), 0)
#else
#define CORE_RARE(x) (x)
#endif

#if CORE_FLAT
#define CORE_BUS_READ(addr) mem[addr]
#define CORE_BUS_WRITE(addr, val) (mem[addr] = (val))
#elif defined(CORE_READ_FN)
/* A machine's own instance (cpu6502_engine.h): its bus functions called
 * directly, so the compiler can inline them, while the links still name
 * them (a machine may swap its bus during a run, e.g. to halt the CPU). */
#define CORE_BUS_READ(addr)                                                            \
    (CORE_RARE(c->links.read != CORE_READ_LINK) ? c->links.read(c->links.user, (addr)) \
                                                : CORE_READ_FN(c->links.user, (addr)))
#define CORE_BUS_WRITE(addr, val)                                                      \
    (CORE_RARE(c->links.write != CORE_WRITE_LINK)                                      \
         ? c->links.write(c->links.user, (addr), (val))                                \
         : CORE_WRITE_FN(c->links.user, (addr), (val)))
#else
#define CORE_BUS_READ(addr) c->links.read(c->links.user, (addr))
#define CORE_BUS_WRITE(addr, val) c->links.write(c->links.user, (addr), (val))
#endif

#if CORE_HOOKS
#define CORE_HOOK_ACCESS(addr, val, w)                                                 \
    do {                                                                               \
        if (c->links.access && c->links.access(c->links.hook_user, (addr), (val), (w))) \
            c->stop_request = 1;                                                       \
    } while (0)
/* A read calls the access hook unless it asked for writes only, or for
 * reads of the addresses its map marks. */
#define CORE_HOOK_READ(addr, val)                                                      \
    do {                                                                               \
        if (!c->links.access_skip_reads &&                                             \
            (!c->links.access_read_map || c->links.access_read_map[addr]))             \
            CORE_HOOK_ACCESS(addr, val, 0);                                            \
    } while (0)
#else
#define CORE_HOOK_ACCESS(addr, val, w) ((void)0)
#define CORE_HOOK_READ(addr, val) ((void)0)
#endif

/* Read cycle: v = byte at addr (the port's value at $00/$01). */
#define RD(addr_expr)                                                                  \
    do {                                                                               \
        uint16_t ra_ = (uint16_t)(addr_expr);                                          \
        c->bus_addr = ra_;                                                             \
        c->bus_write = 0;                                                              \
        v = CORE_BUS_READ(ra_);                                                        \
        if (CORE_RARE(ra_ < 2u && c->port.pins))                                       \
            v = mh_port_value(c, ra_,                                                  \
                              c->links.port_input ? c->links.port_input(c->links.user) \
                                                  : c->port.input);                    \
        c->bus_data = v;                                                               \
        if (CORE_RARE(!c->rdy)) goto stall;                                            \
        CORE_HOOK_READ(ra_, v);                                                        \
    } while (0)

/* Write cycle (never stalls). */
#define WR(addr_expr, val_expr)                                                        \
    do {                                                                               \
        uint16_t wa_ = (uint16_t)(addr_expr);                                          \
        uint8_t wv_ = (uint8_t)(val_expr);                                             \
        c->bus_addr = wa_;                                                             \
        c->bus_write = 1;                                                              \
        c->bus_data = wv_;                                                             \
        if (CORE_RARE(wa_ < 2u && c->port.pins)) mh_port_store(c, wa_, wv_);           \
        CORE_BUS_WRITE(wa_, wv_);                                                      \
        CORE_HOOK_ACCESS(wa_, wv_, 1);                                                 \
    } while (0)

#define STACK(sp) ((uint16_t)(0x0100u | (sp)))

/* NMI edge detection at the end of a cycle; nothing to do in the usual
 * case of a line that is and was released. */
#define CORE_NMI_EDGE()                                                                \
    do {                                                                               \
        if (CORE_RARE(c->nmi | c->nmi_seen)) {                                         \
            uint8_t n_ = c->nmi != 0;                                                  \
            if (n_ && !c->nmi_seen) c->nmi_pending = 1;                                \
            c->nmi_seen = n_;                                                          \
        }                                                                              \
    } while (0)

/* Dispatch. With GCC or Clang every state is a label and ends with its own
 * jump: straight to the next state where it is known (most of them), else
 * through the label table (`goto *labels[state]`: the opcode's first
 * state, its access state). GCC merges those computed gotos into one
 * indirect jump; keeping them apart (--param max-goto-duplication-insns)
 * measured slower, so the direct jumps are the gain. Other compilers get
 * the same source as one switch in a loop. Either way a state ends with
 *   NEXT(s)         end of cycle with interrupt sampling, then state s
 *   NEXT_NOPOLL(s)  end of cycle without sampling
 *   NEXT_DYN(e)     as NEXT, the state computed (decode table)
 * and the run ends after the end of a cycle when the budget is spent, with
 * c->state naming the state the next run starts in. Defining
 * MH_CPU6502_SWITCH_DISPATCH forces the switch (to compare the two). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(MH_CPU6502_SWITCH_DISPATCH)
#define CORE_THREADED 1
/* labels as values are the compilers' extension (-Wpedantic says so) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#else
#define CORE_THREADED 0
#endif

#define CORE_END_CYCLE(poll_expr)                                                      \
    do {                                                                               \
        c->t++;                                                                        \
        c->cycles++;                                                                   \
        c->stalled = 0;                                                                \
        CORE_NMI_EDGE();                                                               \
        poll_expr;                                                                     \
    } while (0)
/* Interrupt sampling at the end of a cycle: what was due one cycle ago
 * decides at the next opcode fetch. */
#define CORE_POLL()                                                                    \
    do {                                                                               \
        c->poll_prev = c->poll_cur;                                                    \
        uint8_t poll_ = c->nmi_pending;                                                \
        if (c->irq && !(c->p & F_I)) poll_ = 1;                                        \
        c->poll_cur = poll_;                                                           \
    } while (0)
#define CORE_BUDGET_SPENT() CORE_RARE(c->cycles - start >= budget)

#if CORE_THREADED
#define STATE(s) L_##s:
#define NEXT(s)                                                                        \
    do {                                                                               \
        c->state = (s);                                                                \
        CORE_END_CYCLE(CORE_POLL());                                                   \
        if (CORE_BUDGET_SPENT()) goto out;                                             \
        goto L_##s;                                                                    \
    } while (0)
#define NEXT_NOPOLL(s)                                                                 \
    do {                                                                               \
        c->state = (s);                                                                \
        CORE_END_CYCLE((void)0);                                                       \
        if (CORE_BUDGET_SPENT()) goto out;                                             \
        goto L_##s;                                                                    \
    } while (0)
#define NEXT_DYN(e)                                                                    \
    do {                                                                               \
        uint8_t ns_ = (uint8_t)(e);                                                    \
        c->state = ns_;                                                                \
        CORE_END_CYCLE(CORE_POLL());                                                   \
        if (CORE_BUDGET_SPENT()) goto out;                                             \
        goto *labels[ns_];                                                             \
    } while (0)
#else
#define STATE(s) case s:
#define NEXT(s)                                                                        \
    do {                                                                               \
        c->state = (s);                                                                \
        goto end_poll;                                                                 \
    } while (0)
#define NEXT_NOPOLL(s)                                                                 \
    do {                                                                               \
        c->state = (s);                                                                \
        goto end_no_poll;                                                              \
    } while (0)
#define NEXT_DYN(e) NEXT((uint8_t)(e))
#endif

static uint32_t CORE_NAME(mh_cpu6502 *cpu, uint32_t budget)
{
#if CORE_LOCAL
    mh_cpu6502 local = *cpu;
    mh_cpu6502 *const c = &local;
#else
    mh_cpu6502 *const c = cpu;
#endif
#if CORE_FLAT
    uint8_t *const mem = c->links.memory;
#endif
    /* The clock counts the cycles run (nothing else moves it during a
     * run), so it is also the loop's counter; counted from start, so a
     * clock near 2^64 (a snapshot may hold any) wraps instead of ending
     * every run at once. */
    const uint64_t start = c->cycles;
    /* The current instruction's decode entry, looked up once per opcode
     * (ir only changes at a fetch, an interrupt or a reset). */
    const mh_cpu_decode *d = &mh_cpu_decode_table[c->ir];
    uint8_t v;

    if (budget == 0) goto out;
#if CORE_THREADED
    static const void *const labels[S_COUNT] = {
        [S_FETCH] = &&L_S_FETCH, [S_IMP] = &&L_S_IMP, [S_IMM] = &&L_S_IMM,
        [S_ZP1] = &&L_S_ZP1, [S_ZPX1] = &&L_S_ZPX1, [S_ZPX2] = &&L_S_ZPX2,
        [S_ZPY1] = &&L_S_ZPY1, [S_ZPY2] = &&L_S_ZPY2, [S_ABS1] = &&L_S_ABS1,
        [S_ABS2] = &&L_S_ABS2, [S_ABSX1] = &&L_S_ABSX1, [S_ABSX2] = &&L_S_ABSX2,
        [S_ABSY1] = &&L_S_ABSY1, [S_ABSY2] = &&L_S_ABSY2, [S_IZX1] = &&L_S_IZX1,
        [S_IZX2] = &&L_S_IZX2, [S_IZX3] = &&L_S_IZX3, [S_IZX4] = &&L_S_IZX4,
        [S_IZY1] = &&L_S_IZY1, [S_IZY2] = &&L_S_IZY2, [S_IZY3] = &&L_S_IZY3,
        [S_FIX] = &&L_S_FIX, [S_READ] = &&L_S_READ, [S_WRITE] = &&L_S_WRITE,
        [S_RMW1] = &&L_S_RMW1, [S_RMW2] = &&L_S_RMW2, [S_RMW3] = &&L_S_RMW3,
        [S_BR1] = &&L_S_BR1, [S_BR2] = &&L_S_BR2, [S_BR3] = &&L_S_BR3,
        [S_JMP1] = &&L_S_JMP1, [S_JMP2] = &&L_S_JMP2, [S_JIND3] = &&L_S_JIND3,
        [S_JIND4] = &&L_S_JIND4, [S_JSR1] = &&L_S_JSR1, [S_JSR2] = &&L_S_JSR2,
        [S_JSR3] = &&L_S_JSR3, [S_JSR4] = &&L_S_JSR4, [S_JSR5] = &&L_S_JSR5,
        [S_RTS1] = &&L_S_RTS1, [S_RTS2] = &&L_S_RTS2, [S_RTS3] = &&L_S_RTS3,
        [S_RTS4] = &&L_S_RTS4, [S_RTS5] = &&L_S_RTS5, [S_RTI1] = &&L_S_RTI1,
        [S_RTI2] = &&L_S_RTI2, [S_RTI3] = &&L_S_RTI3, [S_RTI4] = &&L_S_RTI4,
        [S_RTI5] = &&L_S_RTI5, [S_PUSH1] = &&L_S_PUSH1, [S_PUSH2] = &&L_S_PUSH2,
        [S_PULL1] = &&L_S_PULL1, [S_PULL2] = &&L_S_PULL2, [S_PULL3] = &&L_S_PULL3,
        [S_BRK1] = &&L_S_BRK1, [S_INT1] = &&L_S_INT1, [S_INT2] = &&L_S_INT2,
        [S_INT3] = &&L_S_INT3, [S_INT4] = &&L_S_INT4, [S_INT5] = &&L_S_INT5,
        [S_INT6] = &&L_S_INT6, [S_RST0] = &&L_S_RST0, [S_RST1] = &&L_S_RST1,
        [S_RST2] = &&L_S_RST2, [S_RST3] = &&L_S_RST3, [S_RST4] = &&L_S_RST4,
        [S_JAM1] = &&L_S_JAM1, [S_JAM2] = &&L_S_JAM2, [S_JAMMED] = &&L_S_JAMMED,
    };
    if (c->state >= S_COUNT) goto bad_state;
    goto *labels[c->state];
#else
dispatch:
    switch (c->state) {
#endif

    STATE(S_FETCH)
#if CORE_HOOKS
        if (c->stop_request) {
            c->stop_request = 0;
            c->stop_reason = MH_CPU6502_STOP_ACCESS;
            goto out;
        }
#endif
        if (CORE_RARE(c->poll_prev)) { /* interrupt: the fetched opcode is dropped */
            RD(c->pc);
            c->ir = 0x00;
            d = &mh_cpu_decode_table[0];
            c->tmp = INT_HW;
            c->ipc = c->pc;
            c->t = 0;
            NEXT(S_INT1);
        }
#if CORE_HOOKS
        if (c->links.sync && !c->stalled) {
            if (c->sync_skip && c->ad == c->pc) {
                c->sync_skip = 0;
            } else if (c->links.sync(c->links.hook_user, c->pc)) {
                c->sync_skip = 1;
                c->ad = c->pc;
                c->stop_reason = MH_CPU6502_STOP_SYNC;
                goto out;
            }
        }
#endif
        RD(c->pc);
        c->sync_skip = 0;
        c->ir = v;
        d = &mh_cpu_decode_table[v];
        c->ipc = c->pc;
        c->pc++;
        c->t = 0;
        NEXT_DYN(d->first);

    /* Implied, immediate. */
    STATE(S_IMP)
        RD(c->pc);
        mh_exec_implied(c, d->mn);
        NEXT(S_FETCH);
    STATE(S_IMM)
        RD(c->pc);
        c->pc++;
        mh_exec_read(c, d->mn, v);
        NEXT(S_FETCH);

    /* Zero page, zero page indexed. */
    STATE(S_ZP1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT_DYN(d->access);
    STATE(S_ZPX1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_ZPX2);
    STATE(S_ZPY1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_ZPY2);
    STATE(S_ZPX2)
        RD(c->ad);
        c->ad = (uint8_t)(c->ad + c->x);
        NEXT_DYN(d->access);
    STATE(S_ZPY2)
        RD(c->ad);
        c->ad = (uint8_t)(c->ad + c->y);
        NEXT_DYN(d->access);

    /* Absolute, absolute indexed: the low byte, then the high byte. */
    STATE(S_ABS1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_ABS2);
    STATE(S_ABSX1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_ABSX2);
    STATE(S_ABSY1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_ABSY2);
    STATE(S_ABS2)
        RD(c->pc);
        c->pc++;
        c->ad = (uint16_t)(c->ad | (v << 8));
        NEXT_DYN(d->access);
    STATE(S_ABSX2) {
        RD(c->pc);
        c->pc++;
        unsigned lo = (c->ad & 0xFFu) + c->x;
        c->tmp = (uint8_t)(lo >> 8);
        c->ad = (uint16_t)((v << 8) | (lo & 0xFFu));
        NEXT(S_FIX);
    }
    STATE(S_ABSY2) {
        RD(c->pc);
        c->pc++;
        unsigned lo = (c->ad & 0xFFu) + c->y;
        c->tmp = (uint8_t)(lo >> 8);
        c->ad = (uint16_t)((v << 8) | (lo & 0xFFu));
        NEXT(S_FIX);
    }

    /* (zp,X) */
    STATE(S_IZX1)
        RD(c->pc);
        c->pc++;
        c->dl = v;
        NEXT(S_IZX2);
    STATE(S_IZX2)
        RD(c->dl);
        c->dl = (uint8_t)(c->dl + c->x);
        NEXT(S_IZX3);
    STATE(S_IZX3)
        RD(c->dl);
        c->ad = v;
        NEXT(S_IZX4);
    STATE(S_IZX4)
        RD((uint8_t)(c->dl + 1u));
        c->ad = (uint16_t)(c->ad | (v << 8));
        NEXT_DYN(d->access);

    /* (zp),Y */
    STATE(S_IZY1)
        RD(c->pc);
        c->pc++;
        c->dl = v;
        NEXT(S_IZY2);
    STATE(S_IZY2)
        RD(c->dl);
        c->ad = v;
        NEXT(S_IZY3);
    STATE(S_IZY3) {
        RD((uint8_t)(c->dl + 1u));
        unsigned lo = (c->ad & 0xFFu) + c->y;
        c->tmp = (uint8_t)(lo >> 8);
        c->ad = (uint16_t)((v << 8) | (lo & 0xFFu));
        NEXT(S_FIX);
    }

    /* Indexed: read at the address before the carry into the high byte;
     * reads without a page cross end here. */
    STATE(S_FIX)
        RD(c->ad);
        if (d->access == S_READ && !c->tmp) {
            mh_exec_read(c, d->mn, v);
            NEXT(S_FETCH);
        }
        c->dl = (uint8_t)(c->ad >> 8); /* H for SHA/SHX/SHY/TAS */
        if (c->tmp) c->ad = (uint16_t)(c->ad + 0x100u);
        /* bit 1: RDY stalled this read (the cycle is repeated in the same
         * state, so `stalled` still says so) */
        c->tmp = (uint8_t)(c->tmp | (c->stalled << 1));
        NEXT_DYN(d->access);

    /* Access states. */
    STATE(S_READ)
        RD(c->ad);
        mh_exec_read(c, d->mn, v);
        NEXT(S_FETCH);
    STATE(S_WRITE) {
        uint8_t mn = d->mn;
        uint16_t wa = c->ad;
        uint8_t wv = mh_exec_write(c, mn, c->dl);
        if (mh_is_unstable_store(mn)) {
            /* page cross: the high byte is the value the register would
             * store, reg & (H + 1) */
            if (c->tmp & 1u) wa = (uint16_t)((wv << 8) | (wa & 0xFFu));
            /* RDY stalled the read before this write: the stored value
             * loses its "& (H + 1)" (the address keeps it) */
            if (c->tmp & 2u) wv = mh_exec_write(c, mn, 0xFEu);
        }
        WR(wa, wv);
        NEXT(S_FETCH);
    }
    STATE(S_RMW1)
        RD(c->ad);
        c->dl = v;
        NEXT(S_RMW2);
    STATE(S_RMW2)
        WR(c->ad, c->dl);
        c->dl = mh_exec_rmw(c, d->mn, c->dl);
        NEXT(S_RMW3);
    STATE(S_RMW3)
        WR(c->ad, c->dl);
        NEXT(S_FETCH);

    /* Branches. A taken branch without page cross does not sample
     * interrupts in its last cycle. */
    STATE(S_BR1)
        RD(c->pc);
        c->pc++;
        if (!mh_branch_taken(c->ir, c->p)) NEXT(S_FETCH);
        c->dl = v;
        NEXT(S_BR2);
    STATE(S_BR2) {
        RD(c->pc);
        uint16_t target = (uint16_t)(c->pc + c->dl - ((c->dl & 0x80u) << 1));
        if ((target ^ c->pc) & 0xFF00u) {
            c->ad = target;
            NEXT(S_BR3);
        }
        c->pc = target;
        NEXT_NOPOLL(S_FETCH);
    }
    STATE(S_BR3)
        RD((c->pc & 0xFF00u) | (c->ad & 0xFFu));
        c->pc = c->ad;
        NEXT(S_FETCH);

    /* JMP abs / JMP (ind) */
    STATE(S_JMP1)
        RD(c->pc);
        c->pc++;
        c->ad = v;
        NEXT(S_JMP2);
    STATE(S_JMP2)
        RD(c->pc);
        c->ad = (uint16_t)(c->ad | (v << 8));
        if (c->ir == 0x6C) {
            c->pc++;
            NEXT(S_JIND3);
        }
        c->pc = c->ad;
        NEXT(S_FETCH);
    STATE(S_JIND3)
        RD(c->ad);
        c->dl = v;
        NEXT(S_JIND4);
    STATE(S_JIND4) /* the pointer's high byte does not carry */
        RD((c->ad & 0xFF00u) | ((c->ad + 1u) & 0xFFu));
        c->pc = (uint16_t)((v << 8) | c->dl);
        NEXT(S_FETCH);

    /* JSR */
    STATE(S_JSR1)
        RD(c->pc);
        c->pc++;
        c->dl = v;
        NEXT(S_JSR2);
    STATE(S_JSR2)
        RD(STACK(c->s));
        NEXT(S_JSR3);
    STATE(S_JSR3)
        WR(STACK(c->s), c->pc >> 8);
        c->s--;
        NEXT(S_JSR4);
    STATE(S_JSR4)
        WR(STACK(c->s), c->pc & 0xFFu);
        c->s--;
        NEXT(S_JSR5);
    STATE(S_JSR5)
        RD(c->pc);
        c->pc = (uint16_t)((v << 8) | c->dl);
        NEXT(S_FETCH);

    /* RTS */
    STATE(S_RTS1)
        RD(c->pc);
        NEXT(S_RTS2);
    STATE(S_RTS2)
        RD(STACK(c->s));
        c->s++;
        NEXT(S_RTS3);
    STATE(S_RTS3)
        RD(STACK(c->s));
        c->s++;
        c->dl = v;
        NEXT(S_RTS4);
    STATE(S_RTS4)
        RD(STACK(c->s));
        c->pc = (uint16_t)((v << 8) | c->dl);
        NEXT(S_RTS5);
    STATE(S_RTS5)
        RD(c->pc);
        c->pc++;
        NEXT(S_FETCH);

    /* RTI: P is back before the last cycle, so its I counts at once. */
    STATE(S_RTI1)
        RD(c->pc);
        NEXT(S_RTI2);
    STATE(S_RTI2)
        RD(STACK(c->s));
        c->s++;
        NEXT(S_RTI3);
    STATE(S_RTI3)
        RD(STACK(c->s));
        c->s++;
        c->p = (uint8_t)((v | F_U) & ~F_B);
        NEXT(S_RTI4);
    STATE(S_RTI4)
        RD(STACK(c->s));
        c->s++;
        c->dl = v;
        NEXT(S_RTI5);
    STATE(S_RTI5)
        RD(STACK(c->s));
        c->pc = (uint16_t)((v << 8) | c->dl);
        NEXT(S_FETCH);

    /* PHA PHP PLA PLP */
    STATE(S_PUSH1)
        RD(c->pc);
        NEXT(S_PUSH2);
    STATE(S_PUSH2)
        WR(STACK(c->s), c->ir == 0x08 ? (c->p | F_B | F_U) : c->a);
        c->s--;
        NEXT(S_FETCH);
    STATE(S_PULL1)
        RD(c->pc);
        NEXT(S_PULL2);
    STATE(S_PULL2)
        RD(STACK(c->s));
        c->s++;
        NEXT(S_PULL3);
    STATE(S_PULL3)
        RD(STACK(c->s));
        if (c->ir == 0x28) {
            c->p = (uint8_t)((v | F_U) & ~F_B);
        } else {
            c->a = v;
            c->p = mh_nz(c->p, v);
        }
        NEXT(S_FETCH);

    /* BRK, IRQ, NMI: push PC and P, fetch the vector. */
    STATE(S_BRK1)
        RD(c->pc);
        c->pc++;
        c->tmp = INT_BRK;
        NEXT(S_INT2);
    STATE(S_INT1)
        RD(c->pc);
        NEXT(S_INT2);
    STATE(S_INT2)
        WR(STACK(c->s), c->pc >> 8);
        c->s--;
        NEXT(S_INT3);
    STATE(S_INT3)
        WR(STACK(c->s), c->pc & 0xFFu);
        c->s--;
        NEXT(S_INT4);
    STATE(S_INT4) {
        /* An NMI detected by now takes over the vector (hijack). */
        uint8_t pushed = (uint8_t)(c->tmp == INT_BRK ? (c->p | F_B | F_U) : ((c->p | F_U) & ~F_B));
        if (c->nmi_pending) {
            c->nmi_pending = 0;
            c->ad = MH_CPU6502_VECTOR_NMI;
        } else {
            c->ad = MH_CPU6502_VECTOR_IRQ;
        }
        WR(STACK(c->s), pushed);
        c->s--;
        NEXT(S_INT5);
    }
    STATE(S_INT5)
        RD(c->ad);
        c->dl = v;
        c->p |= F_I;
        NEXT(S_INT6);
    STATE(S_INT6) /* no sampling: the handler's first instruction runs */
        RD(c->ad + 1u);
        c->pc = (uint16_t)((v << 8) | c->dl);
        c->poll_prev = c->poll_cur = 0;
        NEXT_NOPOLL(S_FETCH);

    /* Reset: like an interrupt with reads instead of the pushes. */
    STATE(S_RST0)
        RD(c->pc);
        c->ir = 0x00;
        d = &mh_cpu_decode_table[0];
        c->ipc = c->pc;
        c->t = 0;
        NEXT(S_RST1);
    STATE(S_RST1)
        RD(c->pc);
        NEXT(S_RST2);
    STATE(S_RST2)
        RD(STACK(c->s));
        c->s--;
        NEXT(S_RST3);
    STATE(S_RST3)
        RD(STACK(c->s));
        c->s--;
        NEXT(S_RST4);
    STATE(S_RST4)
        RD(STACK(c->s));
        c->s--;
        c->ad = MH_CPU6502_VECTOR_RESET;
        NEXT(S_INT5);

    /* JAM: two more reads of the next byte, then halted on $FFFF. */
    STATE(S_JAM1)
        RD(c->pc);
        NEXT(S_JAM2);
    STATE(S_JAM2)
        RD(c->pc);
        c->pc = c->ipc;
        c->jammed = 1;
        c->state = S_JAMMED;
        c->stop_reason = MH_CPU6502_STOP_JAM;
        c->t++;
        c->cycles++;
        c->stalled = 0;
        goto out;
    STATE(S_JAMMED)
        RD(0xFFFFu);
        NEXT(S_JAMMED);

#if CORE_THREADED
bad_state:
#else
    default:
#endif
        /* not reachable with a valid state; treat as jammed */
        c->jammed = 1;
        NEXT(S_JAMMED);
#if !CORE_THREADED
    }

end_poll: /* end of a cycle: count it, detect an NMI edge, sample interrupts */
    CORE_END_CYCLE(CORE_POLL());
    if (CORE_BUDGET_SPENT()) goto out;
    goto dispatch;
end_no_poll:
    CORE_END_CYCLE((void)0);
    if (CORE_BUDGET_SPENT()) goto out;
    goto dispatch;
#endif
stall: /* RDY low during a read: the cycle is repeated in the same state */
    c->cycles++;
    c->stalled = 1;
    CORE_NMI_EDGE();
    if (CORE_BUDGET_SPENT()) goto out;
#if CORE_THREADED
    goto *labels[c->state];
#else
    goto dispatch;
#endif
out:
#if CORE_LOCAL
    *cpu = local;
#endif
    return (uint32_t)(c->cycles - start);
}
#if CORE_THREADED
#pragma GCC diagnostic pop
#endif

#undef CORE_BUS_READ
#undef CORE_BUS_WRITE
#undef CORE_HOOK_ACCESS
#undef CORE_HOOK_READ
#undef RD
#undef WR
#undef STACK
#undef CORE_NMI_EDGE
#undef CORE_THREADED
#undef CORE_END_CYCLE
#undef CORE_POLL
#undef CORE_BUDGET_SPENT
#undef CORE_RARE
#undef STATE
#undef NEXT
#undef NEXT_NOPOLL
#undef NEXT_DYN
#undef CORE_NAME
#undef CORE_FLAT
#undef CORE_HOOKS
#undef CORE_LOCAL
#undef CORE_READ_FN
#undef CORE_WRITE_FN
#undef CORE_READ_LINK
#undef CORE_WRITE_LINK
