/* bench_tools - round-trip time of the debugging data tools over stdio
 * against the real mcphost binary with a paused C64 session: registers_get,
 * and memory_read of 64 KiB (hex, and base64), plus a 256-byte read. Sends
 * one request, waits for its whole answer line, repeats. Prints calls per
 * second and median/p99 latency; never asserts. For comparison, VICE's
 * binary monitor takes about 55 us for registers and 530 us for 64 KiB.
 *
 * Usage: bench_tools [calls [machine]]   (default 2000 c64) */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static char *line;
static size_t line_size;

static void measure(FILE *to, FILE *from, const char *name, const char *tool, const char *args,
                    int calls)
{
    double *t = malloc(sizeof *t * (size_t)calls);
    size_t bytes = 0;
    double start = now_us();
    for (int i = 0; i < calls; i++) {
        double t0 = now_us();
        fprintf(to,
                "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\","
                "\"arguments\":%s}}\n",
                i + 10, tool, args);
        fflush(to);
        ssize_t n = getline(&line, &line_size, from);
        if (n < 0 || strstr(line, "\"isError\":true") || !strstr(line, "\"result\"")) {
            fprintf(stderr, "bench_tools: %s failed: %.300s\n", tool, n < 0 ? "(end of output)" : line);
            exit(1);
        }
        bytes = (size_t)n;
        t[i] = now_us() - t0;
    }
    double total = now_us() - start;
    qsort(t, (size_t)calls, sizeof *t, compare);
    printf("  %-34s %7.0f calls/s   median %7.1f us   p99 %7.1f us   (%zu bytes/answer)\n", name,
           calls / total * 1e6, t[calls / 2], t[calls * 99 / 100], bytes);
    free(t);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 2000;
    char *machine = argc > 2 ? argv[2] : "c64";
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || calls <= 0) return 2;
    exe[n] = '\0';
    strcpy(strrchr(exe, '/') + 1, "mcphost");

    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) || pipe(out_pipe)) return 2;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
    posix_spawn_file_actions_addclose(&fa, in_pipe[1]);
    posix_spawn_file_actions_addclose(&fa, out_pipe[0]);
    char *args[] = {exe, "--log-level", "error", "--machine", machine, NULL};
    pid_t pid;
    if (posix_spawn(&pid, exe, &fa, NULL, args, environ) != 0) {
        perror("posix_spawn");
        return 2;
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    FILE *to = fdopen(in_pipe[1], "w"), *from = fdopen(out_pipe[0], "r");
    fprintf(to, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n");
    fflush(to);
    if (getline(&line, &line_size, from) < 0) return 1;
    printf("bench_tools: %d sequential calls each over stdio, one client, a paused %s session\n",
           calls, machine);
    measure(to, from, "registers_get", "registers_get", "{}", calls);
    measure(to, from, "memory_read 256 bytes", "memory_read", "{\"address\":\"$C000\",\"length\":256}",
            calls);
    measure(to, from, "memory_read 64 KiB (hex)", "memory_read",
            "{\"address\":0,\"length\":65536}", calls);
    measure(to, from, "memory_read 64 KiB (base64)", "memory_read",
            "{\"address\":0,\"length\":65536,\"format\":\"base64\"}", calls);
    measure(to, from, "memory_search 64 KiB \"A9 ?? 8D\"", "memory_search",
            "{\"pattern\":\"A9 ?? 8D\",\"limit\":10}", calls);
    fclose(to);
    int status;
    waitpid(pid, &status, 0);
    fclose(from);
    free(line);
    return 0;
}
