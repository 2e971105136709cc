/* bench_expr - cost of breakpoint conditions (mcphost/expr.h): ns per
 * mh_expr_eval() of typical conditions against a fake 6502 (registers and
 * 64 KiB of memory behind a fetch callback, as a debug engine's CPU hook
 * would have), and µs per mh_expr_compile(). The registers change every
 * evaluation so branches are not perfectly predicted.
 *
 * Prints numbers only; never asserts timing. Usage: bench_expr [iterations]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcphost/expr.h"

enum { R_A, R_X, R_Y, R_P, R_SP, R_PC, R_MEM };

typedef struct cpu {
    int64_t reg[R_MEM];
    uint8_t mem[65536];
} cpu;

static int resolve(void *user, const char *name, size_t length, int32_t *id, int *indexed)
{
    static const char *const names[] = {"a", "x", "y", "p", "sp", "pc", "mem"};
    (void)user;
    for (int32_t i = 0; i <= R_MEM; i++) {
        if (strlen(names[i]) != length)
            continue;
        size_t k = 0;
        while (k < length && (name[k] | 0x20) == names[i][k])
            k++;
        if (k == length) {
            *id = i;
            *indexed = i == R_MEM;
            return 1;
        }
    }
    return 0;
}

static int64_t fetch(void *user, int32_t id, int64_t index)
{
    const cpu *c = user;
    if (id == R_MEM)
        return c->mem[(uint64_t)index & 0xFFFF];
    return c->reg[id];
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const conditions[] = {
    "A == $10",
    "mem[$D012] >= 100",
    "A == $10 && (X > 5 || !(P & %00000010)) && mem[$D012] >= 100",
    "X > 5 || mem[$FB] + mem[$FC] * 256 == $C000",
    "((A << 8 | X) ^ mem[PC + 1]) % 7 == 3 && SP < $F0",
};

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 20000000L;
    if (iterations < 1000)
        iterations = 1000;
    cpu *c = calloc(1, sizeof *c);
    if (!c)
        return 1;
    for (int i = 0; i < 65536; i++)
        c->mem[i] = (uint8_t)(i * 7);
    printf("bench_expr: %ld evaluations per condition\n", iterations);
    for (size_t k = 0; k < sizeof conditions / sizeof conditions[0]; k++) {
        mh_expr *e = NULL;
        char err[256];
        if (mh_expr_compile(conditions[k], resolve, NULL, &e, NULL, err, sizeof err) != MH_OK) {
            fprintf(stderr, "compile failed: %s\n", err);
            return 1;
        }
        int64_t hits = 0;
        double t0 = now();
        for (long i = 0; i < iterations; i++) {
            c->reg[R_A] = i & 0x1F;
            c->reg[R_X] = (i >> 5) & 7;
            c->reg[R_P] = (i >> 3) & 0xFF;
            c->reg[R_PC] = i & 0xFFFF;
            c->reg[R_SP] = 0xFF - (i & 0x1F);
            hits += mh_expr_eval(e, fetch, c) != 0;
        }
        double dt = now() - t0;
        printf("  %6.2f ns/eval  (%5.1f M/s, %5.1f%% true)  %s\n", dt * 1e9 / (double)iterations,
               (double)iterations / dt * 1e-6, 100.0 * (double)hits / (double)iterations,
               conditions[k]);
        mh_expr_free(e);
    }
    /* compile cost of the typical condition */
    long compiles = iterations / 100;
    double t0 = now();
    for (long i = 0; i < compiles; i++) {
        mh_expr *e = NULL;
        if (mh_expr_compile(conditions[2], resolve, NULL, &e, NULL, NULL, 0) != MH_OK)
            return 1;
        mh_expr_free(e);
    }
    double dt = now() - t0;
    printf("  %6.2f us/compile of: %s\n", dt * 1e6 / (double)compiles, conditions[2]);
    free(c);
    return 0;
}
