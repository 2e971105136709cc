/* cpu6502.paths: the fast path (flat memory, mh_cpu6502_run) and the
 * per-cycle path (bus callbacks, mh_cpu6502_tick) leave the same state
 * after the same cycles, on a program with decimal mode, undocumented
 * opcodes, subroutines and IRQ/NMI/RDY changes between slices.
 * cpu6502.hooks: sync-hook breakpoints, access-hook watchpoints, step.
 * cpu6502.lifecycle: init checks, the reset sequence, JAM, snapshots. */
#include <stdio.h>
#include <string.h>

#include "mcphost/asm6502.h"
#include "mcphost/cpu6502.h"
#include "mh_test.h"

static uint8_t bus_read(void *user, uint16_t addr)
{
    return ((uint8_t *)user)[addr];
}

static void bus_write(void *user, uint16_t addr, uint8_t value)
{
    ((uint8_t *)user)[addr] = value;
}

static void load(uint8_t *mem, const char *source)
{
    mh_asm6502_result r;
    mh_status st = mh_asm6502_assemble(source, strlen(source), NULL, &r);
    if (st != MH_OK) fprintf(stderr, "\n  test program: %s\n", r.error);
    CU_ASSERT_EQUAL_FATAL(st, MH_OK);
    mh_asm6502_to_image(&r, mem, NULL);
    mh_asm6502_result_free(&r);
}

static const char workload[] =
    "*= $0800\n"
    "start:  LDX #$FF\n"
    "        TXS\n"
    "        CLI\n"
    "main:   SED\n"
    "        CLC\n"
    "        LDA $10\n"
    "        ADC #$19\n"
    "        STA $10\n"
    "        SBC #$07\n"
    "        STA $11\n"
    "        CLD\n"
    "        LAX $10\n"
    "        DCP $12\n"
    "        ISC $13\n"
    "        SLO $14,X\n"
    "        RRA $2000,Y\n"
    "        ARR #$5A\n"
    "        SBX #$03\n"
    "        SHA $20F0,Y\n"
    "        LDA ($30),Y\n"
    "        STA ($32,X)\n"
    "        INY\n"
    "        INC $15\n"
    "        BNE main\n"
    "        INC $16\n"
    "        JSR sub\n"
    "        JMP main\n"
    "sub:    PHA\n"
    "        TXA\n"
    "        PHA\n"
    "        PLA\n"
    "        TAX\n"
    "        PLA\n"
    "        PHP\n"
    "        PLP\n"
    "        RTS\n"
    "irq:    INC $20\n"
    "        PHA\n"
    "        LDA $21\n"
    "        ADC #1\n"
    "        STA $21\n"
    "        PLA\n"
    "        RTI\n"
    "nmi:    INC $22\n"
    "        RTI\n"
    "*= $FFFA\n"
    "        .word nmi, start, irq\n";

enum path { PATH_TICK_BUS, PATH_RUN_BUS, PATH_RUN_FLAT, PATH_TICK_FLAT, PATH_RUN_FLAT_HOOKS, PATH_RUN_BUS_HOOKS, PATH_COUNT };

typedef struct runner {
    mh_cpu6502 cpu;
    uint8_t mem[65536];
    enum path path;
    uint64_t hook_calls;
} runner;

static int sync_count(void *user, uint16_t pc)
{
    (void)pc;
    ((runner *)user)->hook_calls++;
    return 0;
}

static int access_count(void *user, uint16_t addr, uint8_t value, int write)
{
    (void)addr;
    (void)value;
    (void)write;
    ((runner *)user)->hook_calls++;
    return 0;
}

static void runner_init(runner *r, enum path path, const uint8_t *image)
{
    memcpy(r->mem, image, sizeof r->mem);
    r->path = path;
    r->hook_calls = 0;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = MH_CPU6502_MODEL_6510;
    if (path == PATH_RUN_FLAT || path == PATH_TICK_FLAT || path == PATH_RUN_FLAT_HOOKS) {
        desc.memory = r->mem;
    } else {
        desc.read = bus_read;
        desc.write = bus_write;
        desc.user = r->mem;
    }
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&r->cpu, &desc), MH_OK);
    if (path == PATH_RUN_FLAT_HOOKS || path == PATH_RUN_BUS_HOOKS)
        mh_cpu6502_set_hooks(&r->cpu, sync_count, access_count, r);
}

static void runner_slice(runner *r, uint32_t cycles)
{
    uint32_t ran = 0;
    if (r->path == PATH_TICK_BUS || r->path == PATH_TICK_FLAT) {
        for (uint32_t i = 0; i < cycles; i++) ran += mh_cpu6502_tick(&r->cpu);
    } else {
        ran = mh_cpu6502_run(&r->cpu, cycles);
    }
    CU_ASSERT_EQUAL(ran, cycles);
}

/* Every field except the links. */
static int same_state(const mh_cpu6502 *a, const mh_cpu6502 *b)
{
    return a->pc == b->pc && a->a == b->a && a->x == b->x && a->y == b->y && a->s == b->s &&
           a->p == b->p && a->model == b->model && a->ir == b->ir && a->state == b->state &&
           a->t == b->t && a->jammed == b->jammed && a->ipc == b->ipc && a->ad == b->ad &&
           a->dl == b->dl && a->tmp == b->tmp && a->stalled == b->stalled &&
           a->cycles == b->cycles && a->irq == b->irq && a->nmi == b->nmi && a->rdy == b->rdy &&
           a->nmi_seen == b->nmi_seen && a->nmi_pending == b->nmi_pending &&
           a->poll_prev == b->poll_prev && a->poll_cur == b->poll_cur &&
           a->bus_write == b->bus_write && a->bus_data == b->bus_data &&
           a->bus_addr == b->bus_addr && a->port.ddr == b->port.ddr &&
           a->port.data == b->port.data && a->port.input == b->port.input &&
           a->port.pins == b->port.pins;
}

static void test_fast_path_equals_per_cycle(void)
{
    static uint8_t image[65536];
    memset(image, 0, sizeof image);
    load(image, workload);
    image[0x30] = 0x00; /* ($30),Y -> $4000+Y */
    image[0x31] = 0x40;
    image[0x32] = 0x00; /* ($32,X) pointers land somewhere in zero page */

    static runner runners[PATH_COUNT];
    for (int p = 0; p < PATH_COUNT; p++) runner_init(&runners[p], (enum path)p, image);

    uint32_t seed = 12345;
    int slices = 3000, mismatches = 0, interrupts_seen = 0;
    for (int i = 0; i < slices; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t cycles = 1 + (seed >> 16) % 700;
        uint32_t irq = (i % 7) == 3 ? 1u : 0u;
        uint32_t nmi = (i % 50) >= 48 ? 1u : 0u;
        uint8_t rdy = (i % 23) == 5 ? 0 : 1;
        for (int p = 0; p < PATH_COUNT; p++) {
            runners[p].cpu.irq = irq;
            runners[p].cpu.nmi = nmi;
            runners[p].cpu.rdy = rdy;
            runner_slice(&runners[p], cycles);
        }
        int check_memory = (i % 10) == 9 || i == slices - 1;
        for (int p = 1; p < PATH_COUNT; p++) {
            if (!same_state(&runners[0].cpu, &runners[p].cpu) ||
                (check_memory && memcmp(runners[0].mem, runners[p].mem, 65536) != 0)) {
                if (mismatches++ == 0)
                    fprintf(stderr, "\n  path %d differs from the per-cycle path after slice %d\n",
                            p, i);
            }
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    interrupts_seen = runners[0].mem[0x20] + runners[0].mem[0x22];
    CU_ASSERT(runners[0].mem[0x20] > 0); /* IRQs were taken */
    CU_ASSERT(runners[0].mem[0x22] > 0); /* NMIs too */
    CU_ASSERT(interrupts_seen > 0);
    CU_ASSERT(runners[0].cpu.cycles > 500000);
    CU_ASSERT(runners[PATH_RUN_FLAT_HOOKS].hook_calls > 0);
    CU_ASSERT_EQUAL(runners[PATH_RUN_FLAT_HOOKS].hook_calls, runners[PATH_RUN_BUS_HOOKS].hook_calls);
}

/* --- Hooks ----------------------------------------------------------------- */

typedef struct debugger {
    uint16_t breakpoint;
    uint16_t watch;
    int syncs, stops;
} debugger;

static int dbg_sync(void *user, uint16_t pc)
{
    debugger *d = user;
    d->syncs++;
    if (pc == d->breakpoint) {
        d->stops++;
        return 1;
    }
    return 0;
}

static int dbg_access(void *user, uint16_t addr, uint8_t value, int write)
{
    (void)value;
    debugger *d = user;
    return write && addr == d->watch;
}

static const char loop_program[] = "*= $1000\n"
                                   "loop:   INX\n"      /* $1000 */
                                   "        STA $D020\n" /* $1001 */
                                   "        NOP\n"       /* $1004 */
                                   "        JMP loop\n"; /* $1005 */

static void hooks_cpu(mh_cpu6502 *cpu, uint8_t *mem, debugger *d, int flat)
{
    memset(mem, 0, 65536);
    load(mem, loop_program);
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    if (flat) {
        desc.memory = mem;
    } else {
        desc.read = bus_read;
        desc.write = bus_write;
        desc.user = mem;
    }
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(cpu, &desc), MH_OK);
    cpu->state = MH_CPU6502_STATE_FETCH;
    cpu->pc = 0x1000;
    mh_cpu6502_set_hooks(cpu, dbg_sync, dbg_access, d);
}

static void test_sync_breakpoint(void)
{
    static uint8_t mem[65536];
    for (int flat = 0; flat < 2; flat++) {
        mh_cpu6502 cpu;
        debugger d = {0x1004, 0xFFFF, 0, 0};
        hooks_cpu(&cpu, mem, &d, flat);
        /* INX (2) + STA abs (4) run, then the CPU stops before the NOP */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 1000), 6);
        CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_SYNC);
        CU_ASSERT_EQUAL(cpu.pc, 0x1004);
        CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&cpu));
        CU_ASSERT_EQUAL(d.syncs, 3);
        /* Resuming runs the NOP (no second stop for it), goes round the loop
         * (JMP 3 + INX 2 + STA 4) and stops at the NOP again. */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 1000), 2 + 3 + 2 + 4);
        CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_SYNC);
        CU_ASSERT_EQUAL(cpu.x, 2);
        CU_ASSERT_EQUAL(d.stops, 2);
        /* tick reports the stop with 0 and does not use a cycle */
        uint64_t before = cpu.cycles;
        CU_ASSERT_EQUAL(mh_cpu6502_tick(&cpu), 1); /* resumes: fetches the NOP */
        CU_ASSERT_EQUAL(mh_cpu6502_tick(&cpu), 1);
        CU_ASSERT_EQUAL(cpu.cycles, before + 2);
        /* moving the PC while stopped: the hook is asked about the new PC */
        d.breakpoint = 0x1000;
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 1000), 3);
        CU_ASSERT_EQUAL(cpu.pc, 0x1000);
        cpu.pc = 0x1005;
        d.breakpoint = 0x1005;
        CU_ASSERT_EQUAL(mh_cpu6502_tick(&cpu), 0);
        CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_SYNC);
    }
}

static void test_access_watchpoint(void)
{
    static uint8_t mem[65536];
    for (int flat = 0; flat < 2; flat++) {
        mh_cpu6502 cpu;
        debugger d = {0xFFFF, 0xD020, 0, 0};
        hooks_cpu(&cpu, mem, &d, flat);
        cpu.a = 7;
        /* the write to $D020 happens in the STA's last cycle; the CPU stops at
         * the boundary after it */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 1000), 6);
        CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_ACCESS);
        CU_ASSERT_EQUAL(cpu.pc, 0x1004);
        CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&cpu));
        CU_ASSERT_EQUAL(mem[0xD020], 7);
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 1000), 2 + 3 + 2 + 4);
        CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_ACCESS);
    }
}

typedef struct access_tally {
    int reads, writes;
} access_tally;

static int tally_access(void *user, uint16_t addr, uint8_t value, int write)
{
    (void)addr, (void)value;
    access_tally *t = user;
    if (write) t->writes++;
    else t->reads++;
    return 0;
}

/* With reads turned off the access hook sees every write and no read; on
 * again (also after a restore, which keeps the links) it sees both; with
 * a map, the reads of the marked addresses. */
static void test_access_reads_off(void)
{
    static uint8_t mem[65536];
    for (int flat = 0; flat < 2; flat++) {
        mh_cpu6502 cpu;
        debugger d = {0xFFFF, 0xFFFF, 0, 0};
        hooks_cpu(&cpu, mem, &d, flat);
        access_tally t = {0, 0};
        mh_cpu6502_set_hooks(&cpu, NULL, tally_access, &t);
        /* one round of the loop: INX 2 + STA 4 + NOP 2 + JMP 3 = 10 reads, 1 write */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 11), 11);
        CU_ASSERT_EQUAL(t.reads, 10);
        CU_ASSERT_EQUAL(t.writes, 1);
        mh_cpu6502_set_access_reads(&cpu, 0, NULL);
        mh_cpu6502_set_hooks(&cpu, NULL, tally_access, &t); /* set_hooks leaves it off */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 22), 22);
        CU_ASSERT_EQUAL(t.reads, 10);
        CU_ASSERT_EQUAL(t.writes, 3);
        mh_cpu6502 saved = cpu;
        saved.links.access_skip_reads = 0;
        mh_cpu6502_restore(&cpu, &saved); /* the links stay: reads still off */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 11), 11);
        CU_ASSERT_EQUAL(t.reads, 10);
        CU_ASSERT_EQUAL(t.writes, 4);
        mh_cpu6502_set_access_reads(&cpu, 1, NULL);
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 11), 11);
        CU_ASSERT_EQUAL(t.reads, 20);
        CU_ASSERT_EQUAL(t.writes, 5);
        for (int i = 0; i < 11; i++) mh_cpu6502_tick(&cpu); /* the per-cycle path too */
        CU_ASSERT_EQUAL(t.reads, 30);
        mh_cpu6502_set_access_reads(&cpu, 0, NULL);
        for (int i = 0; i < 11; i++) mh_cpu6502_tick(&cpu);
        CU_ASSERT_EQUAL(t.reads, 30);
        CU_ASSERT_EQUAL(t.writes, 7);
        /* with a map: only the marked addresses' reads (the STA's operand
         * address bytes at $1002 and $1003, once a round), every write */
        static uint8_t map[65536];
        memset(map, 0, sizeof map);
        map[0x1002] = map[0x1003] = 1;
        mh_cpu6502_set_access_reads(&cpu, 1, map);
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 22), 22);
        CU_ASSERT_EQUAL(t.reads, 34);
        CU_ASSERT_EQUAL(t.writes, 9);
        mh_cpu6502_set_access_reads(&cpu, 0, map); /* off wins over the map */
        CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 11), 11);
        CU_ASSERT_EQUAL(t.reads, 34);
        CU_ASSERT_EQUAL(t.writes, 10);
    }
}

static void test_step_and_no_hooks(void)
{
    static uint8_t mem[65536];
    mh_cpu6502 cpu;
    debugger d = {0xFFFF, 0xFFFF, 0, 0};
    hooks_cpu(&cpu, mem, &d, 0);
    mh_cpu6502_set_hooks(&cpu, NULL, NULL, NULL);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 2);
    CU_ASSERT_EQUAL(cpu.pc, 0x1001);
    CU_ASSERT_EQUAL(cpu.t, 2); /* at a boundary t is the last instruction's length */
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 4);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 2);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 3);
    CU_ASSERT_EQUAL(cpu.pc, 0x1000);
    CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 0), 0);
    /* mid-instruction, step finishes the instruction */
    CU_ASSERT_EQUAL(mh_cpu6502_tick(&cpu), 1);
    CU_ASSERT_FALSE(mh_cpu6502_at_boundary(&cpu));
    CU_ASSERT_EQUAL(cpu.ipc, 0x1000);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 1);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&cpu));
}

/* A clock near 2^64 (a snapshot may hold any value) runs its budget and
 * wraps, on both paths, with and without hooks: a run that ended at once
 * left the machine's loop waiting for cycles that never came. */
static void test_clock_wraps(void)
{
    static uint8_t mem[65536];
    for (int flat = 0; flat < 2; flat++) {
        for (int hooked = 0; hooked < 2; hooked++) {
            mh_cpu6502 cpu;
            debugger d = {0xFFFF, 0xFFFF, 0, 0};
            hooks_cpu(&cpu, mem, &d, flat);
            if (!hooked) mh_cpu6502_set_hooks(&cpu, NULL, NULL, NULL);
            cpu.cycles = UINT64_MAX - 4;
            CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 100), 100);
            CU_ASSERT_EQUAL(cpu.cycles, 95);
        }
    }
}

/* --- Lifecycle ------------------------------------------------------------- */

static void test_init_checks(void)
{
    static uint8_t mem[65536];
    mh_cpu6502 cpu;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    CU_ASSERT_EQUAL(mh_cpu6502_init(NULL, &desc), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_cpu6502_init(&cpu, NULL), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_cpu6502_init(&cpu, &desc), MH_ERR_INVALID_ARGUMENT); /* no bus */
    desc.read = bus_read;
    CU_ASSERT_EQUAL(mh_cpu6502_init(&cpu, &desc), MH_ERR_INVALID_ARGUMENT); /* no write */
    desc.read = NULL;
    desc.memory = mem;
    desc.model = (mh_cpu6502_model)7;
    CU_ASSERT_EQUAL(mh_cpu6502_init(&cpu, &desc), MH_ERR_INVALID_ARGUMENT);
    desc.model = MH_CPU6502_MODEL_6502;
    CU_ASSERT_EQUAL(mh_cpu6502_init(&cpu, &desc), MH_OK);
    CU_ASSERT_EQUAL(cpu.rdy, 1);
    CU_ASSERT_EQUAL(cpu.port.pins, 0);
}

typedef struct recorder {
    uint8_t mem[65536];
    uint16_t addr[64];
    uint8_t write[64];
    int count;
} recorder;

static uint8_t rec_read(void *user, uint16_t addr)
{
    recorder *r = user;
    if (r->count < 64) {
        r->addr[r->count] = addr;
        r->write[r->count++] = 0;
    }
    return r->mem[addr];
}

static void rec_write(void *user, uint16_t addr, uint8_t value)
{
    recorder *r = user;
    if (r->count < 64) {
        r->addr[r->count] = addr;
        r->write[r->count++] = 1;
    }
    r->mem[addr] = value;
}

static void test_reset_sequence(void)
{
    static recorder r;
    memset(&r, 0, sizeof r);
    r.mem[0xFFFC] = 0x34;
    r.mem[0xFFFD] = 0x12;
    mh_cpu6502 cpu;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.read = rec_read;
    desc.write = rec_write;
    desc.user = &r;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&cpu, &desc), MH_OK);
    CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 7), 7);
    static const uint16_t want[7] = {0x0000, 0x0000, 0x0100, 0x01FF, 0x01FE, 0xFFFC, 0xFFFD};
    CU_ASSERT_EQUAL_FATAL(r.count, 7);
    for (int i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(r.addr[i], want[i]);
        CU_ASSERT_EQUAL(r.write[i], 0); /* reset never writes */
    }
    CU_ASSERT_EQUAL(cpu.pc, 0x1234);
    CU_ASSERT_EQUAL(cpu.s, 0xFD);
    CU_ASSERT(cpu.p & MH_CPU6502_FLAG_I);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&cpu));
}

static void test_jam(void)
{
    static recorder r;
    memset(&r, 0, sizeof r);
    load(r.mem, "*= $1000\n NOP\n JAM\n*= $2000\n NOP\n*= $FFFA\n .word $3000, $2000, $3000\n");
    mh_cpu6502 cpu;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.read = rec_read;
    desc.write = rec_write;
    desc.user = &r;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&cpu, &desc), MH_OK);
    cpu.state = MH_CPU6502_STATE_FETCH;
    cpu.pc = 0x1000;
    cpu.p = MH_CPU6502_FLAG_U; /* I clear */
    /* NOP (2) + JAM (3), then run() returns */
    CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 100), 5);
    CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_JAM);
    CU_ASSERT_EQUAL(cpu.jammed, 1);
    CU_ASSERT_EQUAL(cpu.pc, 0x1001);
    CU_ASSERT_EQUAL(r.addr[3], 0x1002);
    CU_ASSERT_EQUAL(r.addr[4], 0x1002);
    /* jammed: cycles go on reading $FFFF; IRQ and NMI are ignored */
    r.count = 0;
    cpu.irq = 1;
    cpu.nmi = 1;
    CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 50), 50);
    CU_ASSERT_EQUAL(cpu.stop_reason, MH_CPU6502_STOP_NONE);
    CU_ASSERT_EQUAL(r.count, 50);
    for (int i = 0; i < 50; i++) CU_ASSERT_EQUAL(r.addr[i], 0xFFFF);
    CU_ASSERT_EQUAL(cpu.pc, 0x1001);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 1);
    CU_ASSERT_EQUAL(cpu.cycles, 5 + 50 + 1);
    /* reset un-jams */
    cpu.irq = 0;
    cpu.nmi = 0;
    mh_cpu6502_reset(&cpu);
    CU_ASSERT_EQUAL(cpu.jammed, 0);
    CU_ASSERT_EQUAL(mh_cpu6502_run(&cpu, 7), 7);
    CU_ASSERT_EQUAL(cpu.pc, 0x2000);
    CU_ASSERT_EQUAL(mh_cpu6502_step(&cpu), 2);
}

static void test_snapshot_restore(void)
{
    static recorder r;
    memset(&r, 0, sizeof r);
    load(r.mem, workload);
    mh_cpu6502 cpu;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.read = rec_read;
    desc.write = rec_write;
    desc.user = &r;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&cpu, &desc), MH_OK);
    mh_cpu6502_run(&cpu, 1003); /* very likely mid-instruction */
    mh_cpu6502 saved = cpu;     /* a snapshot is a plain copy */
    static uint8_t saved_mem[65536];
    memcpy(saved_mem, r.mem, sizeof saved_mem);

    r.count = 0;
    mh_cpu6502_run(&cpu, 40);
    mh_cpu6502 after = cpu;
    uint16_t trace[40];
    memcpy(trace, r.addr, sizeof trace);

    /* restore into a CPU with other links: they are kept */
    mh_cpu6502 other;
    memset(&desc, 0, sizeof desc);
    desc.read = rec_read;
    desc.write = rec_write;
    desc.user = &r;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&other, &desc), MH_OK);
    saved.links.read = NULL; /* a snapshot's pointers are not used */
    saved.links.user = NULL;
    mh_cpu6502_restore(&other, &saved);
    CU_ASSERT_PTR_EQUAL(other.links.read, rec_read);
    memcpy(r.mem, saved_mem, sizeof saved_mem);
    r.count = 0;
    mh_cpu6502_run(&other, 40);
    CU_ASSERT_TRUE(same_state(&after, &other));
    CU_ASSERT_EQUAL(memcmp(trace, r.addr, sizeof trace), 0);
}

static void test_two_cpus_share_nothing(void)
{
    static uint8_t mem_a[65536], mem_b[65536];
    memset(mem_a, 0, sizeof mem_a);
    load(mem_a, loop_program);
    memcpy(mem_b, mem_a, sizeof mem_b);
    mh_cpu6502 a, b;
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.memory = mem_a;
    mh_cpu6502_init(&a, &desc);
    desc.memory = mem_b;
    mh_cpu6502_init(&b, &desc);
    a.state = b.state = MH_CPU6502_STATE_FETCH;
    a.pc = b.pc = 0x1000;
    for (int i = 0; i < 100; i++) {
        mh_cpu6502_run(&a, 7);
        mh_cpu6502_run(&b, 3);
    }
    CU_ASSERT_EQUAL(a.cycles, 700);
    CU_ASSERT_EQUAL(b.cycles, 300);
    CU_ASSERT_NOT_EQUAL(a.x, b.x);
}

MH_SUITE("cpu6502.paths", NULL, NULL, MH_TEST(test_fast_path_equals_per_cycle),
         MH_TEST(test_two_cpus_share_nothing))
MH_SUITE("cpu6502.hooks", NULL, NULL, MH_TEST(test_sync_breakpoint), MH_TEST(test_access_watchpoint),
         MH_TEST(test_access_reads_off), MH_TEST(test_step_and_no_hooks),
         MH_TEST(test_clock_wraps))
MH_SUITE("cpu6502.lifecycle", NULL, NULL, MH_TEST(test_init_checks), MH_TEST(test_reset_sequence),
         MH_TEST(test_jam), MH_TEST(test_snapshot_restore))
