/* cpu6502.irq, cpu6502.nmi, cpu6502.rdy: interrupt and RDY timing written
 * from the datasheet behaviour of the NMOS 6502:
 *   - IRQ and NMI are acted on when sampled at the end of an instruction's
 *     second-to-last cycle (a line that rises in the last cycle waits for
 *     the next instruction);
 *   - a taken branch without page cross samples only in its first cycle, so
 *     it delays an interrupt by one instruction; with a page cross it
 *     samples normally;
 *   - CLI, SEI and PLP change I in their last cycle (one instruction of
 *     latency); RTI restores P before its last cycles (no latency);
 *   - NMI is edge-triggered: holding it low gives one NMI; a one-cycle pulse
 *     is not lost;
 *   - an NMI detected in the first four cycles of BRK or of an IRQ sequence
 *     takes over its vector; later, the handler's first instruction runs
 *     before the NMI;
 *   - RDY low stalls read cycles (the read is repeated), never writes.
 * The machine changes lines between ticks: a line set before the tick of
 * cycle k is sampled at the end of cycle k (cycles counted from 0). */
#include <stdio.h>
#include <string.h>

#include "mcphost/asm6502.h"
#include "mcphost/cpu6502.h"
#include "mh_test.h"

#define TRACE_MAX 4096

typedef struct access {
    uint16_t addr;
    uint8_t value;
    uint8_t write;
} access;

typedef struct machine {
    uint8_t mem[65536];
    access trace[TRACE_MAX];
    int count;
    int hook_count;
    mh_cpu6502 cpu;
} machine;

static uint8_t m_read(void *user, uint16_t addr)
{
    machine *m = user;
    if (m->count < TRACE_MAX) m->trace[m->count++] = (access){addr, m->mem[addr], 0};
    return m->mem[addr];
}

static void m_write(void *user, uint16_t addr, uint8_t value)
{
    machine *m = user;
    if (m->count < TRACE_MAX) m->trace[m->count++] = (access){addr, value, 1};
    m->mem[addr] = value;
}

static int count_hook(void *user, uint16_t addr, uint8_t value, int write)
{
    (void)addr;
    (void)value;
    (void)write;
    ((machine *)user)->hook_count++;
    return 0;
}

static void load(machine *m, const char *source)
{
    mh_asm6502_result r;
    mh_status st = mh_asm6502_assemble(source, strlen(source), NULL, &r);
    if (st != MH_OK) fprintf(stderr, "\n  test program: %s\n", r.error);
    CU_ASSERT_EQUAL_FATAL(st, MH_OK);
    mh_asm6502_to_image(&r, m->mem, NULL);
    mh_asm6502_result_free(&r);
}

/* IRQ handler at $9000, NMI handler at $A000 (both spin on NOPs), stack
 * pointer $FD, I as given, at an instruction boundary at pc. */
static machine *new_machine(const char *program, uint16_t pc, int irq_disabled)
{
    static machine m;
    memset(&m, 0, sizeof m);
    load(&m, "*= $9000\nirq: NOP\n NOP\n NOP\n JMP irq\n"
             "*= $A000\nnmi: NOP\n NOP\n NOP\n JMP nmi\n"
             "*= $FFFA\n .word nmi, $0000, irq\n");
    load(&m, program);
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.read = m_read;
    desc.write = m_write;
    desc.user = &m;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&m.cpu, &desc), MH_OK);
    m.cpu.state = MH_CPU6502_STATE_FETCH; /* skip the reset sequence */
    m.cpu.pc = pc;
    m.cpu.s = 0xFD;
    m.cpu.p = (uint8_t)(MH_CPU6502_FLAG_U | (irq_disabled ? MH_CPU6502_FLAG_I : 0));
    m.cpu.cycles = 0;
    return &m;
}

enum line { IRQ, NMI, RDY };

typedef struct event {
    uint64_t cycle;
    enum line line;
    uint32_t level;
} event;

/* Ticks `cycles` cycles, applying each event before the tick of its cycle. */
static void run(machine *m, uint64_t cycles, const event *events, int count)
{
    for (uint64_t k = 0; k < cycles; k++) {
        for (int i = 0; i < count; i++) {
            if (events[i].cycle != m->cpu.cycles) continue;
            if (events[i].line == IRQ) m->cpu.irq = events[i].level;
            else if (events[i].line == NMI) m->cpu.nmi = events[i].level;
            else m->cpu.rdy = (uint8_t)events[i].level;
        }
        mh_cpu6502_tick(&m->cpu);
    }
}

/* Index of the n-th read of addr in the trace (n from 0), -1 if none. */
static int find_read(const machine *m, uint16_t addr, int n)
{
    for (int i = 0; i < m->count; i++)
        if (!m->trace[i].write && m->trace[i].addr == addr && n-- == 0) return i;
    return -1;
}

static int count_reads(const machine *m, uint16_t addr)
{
    int n = 0;
    for (int i = 0; i < m->count; i++) n += !m->trace[i].write && m->trace[i].addr == addr;
    return n;
}

/* The return address the first interrupt pushed (stack was at $FD). */
static unsigned pushed_pc(const machine *m)
{
    return (unsigned)(m->mem[0x01FD] << 8 | m->mem[0x01FC]);
}

static unsigned pushed_p(const machine *m)
{
    return m->mem[0x01FB];
}

/* --- IRQ ----------------------------------------------------------------- */

static const char nops[] = "*= $1000\n NOP\n NOP\n NOP\n NOP\n NOP\n";

static void test_irq_sequence_bus_trace(void)
{
    machine *m = new_machine(nops, 0x1000, 0);
    event ev[] = {{0, IRQ, 1}};
    run(m, 9, ev, 1);
    /* NOP (2 cycles), then the 7-cycle interrupt sequence */
    static const access want[] = {
        {0x1000, 0xEA, 0}, {0x1001, 0xEA, 0},                    /* NOP */
        {0x1001, 0xEA, 0}, {0x1001, 0xEA, 0},                    /* opcode dropped, dummy */
        {0x01FD, 0x10, 1}, {0x01FC, 0x01, 1}, {0x01FB, 0x20, 1}, /* PCH PCL P (B clear) */
        {0xFFFE, 0x00, 0}, {0xFFFF, 0x90, 0},                    /* vector */
    };
    CU_ASSERT_EQUAL_FATAL(m->count, 9);
    for (int i = 0; i < 9; i++) {
        CU_ASSERT_EQUAL(m->trace[i].addr, want[i].addr);
        CU_ASSERT_EQUAL(m->trace[i].value, want[i].value);
        CU_ASSERT_EQUAL(m->trace[i].write, want[i].write);
    }
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    CU_ASSERT(m->cpu.p & MH_CPU6502_FLAG_I);
    CU_ASSERT_EQUAL(m->cpu.s, 0xFA);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
}

static void test_irq_sampled_at_second_to_last_cycle(void)
{
    /* Raised by the end of the first NOP's first cycle: after that NOP. */
    machine *m = new_machine(nops, 0x1000, 0);
    event at0[] = {{0, IRQ, 1}};
    run(m, 12, at0, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1001);
    /* Raised in the NOP's last cycle: one more NOP runs first. */
    m = new_machine(nops, 0x1000, 0);
    event at1[] = {{1, IRQ, 1}};
    run(m, 12, at1, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
    CU_ASSERT_EQUAL(find_read(m, 0xFFFE, 0), 2 + 2 + 5);
    /* Level-sensitive: released before it was sampled, nothing happens. */
    m = new_machine(nops, 0x1000, 0);
    event pulse[] = {{1, IRQ, 1}, {2, IRQ, 0}};
    run(m, 10, pulse, 2);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFE), 0);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x1005);
    /* Masked by I. */
    m = new_machine(nops, 0x1000, 1);
    run(m, 10, at0, 1);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFE), 0);
}

static void test_irq_taken_branch_delay(void)
{
    /* BNE taken without page cross (3 cycles) ignores an IRQ that arrives
     * in its second cycle: the next instruction runs first. */
    machine *m = new_machine("*= $1000\n BNE next\nnext: NOP\n NOP\n NOP\n", 0x1000, 0);
    event at1[] = {{1, IRQ, 1}};
    run(m, 3 + 2 + 7, at1, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1003);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    /* The same arrival during a 3-cycle LDA zp is taken right after it. */
    m = new_machine("*= $1000\n LDA $12\n NOP\n NOP\n", 0x1000, 0);
    run(m, 3 + 7, at1, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    /* Raised in the branch's first cycle: taken right after the branch. */
    m = new_machine("*= $1000\n BNE next\nnext: NOP\n NOP\n NOP\n", 0x1000, 0);
    event at0[] = {{0, IRQ, 1}};
    run(m, 3 + 7, at0, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
    /* A taken branch with a page cross (4 cycles) samples in its third. */
    m = new_machine("*= $10F0\n BNE next\n*= $1102\nnext: NOP\n NOP\n", 0x10F0, 0);
    event at2[] = {{2, IRQ, 1}};
    run(m, 4 + 7, at2, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1102);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    /* A branch not taken (2 cycles) behaves like any 2-cycle instruction. */
    m = new_machine("*= $1000\n BEQ next\nnext: NOP\n NOP\n", 0x1000, 0);
    run(m, 2 + 7, at0, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
}

static void test_cli_sei_plp_rti_latency(void)
{
    /* CLI: the IRQ (pending all along) waits for one more instruction. */
    machine *m = new_machine("*= $1000\n CLI\n NOP\n NOP\n NOP\n", 0x1000, 1);
    event on[] = {{0, IRQ, 1}};
    run(m, 2 + 2 + 7, on, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    /* SEI: sampled before I is set, so the IRQ is taken right after SEI,
     * and the pushed P already has I set. */
    m = new_machine("*= $1000\n SEI\n NOP\n NOP\n", 0x1000, 0);
    run(m, 2 + 7, on, 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1001);
    CU_ASSERT_EQUAL(pushed_p(m), 0x24);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    /* PLP clearing I: one instruction of latency, like CLI. */
    m = new_machine("*= $1000\n PLP\n NOP\n NOP\n NOP\n", 0x1000, 1);
    m->mem[0x01FE] = 0x20; /* P to pull: I clear */
    m->cpu.s = 0xFD;
    run(m, 4 + 2 + 7, on, 1);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    CU_ASSERT_EQUAL(m->mem[0x01FE] << 8 | m->mem[0x01FD], 0x1002);
    /* RTI restoring I clear: the IRQ is taken before the instruction at
     * the return address. */
    m = new_machine("*= $1000\n RTI\n*= $2000\n NOP\n NOP\n", 0x1000, 1);
    m->cpu.s = 0xFA;
    m->mem[0x01FB] = 0x20; /* P */
    m->mem[0x01FC] = 0x00; /* PCL */
    m->mem[0x01FD] = 0x20; /* PCH */
    run(m, 6 + 7, on, 1);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x2000);
}

static void test_brk_sequence(void)
{
    machine *m = new_machine("*= $1000\n BRK\n .byte $42\n", 0x1000, 0);
    run(m, 7, NULL, 0);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002); /* BRK skips its signature byte */
    CU_ASSERT_EQUAL(pushed_p(m), 0x30);    /* B set */
    CU_ASSERT(m->cpu.p & MH_CPU6502_FLAG_I);
    CU_ASSERT_EQUAL(m->trace[1].addr, 0x1001);
}

/* --- NMI ----------------------------------------------------------------- */

static void test_nmi_edge(void)
{
    /* Held low: exactly one NMI, even with I set. */
    machine *m = new_machine(nops, 0x1000, 1);
    event held[] = {{0, NMI, 1}};
    run(m, 200, held, 1);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1001);
    /* Released and asserted again: a second one. */
    m = new_machine(nops, 0x1000, 1);
    event twice[] = {{0, NMI, 1}, {50, NMI, 0}, {60, NMI, 1}};
    run(m, 200, twice, 3);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 2);
    /* A one-cycle pulse is latched and not lost. */
    m = new_machine(nops, 0x1000, 1);
    event pulse[] = {{1, NMI, 1}, {2, NMI, 0}};
    run(m, 20, pulse, 2);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
    /* Several sources share the line: a second source asserting while the
     * first holds it is no new edge. */
    m = new_machine(nops, 0x1000, 1);
    event sources[] = {{0, NMI, 1}, {30, NMI, 3}, {40, NMI, 2}};
    run(m, 100, sources, 3);
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 1);
}

static void test_nmi_hijacks_brk(void)
{
    for (uint64_t k = 0; k < 7; k++) {
        machine *m = new_machine("*= $1000\n BRK\n .byte 0\n", 0x1000, 0);
        event ev[] = {{k, NMI, 1}};
        run(m, 7 + 2 + 7, ev, 1);
        if (k <= 3) {
            /* detected within BRK's first four cycles: NMI vector, B set */
            CU_ASSERT_EQUAL(find_read(m, 0xFFFA, 0), 5);
            CU_ASSERT_EQUAL(count_reads(m, 0xFFFE), 0);
            CU_ASSERT_EQUAL(pushed_p(m), 0x30);
            CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 1);
        } else {
            /* too late: BRK completes, the handler's first instruction
             * runs, then the NMI */
            CU_ASSERT_EQUAL(find_read(m, 0xFFFE, 0), 5);
            CU_ASSERT_EQUAL(find_read(m, 0x9000, 0), 7);
            CU_ASSERT_EQUAL(find_read(m, 0xFFFA, 0), 7 + 2 + 5);
        }
    }
}

static void test_nmi_hijacks_irq(void)
{
    /* IRQ sequence runs in cycles 2..8 (after the first NOP). */
    for (uint64_t k = 2; k < 9; k++) {
        machine *m = new_machine(nops, 0x1000, 0);
        event ev[] = {{0, IRQ, 1}, {k, NMI, 1}};
        run(m, 2 + 7, ev, 2);
        if (k <= 5) {
            CU_ASSERT_EQUAL(find_read(m, 0xFFFA, 0), 7);
            CU_ASSERT_EQUAL(pushed_p(m), 0x20); /* B clear: a hardware interrupt */
            CU_ASSERT_EQUAL(m->cpu.pc, 0xA000);
        } else {
            CU_ASSERT_EQUAL(find_read(m, 0xFFFE, 0), 7);
            CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
            CU_ASSERT_EQUAL(m->cpu.nmi_pending, 1); /* still to come */
        }
    }
}

/* --- RDY ----------------------------------------------------------------- */

static void test_rdy_stalls_reads(void)
{
    machine *m = new_machine("*= $1000\n LDA $1234\n NOP\n", 0x1000, 1);
    m->mem[0x1234] = 0x5A;
    event ev[] = {{3, RDY, 0}, {6, RDY, 1}};
    mh_cpu6502_set_hooks(&m->cpu, NULL, count_hook, m);
    run(m, 7, ev, 2);
    /* cycle 3 reads $1234 and is repeated while RDY is low (3..5), the read
     * in cycle 6 counts */
    CU_ASSERT_EQUAL(m->count, 7);
    for (int i = 3; i < 7; i++) {
        CU_ASSERT_EQUAL(m->trace[i].addr, 0x1234);
        CU_ASSERT_EQUAL(m->trace[i].write, 0);
    }
    CU_ASSERT_EQUAL(m->cpu.a, 0x5A);
    CU_ASSERT_EQUAL(m->cpu.cycles, 7);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
    CU_ASSERT_EQUAL(m->hook_count, 4); /* stalled repeats are not accesses */
    /* dummy reads stall too: INX's second cycle */
    m = new_machine("*= $1000\n INX\n NOP\n", 0x1000, 1);
    event ev2[] = {{1, RDY, 0}, {3, RDY, 1}};
    run(m, 4, ev2, 2);
    CU_ASSERT_EQUAL(m->trace[1].addr, 0x1001);
    CU_ASSERT_EQUAL(m->trace[2].addr, 0x1001);
    CU_ASSERT_EQUAL(m->trace[3].addr, 0x1001);
    CU_ASSERT_EQUAL(m->cpu.x, 1);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
}

static void test_rdy_lets_writes_through(void)
{
    /* INC zp: read, dummy write, write. RDY low from the first write: both
     * writes happen, the next opcode fetch stalls. */
    machine *m = new_machine("*= $1000\n INC $12\n NOP\n", 0x1000, 1);
    m->mem[0x12] = 0x41;
    event ev[] = {{3, RDY, 0}, {8, RDY, 1}};
    run(m, 9, ev, 2);
    static const access want[] = {
        {0x1000, 0xE6, 0}, {0x1001, 0x12, 0}, {0x0012, 0x41, 0}, {0x0012, 0x41, 1},
        {0x0012, 0x42, 1}, {0x1002, 0xEA, 0}, {0x1002, 0xEA, 0}, {0x1002, 0xEA, 0},
        {0x1002, 0xEA, 0},
    };
    CU_ASSERT_EQUAL_FATAL(m->count, 9);
    for (int i = 0; i < 9; i++) {
        CU_ASSERT_EQUAL(m->trace[i].addr, want[i].addr);
        CU_ASSERT_EQUAL(m->trace[i].value, want[i].value);
        CU_ASSERT_EQUAL(m->trace[i].write, want[i].write);
    }
    CU_ASSERT_EQUAL(m->cpu.pc, 0x1003); /* the NOP was fetched in cycle 8 */
    /* BRK's three pushes go through a RDY that fell at the first of them */
    m = new_machine("*= $1000\n BRK\n .byte 0\n", 0x1000, 1);
    event ev2[] = {{2, RDY, 0}, {10, RDY, 1}};
    run(m, 12, ev2, 2);
    CU_ASSERT(m->trace[2].write && m->trace[3].write && m->trace[4].write);
    CU_ASSERT_EQUAL(m->trace[5].addr, 0xFFFE);
    CU_ASSERT_EQUAL(find_read(m, 0xFFFF, 0), 11);
    CU_ASSERT_EQUAL(m->cpu.pc, 0x9000);
}

static void test_rdy_does_not_lose_nmi(void)
{
    machine *m = new_machine(nops, 0x1000, 1);
    event ev[] = {{1, RDY, 0}, {2, NMI, 1}, {3, NMI, 0}, {6, RDY, 1}};
    run(m, 20, ev, 4);
    /* the edge came while the NOP's last cycle was stalled: latched, and
     * taken after the next instruction */
    CU_ASSERT_EQUAL(count_reads(m, 0xFFFA), 1);
    CU_ASSERT_EQUAL(pushed_pc(m), 0x1002);
}

/* The write of SHA abs,Y ($9F) with A = X = $12, Y = y, base $10F0, with
 * RDY low over cycles [rdy_lo, rdy_hi): returns the value, sets *addr. */
static uint8_t sha_write(uint8_t y, uint64_t rdy_lo, uint64_t rdy_hi, uint16_t *addr)
{
    machine *m = new_machine("*= $1000\n SHA $10F0,Y\n NOP\n", 0x1000, 1);
    m->cpu.a = m->cpu.x = 0x12;
    m->cpu.y = y;
    event ev[] = {{rdy_lo, RDY, 0}, {rdy_hi, RDY, 1}};
    run(m, 5 + (rdy_hi - rdy_lo), ev, rdy_hi > rdy_lo ? 2 : 0);
    for (int i = 0; i < m->count; i++)
        if (m->trace[i].write) {
            *addr = m->trace[i].addr;
            return m->trace[i].value;
        }
    *addr = 0;
    return 0;
}

/* SHA/SHX/SHY/TAS store reg & (H + 1); a RDY stall of the read just before
 * the write (the VIC-II's DMA) drops the "& (H + 1)", a stall earlier does
 * not; a page cross makes reg & (H + 1) the address's high byte, stalled
 * or not (VICE testprogs CPU/sha, CPU/shxy, verified on 6510 and 8500). */
static void test_rdy_drops_sha_high_byte_term(void)
{
    uint16_t addr;
    CU_ASSERT_EQUAL(sha_write(0x05, 0, 0, &addr), 0x10); /* $12 & $11 */
    CU_ASSERT_EQUAL(addr, 0x10F5);
    CU_ASSERT_EQUAL(sha_write(0x05, 3, 5, &addr), 0x12); /* fix-up read stalled */
    CU_ASSERT_EQUAL(addr, 0x10F5);
    CU_ASSERT_EQUAL(sha_write(0x05, 2, 4, &addr), 0x10); /* operand read stalled */
    CU_ASSERT_EQUAL(addr, 0x10F5);
    CU_ASSERT_EQUAL(sha_write(0x20, 0, 0, &addr), 0x10); /* page cross */
    CU_ASSERT_EQUAL(addr, 0x1010);
    CU_ASSERT_EQUAL(sha_write(0x20, 3, 6, &addr), 0x12);
    CU_ASSERT_EQUAL(addr, 0x1010);
}

/* ANE #$FF with A = 0, X = $FF: the magic constant itself. */
static uint8_t ane_constant(uint8_t model, int stall_operand)
{
    machine *m = new_machine("*= $1000\n .byte $8B, $FF\n NOP\n", 0x1000, 1);
    m->cpu.model = model;
    m->cpu.a = 0;
    m->cpu.x = 0xFF;
    event ev[] = {{1, RDY, 0}, {3, RDY, 1}};
    run(m, stall_operand ? 4 : 2, ev, stall_operand ? 2 : 0);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
    return m->cpu.a;
}

/* The 6510's ANE constant is $EF, $EE when RDY stalled the operand read
 * (VICE testprogs CPU/ane); the NMOS 6502's stays $EE (Harte's vectors). */
static void test_ane_magic_constant(void)
{
    CU_ASSERT_EQUAL(ane_constant(MH_CPU6502_MODEL_6510, 0), 0xEF);
    CU_ASSERT_EQUAL(ane_constant(MH_CPU6502_MODEL_6510, 1), 0xEE);
    CU_ASSERT_EQUAL(ane_constant(MH_CPU6502_MODEL_6502, 0), 0xEE);
    CU_ASSERT_EQUAL(ane_constant(MH_CPU6502_MODEL_6502, 1), 0xEE);
}

/* A snapshot loader's check: the core's own states are valid, a jam state
 * with the flag cleared (a hostile blob: the CPU would never reach a
 * boundary) or an unknown state is not. */
static void test_state_valid(void)
{
    machine *m = new_machine("*= $0200\n JAM\n", 0x0200, 1);
    CU_ASSERT_TRUE(mh_cpu6502_state_valid(&m->cpu));
    mh_cpu6502_run(&m->cpu, 2); /* mid-instruction */
    CU_ASSERT_FALSE(mh_cpu6502_at_boundary(&m->cpu));
    CU_ASSERT_TRUE(mh_cpu6502_state_valid(&m->cpu));
    mh_cpu6502_run(&m->cpu, 20);
    CU_ASSERT_TRUE(m->cpu.jammed);
    CU_ASSERT_TRUE(mh_cpu6502_state_valid(&m->cpu));
    mh_cpu6502 bad = m->cpu;
    bad.jammed = 0;
    CU_ASSERT_FALSE(mh_cpu6502_state_valid(&bad));
    bad = m->cpu;
    bad.state = 0xFF;
    CU_ASSERT_FALSE(mh_cpu6502_state_valid(&bad));
    CU_ASSERT_FALSE(mh_cpu6502_state_valid(NULL));
}

MH_SUITE("cpu6502.state", NULL, NULL, MH_TEST(test_state_valid))
MH_SUITE("cpu6502.irq", NULL, NULL, MH_TEST(test_irq_sequence_bus_trace),
         MH_TEST(test_irq_sampled_at_second_to_last_cycle), MH_TEST(test_irq_taken_branch_delay),
         MH_TEST(test_cli_sei_plp_rti_latency), MH_TEST(test_brk_sequence))
MH_SUITE("cpu6502.nmi", NULL, NULL, MH_TEST(test_nmi_edge), MH_TEST(test_nmi_hijacks_brk),
         MH_TEST(test_nmi_hijacks_irq))
MH_SUITE("cpu6502.rdy", NULL, NULL, MH_TEST(test_rdy_stalls_reads),
         MH_TEST(test_rdy_lets_writes_through), MH_TEST(test_rdy_does_not_lose_nmi),
         MH_TEST(test_rdy_drops_sha_high_byte_term), MH_TEST(test_ane_magic_constant))
