/* bench_observe - what an in-process observer costs the emulation: the real
 * mcphost binary runs the C64 headless in warp for a fixed number of
 * cycles (`--transport none --warp --limit-cycles N`), once bare and once
 * with the test-observer frontend (tests/fixtures/observer) attached. That
 * observer takes every observation mh.observe/1 offers, including one per
 * frame on the emulation thread, keeps the frame mailbox filled (a copy of
 * every frame) and reads the audio stream, from the main thread in a loop:
 * the heaviest watcher the SDL window can be.
 *
 * Runs alternate (bare, observed, bare ...) so load from elsewhere hits
 * both; prints the median emulated MHz of each and the ratio. Wall time
 * includes process start-up and the boot, the same for both. Prints
 * numbers only; never asserts timing.
 *
 * Usage: bench_observe [cycles [runs]]   defaults: 100000000 cycles, 5 runs
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_host.h"

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    unsigned long long cycles = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000000ull;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (cycles == 0 || runs < 1 || runs > 50) {
        fprintf(stderr, "usage: bench_observe [cycles [runs 1-50]]\n");
        return 2;
    }
    char dir[PATH_MAX], mcphost[PATH_MAX + 16], observer_dir[PATH_MAX + 64], limit[32];
    bench_exe_dir(dir, sizeof dir);
    snprintf(mcphost, sizeof mcphost, "%s/mcphost", dir);
    snprintf(observer_dir, sizeof observer_dir, "%s/../tests/fixtures/observer", dir);
    snprintf(limit, sizeof limit, "%llu", cycles);
    const char *bare[] = {mcphost, "--machine", "c64", "--transport", "none", "--warp",
                          "--limit-cycles", limit, "--log-level", "error", NULL};
    const char *observed[] = {mcphost, "--machine", "c64", "--transport", "none", "--warp",
                              "--limit-cycles", limit, "--log-level", "error",
                              "--plugin-dir", observer_dir, "--frontend", "test-observer", NULL};
    double t_bare[50], t_obs[50];
    for (int i = 0; i < runs; i++) {
        int code_bare = 0, code_obs = 0;
        t_bare[i] = bench_run_binary(bare, &code_bare);
        t_obs[i] = bench_run_binary(observed, &code_obs);
        if (code_bare != 1 || code_obs != 1) { /* the cycle limit's exit code */
            fprintf(stderr, "bench_observe: a run did not end at its cycle limit (exit %d, %d)\n",
                    code_bare, code_obs);
            return 1;
        }
    }
    qsort(t_bare, (size_t)runs, sizeof t_bare[0], compare);
    qsort(t_obs, (size_t)runs, sizeof t_obs[0], compare);
    double mhz_bare = (double)cycles / t_bare[runs / 2] / 1e6;
    double mhz_obs = (double)cycles / t_obs[runs / 2] / 1e6;
    printf("c64 warp, %llu cycles, median of %d runs each (process start-up included)\n", cycles,
           runs);
    printf("  no observer:              %7.2f MHz\n", mhz_bare);
    printf("  test-observer attached:   %7.2f MHz  (%.1f%% of no observer)\n", mhz_obs,
           100.0 * mhz_obs / mhz_bare);
    return 0;
}
