/* bench_machine.h - the warp-speed measuring loop the machine benches
 * (bench_c64, bench_vic20, bench_plus4) share on top of bench_host.h:
 * assembling the busy program to a .prg, creating the machine, running it
 * in the host's slices, the best of several timed runs (wall and this
 * thread's CPU time), the best of several runs of the real binary, and the
 * MHz line. Header-only, as bench_host.h. */
#ifndef MH_BENCH_MACHINE_H
#define MH_BENCH_MACHINE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_host.h"
#include "mcphost/asm6502.h"
#include "mcphost/mcphost.h"

/* What one bench measures with: its name (the message prefix), the host's
 * 5 ms slice in the machine's cycles, the boot cycles before timing and
 * how many runs the best is of. */
typedef struct bench_warp {
    const char *name;
    unsigned slice;
    uint64_t boot;
    int repeats;
} bench_warp;

/* The best of bench_warp.repeats runs: the cycles one ran, and the least
 * wall and CPU seconds. */
typedef struct bench_figure {
    uint64_t ran;
    double wall;
    double cpu;
} bench_figure;

/* Assembles source and writes it as a .prg (load address first) to path. */
static inline int bench_write_prg(const char *name, const char *source, const char *path)
{
    mh_asm6502_result result;
    if (mh_asm6502_assemble(source, strlen(source), NULL, &result) != MH_OK) {
        fprintf(stderr, "%s: %s\n", name, result.error);
        mh_asm6502_result_free(&result);
        return -1;
    }
    static uint8_t image[65536], written[8192];
    mh_asm6502_to_image(&result, image, written);
    mh_asm6502_result_free(&result);
    int lo = -1, hi = -1;
    for (int a = 0; a < 65536; a++)
        if (written[a / 8] & (1u << (a % 8))) {
            if (lo < 0) lo = a;
            hi = a;
        }
    FILE *f = fopen(path, "wb");
    if (!f || lo < 0) return -1;
    fputc(lo & 0xFF, f);
    fputc(lo >> 8, f);
    fwrite(image + lo, 1, (size_t)(hi - lo + 1), f);
    return fclose(f);
}

/* `bench_X --write-busy-prg FILE` writes the bench's busy program and
 * exits (bench/compare.sh runs the same program under VICE): the exit
 * code, or -1 when the arguments ask for something else. */
static inline int bench_write_busy_mode(int argc, char **argv, const char *name, const char *source)
{
    if (argc != 3 || strcmp(argv[1], "--write-busy-prg") != 0) return -1;
    return bench_write_prg(name, source, argv[2]) == 0 ? 0 : 1;
}

/* Creates the machine with options; exits with a message on failure. */
static inline void *bench_create(const bench_warp *warp, const char *options)
{
    struct mh_session session = {0};
    char error[512];
    void *instance = NULL;
    if (bench_machine.create(bench_machine.user_data, &session, options, &instance, error,
                             sizeof error) != MH_OK) {
        fprintf(stderr, "%s: create failed: %s\n", warp->name, error);
        exit(1);
    }
    return instance;
}

/* Runs at least `cycles` in the host's slices; returns the cycles run. */
static inline uint64_t bench_run_for(const bench_warp *warp, void *instance, uint64_t cycles)
{
    uint64_t done = 0;
    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    while (done < cycles) {
        bench_machine.run(instance, warp->slice, &result);
        done += result.cycles;
    }
    return done;
}

/* This thread's CPU time: on a shared machine the wall time also counts
 * the time other processes had the CPU. */
static inline double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Boots (warp->boot cycles), then times `cycles` more, warp->repeats
 * times; the best of them. */
static inline bench_figure bench_best_of(const bench_warp *warp, const char *options, uint64_t cycles)
{
    bench_figure best = {0, 1e30, 1e30};
    for (int r = 0; r < warp->repeats; r++) {
        void *instance = bench_create(warp, options);
        bench_run_for(warp, instance, warp->boot);
        double t0 = bench_now(), c0 = bench_cpu_now();
        best.ran = bench_run_for(warp, instance, cycles);
        double took = bench_now() - t0, cpu = bench_cpu_now() - c0;
        bench_machine.destroy(instance);
        if (took < best.wall) best.wall = took;
        if (cpu < best.cpu) best.cpu = cpu;
    }
    return best;
}

/* The least wall seconds of warp->repeats runs of argv (the real binary). */
static inline double bench_best_binary(const bench_warp *warp, const char *const *argv)
{
    double best = 1e30;
    for (int r = 0; r < warp->repeats; r++) {
        int exit_code;
        double took = bench_run_binary(argv, &exit_code);
        if (took < best) best = took;
    }
    return best;
}

/* One figure's line: emulated MHz and times real time at hz. */
static inline void bench_report(const char *label, uint64_t cycles, double seconds, double hz)
{
    double mhz = (double)cycles / seconds / 1e6;
    printf("  %-40s %6.1f MHz  %5.1fx real time  (%llu cycles in %.2f s)\n", label, mhz,
           mhz * 1e6 / hz, (unsigned long long)cycles, seconds);
}

/* The peak-RSS line: the most the real binary's runs held resident. */
static inline void bench_report_peak_rss(void)
{
    printf("  %-40s %6.1f MiB peak RSS of mcphost (largest of its runs)\n", "memory",
           (double)bench_binary_peak_kib / 1024.0);
}

/* Removes the bench's temporary directory; 0 when it went. */
static inline int bench_remove_dir(const char *dir)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

#endif
