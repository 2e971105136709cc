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
 * One loop iteration is one cycle: one micro-state, one bus access. A
 * state must not change anything before its bus read (a RDY stall repeats
 * the state); RD() jumps to `stall` when RDY is low after the read.
 * The function is:  uint32_t CORE_NAME(mh_cpu6502 *cpu, uint32_t budget)
 */

#if CORE_FLAT
#define CORE_BUS_READ(addr) mem[addr]
#define CORE_BUS_WRITE(addr, val) (mem[addr] = (val))
#elif defined(CORE_READ_FN)
/* A machine's own instance (cpu6502_engine.h): its bus functions called
 * directly, so the compiler can inline them, while the links still name
 * them (a machine may swap its bus during a run, e.g. to halt the CPU). */
#define CORE_BUS_READ(addr)                                                            \
    (c->links.read == CORE_READ_LINK ? CORE_READ_FN(c->links.user, (addr))            \
                                     : c->links.read(c->links.user, (addr)))
#define CORE_BUS_WRITE(addr, val)                                                      \
    (c->links.write == CORE_WRITE_LINK ? CORE_WRITE_FN(c->links.user, (addr), (val))  \
                                       : c->links.write(c->links.user, (addr), (val)))
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
        if (ra_ < 2u && c->port.pins)                                                  \
            v = mh_port_value(c, ra_,                                                  \
                              c->links.port_input ? c->links.port_input(c->links.user) \
                                                  : c->port.input);                    \
        c->bus_data = v;                                                               \
        if (!c->rdy) goto stall;                                                       \
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
        if (wa_ < 2u && c->port.pins) mh_port_store(c, wa_, wv_);                      \
        CORE_BUS_WRITE(wa_, wv_);                                                      \
        CORE_HOOK_ACCESS(wa_, wv_, 1);                                                 \
    } while (0)

#define STACK(sp) ((uint16_t)(0x0100u | (sp)))

/* NMI edge detection at the end of a cycle; nothing to do in the usual
 * case of a line that is and was released. */
#define CORE_NMI_EDGE()                                                                \
    do {                                                                               \
        if (c->nmi | c->nmi_seen) {                                                    \
            uint8_t n_ = c->nmi != 0;                                                  \
            if (n_ && !c->nmi_seen) c->nmi_pending = 1;                                \
            c->nmi_seen = n_;                                                          \
        }                                                                              \
    } while (0)

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

    while (c->cycles - start < budget) {
        uint8_t v;
        switch (c->state) {
        case S_FETCH:
#if CORE_HOOKS
            if (c->stop_request) {
                c->stop_request = 0;
                c->stop_reason = MH_CPU6502_STOP_ACCESS;
                goto out;
            }
#endif
            if (c->poll_prev) { /* interrupt: the fetched opcode is dropped */
                RD(c->pc);
                c->ir = 0x00;
                c->tmp = INT_HW;
                c->ipc = c->pc;
                c->t = 0;
                c->state = S_INT1;
                break;
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
            c->ipc = c->pc;
            c->pc++;
            c->t = 0;
            c->state = mh_cpu_decode_table[v].first;
            break;

        /* Implied, immediate. */
        case S_IMP:
            RD(c->pc);
            mh_exec_implied(c, mh_cpu_decode_table[c->ir].mn);
            c->state = S_FETCH;
            break;
        case S_IMM:
            RD(c->pc);
            c->pc++;
            goto read_op;

        /* Zero page, zero page indexed. */
        case S_ZP1:
            RD(c->pc);
            c->pc++;
            c->ad = v;
            c->state = mh_cpu_decode_table[c->ir].access;
            break;
        case S_ZPX1:
        case S_ZPY1:
            RD(c->pc);
            c->pc++;
            c->ad = v;
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_ZPX2:
            RD(c->ad);
            c->ad = (uint8_t)(c->ad + c->x);
            c->state = mh_cpu_decode_table[c->ir].access;
            break;
        case S_ZPY2:
            RD(c->ad);
            c->ad = (uint8_t)(c->ad + c->y);
            c->state = mh_cpu_decode_table[c->ir].access;
            break;

        /* Absolute, absolute indexed. */
        case S_ABS1:
        case S_ABSX1:
        case S_ABSY1:
        case S_JMP1:
            RD(c->pc);
            c->pc++;
            c->ad = v;
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_ABS2:
            RD(c->pc);
            c->pc++;
            c->ad = (uint16_t)(c->ad | (v << 8));
            c->state = mh_cpu_decode_table[c->ir].access;
            break;
        case S_ABSX2:
        case S_ABSY2: {
            RD(c->pc);
            c->pc++;
            unsigned lo = (c->ad & 0xFFu) + (c->state == S_ABSX2 ? c->x : c->y);
            c->tmp = (uint8_t)(lo >> 8);
            c->ad = (uint16_t)((v << 8) | (lo & 0xFFu));
            c->state = S_FIX;
            break;
        }

        /* (zp,X) */
        case S_IZX1:
        case S_IZY1:
            RD(c->pc);
            c->pc++;
            c->dl = v;
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_IZX2:
            RD(c->dl);
            c->dl = (uint8_t)(c->dl + c->x);
            c->state = S_IZX3;
            break;
        case S_IZX3:
            RD(c->dl);
            c->ad = v;
            c->state = S_IZX4;
            break;
        case S_IZX4:
            RD((uint8_t)(c->dl + 1u));
            c->ad = (uint16_t)(c->ad | (v << 8));
            c->state = mh_cpu_decode_table[c->ir].access;
            break;

        /* (zp),Y */
        case S_IZY2:
            RD(c->dl);
            c->ad = v;
            c->state = S_IZY3;
            break;
        case S_IZY3: {
            RD((uint8_t)(c->dl + 1u));
            unsigned lo = (c->ad & 0xFFu) + c->y;
            c->tmp = (uint8_t)(lo >> 8);
            c->ad = (uint16_t)((v << 8) | (lo & 0xFFu));
            c->state = S_FIX;
            break;
        }

        /* Indexed: read at the address before the carry into the high
         * byte; reads without a page cross end here. */
        case S_FIX: {
            RD(c->ad);
            const mh_cpu_decode *d = &mh_cpu_decode_table[c->ir];
            if (d->access == S_READ && !c->tmp) goto read_op;
            c->dl = (uint8_t)(c->ad >> 8); /* H for SHA/SHX/SHY/TAS */
            if (c->tmp) c->ad = (uint16_t)(c->ad + 0x100u);
            /* bit 1: RDY stalled this read (the cycle is repeated in the
             * same state, so `stalled` still says so) */
            c->tmp = (uint8_t)(c->tmp | (c->stalled << 1));
            c->state = d->access;
            break;
        }

        /* Access states. */
        case S_READ:
            RD(c->ad);
        read_op: /* every read operation ends here: one copy of the ALU */
            mh_exec_read(c, mh_cpu_decode_table[c->ir].mn, v);
            c->state = S_FETCH;
            break;
        case S_WRITE: {
            uint8_t mn = mh_cpu_decode_table[c->ir].mn;
            uint16_t wa = c->ad;
            uint8_t wv = mh_exec_write(c, mn, c->dl);
            if (mh_is_unstable_store(mn)) {
                /* page cross: the high byte is the value the register
                 * would store, reg & (H + 1) */
                if (c->tmp & 1u) wa = (uint16_t)((wv << 8) | (wa & 0xFFu));
                /* RDY stalled the read before this write: the stored value
                 * loses its "& (H + 1)" (the address keeps it) */
                if (c->tmp & 2u) wv = mh_exec_write(c, mn, 0xFEu);
            }
            WR(wa, wv);
            c->state = S_FETCH;
            break;
        }
        case S_RMW1:
            RD(c->ad);
            c->dl = v;
            c->state = S_RMW2;
            break;
        case S_RMW2:
            WR(c->ad, c->dl);
            c->dl = mh_exec_rmw(c, mh_cpu_decode_table[c->ir].mn, c->dl);
            c->state = S_RMW3;
            break;
        case S_RMW3:
            WR(c->ad, c->dl);
            c->state = S_FETCH;
            break;

        /* Branches. A taken branch without page cross does not sample
         * interrupts in its last cycle. */
        case S_BR1:
            RD(c->pc);
            c->pc++;
            if (!mh_branch_taken(c->ir, c->p)) {
                c->state = S_FETCH;
                break;
            }
            c->dl = v;
            c->state = S_BR2;
            break;
        case S_BR2: {
            RD(c->pc);
            uint16_t target = (uint16_t)(c->pc + c->dl - ((c->dl & 0x80u) << 1));
            if ((target ^ c->pc) & 0xFF00u) {
                c->ad = target;
                c->state = S_BR3;
                break;
            }
            c->pc = target;
            c->state = S_FETCH;
            goto cycle_no_poll;
        }
        case S_BR3:
            RD((c->pc & 0xFF00u) | (c->ad & 0xFFu));
            c->pc = c->ad;
            c->state = S_FETCH;
            break;

        /* JMP abs / JMP (ind) (S_JMP1 shares the case with S_ABS1). */
        case S_JMP2:
            RD(c->pc);
            c->ad = (uint16_t)(c->ad | (v << 8));
            if (c->ir == 0x6C) {
                c->pc++;
                c->state = S_JIND3;
            } else {
                c->pc = c->ad;
                c->state = S_FETCH;
            }
            break;
        case S_JIND3:
            RD(c->ad);
            c->dl = v;
            c->state = S_JIND4;
            break;
        case S_JIND4: /* the pointer's high byte does not carry */
            RD((c->ad & 0xFF00u) | ((c->ad + 1u) & 0xFFu));
            c->pc = (uint16_t)((v << 8) | c->dl);
            c->state = S_FETCH;
            break;

        /* JSR */
        case S_JSR1:
            RD(c->pc);
            c->pc++;
            c->dl = v;
            c->state = S_JSR2;
            break;
        case S_JSR2:
            RD(STACK(c->s));
            c->state = S_JSR3;
            break;
        case S_JSR3:
            WR(STACK(c->s), c->pc >> 8);
            c->s--;
            c->state = S_JSR4;
            break;
        case S_JSR4:
            WR(STACK(c->s), c->pc & 0xFFu);
            c->s--;
            c->state = S_JSR5;
            break;
        case S_JSR5:
            RD(c->pc);
            c->pc = (uint16_t)((v << 8) | c->dl);
            c->state = S_FETCH;
            break;

        /* RTS */
        case S_RTS1:
        case S_RTI1:
        case S_PUSH1:
        case S_PULL1:
            RD(c->pc);
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_RTS2:
        case S_RTI2:
        case S_PULL2:
            RD(STACK(c->s));
            c->s++;
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_RTS3:
            RD(STACK(c->s));
            c->s++;
            c->dl = v;
            c->state = S_RTS4;
            break;
        case S_RTS4:
            RD(STACK(c->s));
            c->pc = (uint16_t)((v << 8) | c->dl);
            c->state = S_RTS5;
            break;
        case S_RTS5:
            RD(c->pc);
            c->pc++;
            c->state = S_FETCH;
            break;

        /* RTI: P is back before the last cycle, so its I counts at once. */
        case S_RTI3:
            RD(STACK(c->s));
            c->s++;
            c->p = (uint8_t)((v | F_U) & ~F_B);
            c->state = S_RTI4;
            break;
        case S_RTI4:
            RD(STACK(c->s));
            c->s++;
            c->dl = v;
            c->state = S_RTI5;
            break;
        case S_RTI5:
            RD(STACK(c->s));
            c->pc = (uint16_t)((v << 8) | c->dl);
            c->state = S_FETCH;
            break;

        /* PHA PHP PLA PLP */
        case S_PUSH2:
            WR(STACK(c->s), c->ir == 0x08 ? (c->p | F_B | F_U) : c->a);
            c->s--;
            c->state = S_FETCH;
            break;
        case S_PULL3:
            RD(STACK(c->s));
            if (c->ir == 0x28) {
                c->p = (uint8_t)((v | F_U) & ~F_B);
            } else {
                c->a = v;
                c->p = mh_nz(c->p, v);
            }
            c->state = S_FETCH;
            break;

        /* BRK, IRQ, NMI: push PC and P, fetch the vector. */
        case S_BRK1:
            RD(c->pc);
            c->pc++;
            c->tmp = INT_BRK;
            c->state = S_INT2;
            break;
        case S_INT1:
            RD(c->pc);
            c->state = S_INT2;
            break;
        case S_INT2:
            WR(STACK(c->s), c->pc >> 8);
            c->s--;
            c->state = S_INT3;
            break;
        case S_INT3:
            WR(STACK(c->s), c->pc & 0xFFu);
            c->s--;
            c->state = S_INT4;
            break;
        case S_INT4: {
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
            c->state = S_INT5;
            break;
        }
        case S_INT5:
            RD(c->ad);
            c->dl = v;
            c->p |= F_I;
            c->state = S_INT6;
            break;
        case S_INT6: /* no sampling: the handler's first instruction runs */
            RD(c->ad + 1u);
            c->pc = (uint16_t)((v << 8) | c->dl);
            c->state = S_FETCH;
            c->poll_prev = c->poll_cur = 0;
            goto cycle_no_poll;

        /* Reset: like an interrupt with reads instead of the pushes. */
        case S_RST0:
            RD(c->pc);
            c->ir = 0x00;
            c->ipc = c->pc;
            c->t = 0;
            c->state = S_RST1;
            break;
        case S_RST1:
            RD(c->pc);
            c->state = S_RST2;
            break;
        case S_RST2:
        case S_RST3:
            RD(STACK(c->s));
            c->s--;
            c->state = (uint8_t)(c->state + 1);
            break;
        case S_RST4:
            RD(STACK(c->s));
            c->s--;
            c->ad = MH_CPU6502_VECTOR_RESET;
            c->state = S_INT5;
            break;

        /* JAM: two more reads of the next byte, then halted on $FFFF. */
        case S_JAM1:
            RD(c->pc);
            c->state = S_JAM2;
            break;
        case S_JAM2:
            RD(c->pc);
            c->pc = c->ipc;
            c->jammed = 1;
            c->state = S_JAMMED;
            c->stop_reason = MH_CPU6502_STOP_JAM;
            c->t++;
            c->cycles++;
            c->stalled = 0;
            goto out;
        case S_JAMMED:
            RD(0xFFFFu);
            break;

        default: /* not reachable with a valid state; treat as jammed */
            c->jammed = 1;
            c->state = S_JAMMED;
            break;
        }

        /* End of a cycle: count it, detect an NMI edge, sample interrupts. */
        {
            c->t++;
            c->cycles++;
            c->stalled = 0;
            CORE_NMI_EDGE();
            c->poll_prev = c->poll_cur;
            uint8_t poll = c->nmi_pending;
            if (c->irq && !(c->p & F_I)) poll = 1;
            c->poll_cur = poll;
            continue;
        }
    cycle_no_poll: {
            c->t++;
            c->cycles++;
            c->stalled = 0;
            CORE_NMI_EDGE();
            continue;
        }
    stall: { /* RDY low during a read: the cycle is repeated */
            c->cycles++;
            c->stalled = 1;
            CORE_NMI_EDGE();
            continue;
        }
    }
out:
#if CORE_LOCAL
    *cpu = local;
#endif
    return (uint32_t)(c->cycles - start);
}

#undef CORE_BUS_READ
#undef CORE_BUS_WRITE
#undef CORE_HOOK_ACCESS
#undef CORE_HOOK_READ
#undef RD
#undef WR
#undef STACK
#undef CORE_NMI_EDGE
#undef CORE_NAME
#undef CORE_FLAT
#undef CORE_HOOKS
#undef CORE_LOCAL
#undef CORE_READ_FN
#undef CORE_WRITE_FN
#undef CORE_READ_LINK
#undef CORE_WRITE_LINK
