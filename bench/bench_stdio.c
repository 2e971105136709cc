/* bench_stdio - round-trip time of small MCP tool calls over stdio against
 * the real mcphost binary: `ping` (a host tool) and, when the fixture
 * plugins are given, `fixture_counter` (a tool that runs on a paused machine
 * session's thread). Sends one request, waits for its answer, repeats.
 * Prints calls per second and median/p99 latency; never asserts.
 *
 * Usage: bench_stdio [calls [fixture-plugin-dir]] */
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

/* Reads one line (the answer) from fd; returns its length or -1. */
static ssize_t read_line(FILE *in, char *buf, size_t size)
{
    return fgets(buf, (int)size, in) ? (ssize_t)strlen(buf) : -1;
}

static void measure(FILE *to, FILE *from, const char *name, const char *tool, int calls)
{
    double *t = malloc(sizeof *t * (size_t)calls);
    char line[65536];
    double start = now_us();
    for (int i = 0; i < calls; i++) {
        double t0 = now_us();
        fprintf(to, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\"}}\n",
                i + 10, tool);
        fflush(to);
        if (read_line(from, line, sizeof line) < 0 || strstr(line, "\"isError\":true")) {
            fprintf(stderr, "bench_stdio: %s failed: %s\n", tool, line);
            exit(1);
        }
        t[i] = now_us() - t0;
    }
    double total = now_us() - start;
    qsort(t, (size_t)calls, sizeof *t, compare);
    printf("  %-30s %8.0f calls/s   median %6.1f us   p99 %6.1f us\n", name, calls / total * 1e6,
           t[calls / 2], t[calls * 99 / 100]);
    free(t);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 20000;
    const char *fixtures = argc > 2 ? argv[2] : NULL;
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
    char *args[] = {exe, "--log-level", "error", "--plugin-dir", (char *)(fixtures ? fixtures : "/nonexistent"),
                    fixtures ? "--machine" : NULL, "fixture", NULL};
    pid_t pid;
    if (posix_spawn(&pid, exe, &fa, NULL, args, environ) != 0) {
        perror("posix_spawn");
        return 2;
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    FILE *to = fdopen(in_pipe[1], "w"), *from = fdopen(out_pipe[0], "r");
    char line[65536];
    fprintf(to, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n");
    fflush(to);
    if (read_line(from, line, sizeof line) < 0) return 1;
    printf("bench_stdio: %d sequential calls each, one client\n", calls);
    measure(to, from, "ping (host tool)", "ping", calls);
    if (fixtures) measure(to, from, "fixture_counter (session tool)", "fixture_counter", calls);
    fclose(to);
    int status;
    waitpid(pid, &status, 0);
    fclose(from);
    return 0;
}
