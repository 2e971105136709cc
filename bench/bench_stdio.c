/* bench_stdio - round-trip time of small MCP tool calls over stdio against
 * the real mcphost binary: `ping` (a host tool) and, when the fixture
 * plugins are given, `fixture_counter` (a tool that runs on a paused machine
 * session's thread). Sends one request, waits for its answer, repeats.
 * Prints calls per second, median/p99 latency and the server's CPU time per
 * call; never asserts.
 *
 * Usage: bench_stdio [calls [fixture-plugin-dir]]
 * (bench_tools measures the debugging tools on a real C64 session.) */
#include <stdio.h>
#include <stdlib.h>

#include "bench_mcp.h"

static void measure(bench_mcp *c, const char *name, const char *tool, int calls)
{
    double *t = malloc(sizeof *t * (size_t)calls);
    double cpu0 = bench_mcp_server_cpu_ns(c);
    double total = t ? bench_mcp_time(c, "bench_stdio", tool, NULL, calls, t, NULL) : -1;
    double cpu1 = bench_mcp_server_cpu_ns(c);
    if (total < 0) exit(1);
    printf("  %-30s %8.0f calls/s   median %6.1f us   p99 %6.1f us   server CPU %5.1f us/call\n",
           name, calls / total * 1e6, t[calls / 2], t[calls * 99 / 100],
           cpu0 >= 0 && cpu1 >= 0 ? (cpu1 - cpu0) / 1e3 / calls : -1.0);
    free(t);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 20000;
    const char *fixtures = argc > 2 ? argv[2] : NULL;
    char exe[4096];
    if (bench_mcp_binary(exe, sizeof exe) != 0 || calls <= 0) return 2;
    char *args[] = {exe, "--log-level", "error", "--plugin-dir", (char *)(fixtures ? fixtures : "/nonexistent"),
                    fixtures ? "--machine" : NULL, "fixture", NULL};
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) {
        fprintf(stderr, "bench_stdio: could not start %s\n", exe);
        return 1;
    }
    printf("bench_stdio: %d sequential calls each, one client\n", calls);
    measure(&c, "ping (host tool)", "ping", calls);
    if (fixtures) measure(&c, "fixture_counter (session tool)", "fixture_counter", calls);
    bench_mcp_stop(&c);
    return 0;
}
