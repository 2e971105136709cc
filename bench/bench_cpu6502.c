/* bench_cpu6502 - emulated MHz of the 6502 core on a CPU-bound workload:
 * a sieve of Eratosthenes over 8192 byte flags with (zp),Y pointers,
 * 16-bit adds and compares, then a count of the primes, in an endless
 * loop. The program is assembled with the SDK's own assembler.
 *
 * Paths measured:
 *   tick + bus      mh_cpu6502_tick() per cycle, read/write callbacks (what
 *                   a machine that runs its chips every cycle does)
 *   run  + bus      mh_cpu6502_run() with the same callbacks
 *   run  + flat     the fast path: flat 64 KiB memory, no callbacks
 *   ... + sync hook the same with a no-op sync (instruction fetch) hook
 *
 * Prints numbers only; never asserts timing. Usage: bench_cpu6502 [seconds]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_sieve.h"
#include "mcphost/asm6502.h"
#include "mcphost/cpu6502.h"

static const char program[] =
    BENCH_SIEVE_SYMBOLS
    BENCH_SIEVE_CODE
    "        JMP start\n";

static uint8_t bus_read(void *user, uint16_t addr)
{
    return ((uint8_t *)user)[addr];
}

static void bus_write(void *user, uint16_t addr, uint8_t value)
{
    ((uint8_t *)user)[addr] = value;
}

static int sync_noop(void *user, uint16_t pc)
{
    (void)user;
    (void)pc;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef enum path { P_TICK_BUS, P_RUN_BUS, P_RUN_FLAT, P_TICK_BUS_SYNC, P_RUN_FLAT_SYNC, P_COUNT } path;

static const char *const path_names[P_COUNT] = {
    "tick + bus callbacks (per cycle)", "run  + bus callbacks", "run  + flat memory (fast path)",
    "tick + bus + no-op sync hook", "run  + flat + no-op sync hook",
};

static void setup(mh_cpu6502 *cpu, uint8_t *mem, const uint8_t *image, path p)
{
    memcpy(mem, image, 65536);
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    if (p == P_RUN_FLAT || p == P_RUN_FLAT_SYNC) {
        desc.memory = mem;
    } else {
        desc.read = bus_read;
        desc.write = bus_write;
        desc.user = mem;
    }
    mh_cpu6502_init(cpu, &desc);
    if (p == P_TICK_BUS_SYNC || p == P_RUN_FLAT_SYNC) mh_cpu6502_set_hooks(cpu, sync_noop, NULL, NULL);
}

/* Runs `cycles` cycles on path p; returns the seconds it took. */
static double run_path(mh_cpu6502 *cpu, path p, uint64_t cycles)
{
    double t0 = now();
    if (p == P_TICK_BUS || p == P_TICK_BUS_SYNC) {
        for (uint64_t i = 0; i < cycles; i++) mh_cpu6502_tick(cpu);
    } else {
        uint64_t left = cycles;
        while (left) {
            uint32_t slice = left > 1000000u ? 1000000u : (uint32_t)left;
            left -= mh_cpu6502_run(cpu, slice);
        }
    }
    return now() - t0;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    if (seconds <= 0) seconds = 1.0;

    mh_asm6502_result assembled;
    if (mh_asm6502_assemble(program, sizeof program - 1, NULL, &assembled) != MH_OK) {
        fprintf(stderr, "bench_cpu6502: the workload does not assemble: %s\n", assembled.error);
        mh_asm6502_result_free(&assembled);
        return 1;
    }
    static uint8_t image[65536], mem[65536];
    mh_asm6502_to_image(&assembled, image, NULL);
    mh_asm6502_result_free(&assembled);
    image[0xFFFC] = 0x00; /* reset vector -> $0800 */
    image[0xFFFD] = 0x08;

    printf("bench_cpu6502: sieve of 8192 + prime count, %.1f s per path\n", seconds);
    mh_cpu6502 reference = {0}; /* set by path 0; zeroed for the compiler's flow analysis */
    uint8_t reference_mem[65536];
    const uint64_t same_cycles = 5000000;
    for (int p = 0; p < P_COUNT; p++) {
        mh_cpu6502 cpu;
        /* Calibrate: grow the cycle count until a run takes ~seconds. */
        uint64_t cycles = 1000000;
        double took;
        for (;;) {
            setup(&cpu, mem, image, (path)p);
            took = run_path(&cpu, (path)p, cycles);
            if (took >= seconds * 0.5 || cycles > (1ull << 40)) break;
            cycles = took > 0.01 ? (uint64_t)((double)cycles * seconds / took) : cycles * 10;
        }
        unsigned primes = (unsigned)(mem[0xF0] | mem[0xF1] << 8) - 2u; /* flags 0 and 1 */
        printf("  %-34s %8.1f MHz  (%llu cycles in %.2f s; %u primes found)\n", path_names[p],
               (double)cycles / took / 1e6, (unsigned long long)cycles, took, primes);

        /* Every path must end in the same state after the same cycles. */
        setup(&cpu, mem, image, (path)p);
        run_path(&cpu, (path)p, same_cycles);
        if (p == 0) {
            reference = cpu;
            memcpy(reference_mem, mem, sizeof reference_mem);
        } else if (cpu.pc != reference.pc || cpu.a != reference.a || cpu.x != reference.x ||
                   cpu.y != reference.y || cpu.p != reference.p || cpu.s != reference.s ||
                   cpu.cycles != reference.cycles || cpu.state != reference.state ||
                   memcmp(mem, reference_mem, sizeof reference_mem) != 0) {
            printf("  WARNING: %s ends in a different state than the per-cycle path\n",
                   path_names[p]);
        }
    }
    printf("  (all paths checked to end in the same state after %llu cycles)\n",
           (unsigned long long)same_cycles);
    return 0;
}
