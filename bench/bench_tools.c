/* bench_tools - round-trip time of tool calls over stdio against the real
 * mcphost binary with a paused C64 session, the five calls issue #21 sets
 * targets for: ping (a host tool), registers_get, a 256-byte and a 64 KiB
 * memory_read (base64, and hex), and execution_step followed by
 * registers_get (timed as one pair). Sends one request, waits for its whole
 * answer line, repeats. Prints calls per second, median and p99 latency;
 * never asserts. VICE's binary monitor on this kind of machine takes 52-63
 * us per small request and 545 us for 64 KiB (DESIGN.md); the target is
 * half that for small calls and under 300 us for 64 KiB.
 *
 * Usage: bench_tools [calls [machine [only]]]   (default 2000 c64; only: run just
 * the calls whose name starts with it, e.g. for perf stat per call) */
#include <stdio.h>
#include <stdlib.h>

#include "bench_mcp.h"

static const char *only; /* a name prefix, or NULL: every call */

static int wanted(const char *name) { return !only || strncmp(name, only, strlen(only)) == 0; }

/* cpu_ns: the server's CPU time over the calls (-1: unknown). */
static void print_line(const char *name, int calls, double total, const double *t, size_t bytes,
                       double cpu_ns)
{
    printf("  %-30s %7.0f calls/s   median %7.1f us   p99 %7.1f us   server CPU %6.1f us/call"
           "   (%zu bytes/answer)\n",
           name, calls / total * 1e6, t[calls / 2], t[calls * 99 / 100],
           cpu_ns >= 0 ? cpu_ns / 1e3 / calls : -1.0, bytes);
}

static void measure(bench_mcp *c, const char *name, const char *tool, const char *args, int calls)
{
    if (!wanted(name)) return;
    double *t = malloc(sizeof *t * (size_t)calls);
    size_t bytes = 0;
    double cpu0 = bench_mcp_server_cpu_ns(c);
    double total = t ? bench_mcp_time(c, "bench_tools", tool, args, calls, t, &bytes) : -1;
    double cpu1 = bench_mcp_server_cpu_ns(c);
    if (total < 0) exit(1);
    print_line(name, calls, total, t, bytes, cpu0 >= 0 && cpu1 >= 0 ? cpu1 - cpu0 : -1);
    free(t);
}

/* execution_step then registers_get, the pair timed as one round trip. */
static void measure_step(bench_mcp *c, int calls)
{
    if (!wanted("execution_step + registers_get")) return;
    double *t = malloc(sizeof *t * (size_t)calls);
    if (!t) exit(1);
    double start = bench_mcp_now_us();
    double cpu0 = bench_mcp_server_cpu_ns(c);
    size_t bytes = 0;
    for (int i = 0; i < calls; i++) {
        double t0 = bench_mcp_now_us();
        if (bench_mcp_call(c, "execution_step", "{}") != 0) {
            fprintf(stderr, "bench_tools: execution_step failed: %.300s\n", c->line);
            exit(1);
        }
        bytes = strlen(c->line);
        if (bench_mcp_call(c, "registers_get", "{}") != 0) {
            fprintf(stderr, "bench_tools: registers_get failed: %.300s\n", c->line);
            exit(1);
        }
        t[i] = bench_mcp_now_us() - t0;
        bytes += strlen(c->line);
    }
    double total = bench_mcp_now_us() - start;
    double cpu1 = bench_mcp_server_cpu_ns(c);
    qsort(t, (size_t)calls, sizeof *t, bench_mcp_compare);
    print_line("execution_step + registers_get", calls, total, t, bytes,
               cpu0 >= 0 && cpu1 >= 0 ? cpu1 - cpu0 : -1);
    free(t);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 2000;
    char *machine = argc > 2 ? argv[2] : "c64";
    only = argc > 3 ? argv[3] : NULL;
    char exe[4096];
    if (bench_mcp_binary(exe, sizeof exe) != 0 || calls <= 0) return 2;
    char *args[] = {exe, "--log-level", "error", "--machine", machine, NULL};
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) {
        fprintf(stderr, "bench_tools: could not start %s\n", exe);
        return 1;
    }
    printf("bench_tools: %d sequential calls each over stdio, one client, a paused %s session\n",
           calls, machine);
    measure(&c, "ping", "ping", "{}", calls);
    measure(&c, "registers_get", "registers_get", "{}", calls);
    measure(&c, "memory_read 256 bytes", "memory_read", "{\"address\":\"$C000\",\"length\":256}",
            calls);
    measure(&c, "memory_read 64 KiB (base64)", "memory_read",
            "{\"address\":0,\"length\":65536,\"format\":\"base64\"}", calls);
    measure(&c, "memory_read 64 KiB (hex)", "memory_read",
            "{\"address\":0,\"length\":65536,\"format\":\"hex\"}", calls);
    measure_step(&c, calls);
    bench_mcp_stop(&c);
    return 0;
}
