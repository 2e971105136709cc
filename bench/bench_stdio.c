/* bench_stdio - round-trip time of small MCP tool calls over stdio against
 * the real mcphost binary: `ping` (a host tool) and, when the fixture
 * plugins are given, `fixture_counter` (a tool that runs on a paused machine
 * session's thread). Sends one request, waits for its answer, repeats.
 * Prints calls per second and median/p99 latency; never asserts.
 *
 * Usage: bench_stdio [calls [fixture-plugin-dir]]
 * (bench_tools measures the debugging tools on a real C64 session.) */
#include <stdio.h>
#include <stdlib.h>

#include "bench_mcp.h"

static void measure(bench_mcp *c, const char *name, const char *tool, int calls)
{
    double *t = malloc(sizeof *t * (size_t)calls);
    double total = t ? bench_mcp_time(c, "bench_stdio", tool, NULL, calls, t, NULL) : -1;
    if (total < 0) exit(1);
    printf("  %-30s %8.0f calls/s   median %6.1f us   p99 %6.1f us\n", name, calls / total * 1e6,
           t[calls / 2], t[calls * 99 / 100]);
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
