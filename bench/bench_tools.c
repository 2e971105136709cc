/* bench_tools - round-trip time of the debugging data tools over stdio
 * against the real mcphost binary with a paused C64 session: registers_get,
 * and memory_read of 64 KiB (hex, and base64), plus a 256-byte read. Sends
 * one request, waits for its whole answer line, repeats. Prints calls per
 * second and median/p99 latency; never asserts. For comparison, VICE's
 * binary monitor takes about 55 us for registers and 530 us for 64 KiB.
 *
 * Usage: bench_tools [calls [machine]]   (default 2000 c64) */
#include <stdio.h>
#include <stdlib.h>

#include "bench_mcp.h"

static void measure(bench_mcp *c, const char *name, const char *tool, const char *args, int calls)
{
    double *t = malloc(sizeof *t * (size_t)calls);
    size_t bytes = 0;
    double total = t ? bench_mcp_time(c, "bench_tools", tool, args, calls, t, &bytes) : -1;
    if (total < 0) exit(1);
    printf("  %-34s %7.0f calls/s   median %7.1f us   p99 %7.1f us   (%zu bytes/answer)\n", name,
           calls / total * 1e6, t[calls / 2], t[calls * 99 / 100], bytes);
    free(t);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 2000;
    char *machine = argc > 2 ? argv[2] : "c64";
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
    measure(&c, "registers_get", "registers_get", "{}", calls);
    measure(&c, "memory_read 256 bytes", "memory_read", "{\"address\":\"$C000\",\"length\":256}",
            calls);
    measure(&c, "memory_read 64 KiB (hex)", "memory_read",
            "{\"address\":0,\"length\":65536}", calls);
    measure(&c, "memory_read 64 KiB (base64)", "memory_read",
            "{\"address\":0,\"length\":65536,\"format\":\"base64\"}", calls);
    measure(&c, "memory_search 64 KiB \"A9 ?? 8D\"", "memory_search",
            "{\"pattern\":\"A9 ?? 8D\",\"limit\":10}", calls);
    bench_mcp_stop(&c);
    return 0;
}
