/* bench_mcp.h - a minimal MCP client over stdio for the benches that drive
 * the real mcphost binary: spawn it with arguments, initialize, call tools
 * and read their answers (skipping notifications). Header-only; one client
 * per program. Never asserts timing: callers print what they measure. */
#ifndef MH_BENCH_MCP_H
#define MH_BENCH_MCP_H

#include <dirent.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct bench_mcp {
    pid_t pid;
    FILE *to, *from;
    int next_id;
    char *line; /* the last answer */
    size_t line_size;
} bench_mcp;

static inline double bench_mcp_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The mcphost binary beside this bench's executable, into exe. */
static inline int bench_mcp_binary(char *exe, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", exe, size - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    strcpy(strrchr(exe, '/') + 1, "mcphost");
    return 0;
}

/* Reads lines until the answer to request `id`; 0 on success, -1 at the
 * end of the output (c->line then empty). */
static inline int bench_mcp_read_answer(bench_mcp *c, int id)
{
    char needle[32];
    snprintf(needle, sizeof needle, "\"id\":%d,", id);
    for (;;) {
        if (getline(&c->line, &c->line_size, c->from) < 0) {
            if (c->line) c->line[0] = '\0';
            return -1;
        }
        if (strstr(c->line, needle)) return 0;
    }
}

/* Starts argv[0] (NULL-terminated argv) and initializes; 0 on success. */
static inline int bench_mcp_start(bench_mcp *c, char *const argv[])
{
    memset(c, 0, sizeof *c);
    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) || pipe(out_pipe)) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
    posix_spawn_file_actions_addclose(&fa, in_pipe[1]);
    posix_spawn_file_actions_addclose(&fa, out_pipe[0]);
    int spawned = posix_spawn(&c->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in_pipe[0]);
    close(out_pipe[1]);
    if (spawned != 0) return -1;
    c->to = fdopen(in_pipe[1], "w");
    c->from = fdopen(out_pipe[0], "r");
    /* A 64 KiB read's answer in one read(), not 4 KiB at a time. */
    if (c->from) setvbuf(c->from, NULL, _IOFBF, 1 << 20);
    c->next_id = 1;
    fprintf(c->to, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"initialize\",\"params\":{"
                   "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{"
                   "\"name\":\"bench\",\"version\":\"1\"}}}\n",
            c->next_id);
    fflush(c->to);
    return bench_mcp_read_answer(c, c->next_id++);
}

/* Calls tool with args (a JSON object text; NULL: {}); the answer is in
 * c->line. Returns 0, or -1 when the call failed, was answered with a
 * JSON-RPC error or the result is a tool error. */
static inline int bench_mcp_call(bench_mcp *c, const char *tool, const char *args)
{
    int id = c->next_id++;
    fprintf(c->to, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{"
                   "\"name\":\"%s\",\"arguments\":%s}}\n",
            id, tool, args ? args : "{}");
    fflush(c->to);
    if (bench_mcp_read_answer(c, id) != 0) return -1;
    return strstr(c->line, "\"isError\":true") || !strstr(c->line, "\"result\"") ? -1 : 0;
}

/* A number member `"key":N` of the last answer (first occurrence), or -1. */
static inline double bench_mcp_number(const bench_mcp *c, const char *key)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\"%s\":", key);
    const char *at = c->line ? strstr(c->line, needle) : NULL;
    return at ? strtod(at + strlen(needle), NULL) : -1;
}

/* CPU time the server has used so far, over all its threads, in ns (from
 * /proc/<pid>/task/<tid>/schedstat); -1 where that is not readable. On a
 * busy machine this says more than wall time: it leaves out the time the
 * server waited for a core. */
static inline double bench_mcp_server_cpu_ns(const bench_mcp *c)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)c->pid);
    DIR *dir = opendir(path);
    if (!dir) return -1;
    double total = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char stat_path[128];
        snprintf(stat_path, sizeof stat_path, "%s/%.32s/schedstat", path, e->d_name);
        FILE *f = fopen(stat_path, "r");
        unsigned long long ns = 0;
        if (f && fscanf(f, "%llu", &ns) == 1) total += (double)ns;
        if (f) fclose(f);
    }
    closedir(dir);
    return total;
}

static inline void bench_mcp_stop(bench_mcp *c)
{
    if (c->to) fclose(c->to);
    int status;
    if (c->pid > 0) waitpid(c->pid, &status, 0);
    if (c->from) fclose(c->from);
    free(c->line);
    memset(c, 0, sizeof *c);
}

static inline int bench_mcp_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Calls tool `calls` times, one after another, each round trip's time in
 * us into t[0..calls) sorted; *bytes (when not NULL) gets the last answer's
 * length. Returns the total time in us, or -1 after printing
 * "<who>: <tool> failed: <answer>" to stderr. */
static inline double bench_mcp_time(bench_mcp *c, const char *who, const char *tool,
                                    const char *args, int calls, double *t, size_t *bytes)
{
    double start = bench_mcp_now_us();
    for (int i = 0; i < calls; i++) {
        double t0 = bench_mcp_now_us();
        if (bench_mcp_call(c, tool, args) != 0) {
            fprintf(stderr, "%s: %s failed: %.300s\n", who, tool,
                    c->line && c->line[0] ? c->line : "(end of output)");
            return -1;
        }
        t[i] = bench_mcp_now_us() - t0;
    }
    double total = bench_mcp_now_us() - start;
    if (bytes) *bytes = strlen(c->line);
    qsort(t, (size_t)calls, sizeof *t, bench_mcp_compare);
    return total;
}

#endif
