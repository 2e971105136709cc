/* bench_reverse - what execution_reverse_continue costs (issue #18) in the
 * real mcphost binary (C64, over stdio): a short loop hits the breakpoint
 * or watchpoint once, the machine then runs on for 1 s, 10 s and 59 s of
 * emulated time, and reverse-continue goes back to that hit, re-executing
 * the whole stretch with the judging hooks; and once with a condition that
 * never holds (the whole ring searched, the machine put back). Prints the
 * travel's own time (elapsed_ms), the round trip and the server's CPU
 * time; never asserts.
 *
 * Usage: bench_reverse [seconds ...]   (default 1 10 59) */
#include <stdio.h>
#include <stdlib.h>

#include "bench_mcp.h"

/* X counts to 10 past mark, reading src,X; then it spins at done. */
#define PROGRAM                                                                              \
    "start LDX #0\\nloop INX\\nmark LDA src,X\\n CPX #10\\n BNE loop\\ndone JMP done\\n"    \
    "src .byte 0,1,2,3,4,5,6,7,8,9,10\\n"

static const struct {
    const char *what, *tool, *args;
} cases[] = {
    {"exec breakpoint, condition x == 3", "breakpoints_set",
     "{\"address\":\"mark\",\"condition\":\"x == 3\"}"},
    {"read watchpoint on src+5", "breakpoints_memory_watch",
     "{\"address\":\"src+5\",\"on\":\"read\"}"},
    {"exec breakpoint whose condition never holds", "breakpoints_set",
     "{\"address\":\"mark\",\"condition\":\"x == 200\"}"},
};

/* One case over `seconds` of history; prints a line. */
static int measure(bench_mcp *c, const char *what, const char *tool, const char *args,
                   double seconds)
{
    char run[96];
    snprintf(run, sizeof run, "{\"cycles\":%.0f,\"warp\":true,\"timeout_ms\":300000}",
             seconds * 985248.0);
    if (bench_mcp_call(c, "breakpoints_delete", "{\"all\":true}") != 0 ||
        bench_mcp_call(c, "registers_set", "{\"pc\":\"$C000\"}") != 0 ||
        bench_mcp_call(c, "execution_run_until", "{\"address\":\"$C00A\",\"warp\":true}") != 0 ||
        bench_mcp_call(c, "execution_run_until", run) != 0 || bench_mcp_call(c, tool, args) != 0)
        return -1;
    double cpu0 = bench_mcp_server_cpu_ns(c), t0 = bench_mcp_now_us();
    int found = bench_mcp_call(c, "execution_reverse_continue", "{}") == 0;
    double wall = (bench_mcp_now_us() - t0) / 1000.0;
    double cpu = (bench_mcp_server_cpu_ns(c) - cpu0) / 1e6;
    double elapsed = found ? bench_mcp_number(c, "elapsed_ms") : -1;
    printf("  %-46s over %4.0f s: %s, travel %8.1f ms, round trip %8.1f ms, server CPU %8.1f "
           "ms\n", what, seconds, found ? "found" : "none ", elapsed, wall, cpu);
    return 0;
}

int main(int argc, char **argv)
{
    char exe[4096];
    if (bench_mcp_binary(exe, sizeof exe) != 0) return 1;
    char *args[] = {exe, "--log-level", "error", "--machine", "c64", "--transport", "stdio",
                    NULL};
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) {
        fprintf(stderr, "bench_reverse: could not start %s\n", exe);
        return 1;
    }
    static const double defaults[] = {1, 10, 59};
    int count = argc > 1 ? argc - 1 : 3;
    int failed = bench_mcp_call(&c, "execution_run_until", "{\"frames\":150,\"warp\":true}") ||
                 bench_mcp_call(&c, "assemble", "{\"address\":\"$C000\",\"source\":\"" PROGRAM
                                                "\",\"keep_labels\":true}");
    printf("reverse-continue on the C64 (one hit, then N s of emulated time; the "
           "snapshot ring reaches 60 s):\n");
    for (size_t k = 0; !failed && k < sizeof cases / sizeof cases[0]; k++)
        for (int i = 0; !failed && i < count; i++) {
            double seconds = argc > 1 ? atof(argv[i + 1]) : defaults[i];
            failed = measure(&c, cases[k].what, cases[k].tool, cases[k].args, seconds) != 0;
        }
    if (failed) fprintf(stderr, "bench_reverse: a call failed: %s\n", c.line ? c.line : "");
    bench_mcp_stop(&c);
    return failed;
}
