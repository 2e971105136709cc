/* bench_debug - what armed breakpoints cost: warp speed of a C64 session in
 * the real mcphost binary (over stdio, through execution_run/pause), with
 * the instruction history and write log on and off (each alone), with
 * nothing armed, with the traces on (frame trace, chip event log, cycle
 * counter), with the profiler and code/data log on (profile_start),
 * then with 100 exec breakpoints and 10 write watchpoints
 * (none of which fires, so the run measures the hooks' lookups), then with
 * a conditional exec breakpoint on the KERNAL's keyboard loop that is hit
 * all the time and never true. Prints emulated MHz and the ratio to the
 * unarmed figure; never asserts. Then the time-travel cost (issue #18):
 * fresh hosts with the snapshot ring on and off (MCPHOST_TRAVEL=off) and
 * the history rings on and off, medians of three. (Before that section
 * the first host keeps its ring on, so "nothing armed" includes it.)
 *
 * Usage: bench_debug [seconds-per-run] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_mcp.h"

#define RUNS 3

/* Best emulated MHz over RUNS warp runs of `seconds` each. */
static double measure(bench_mcp *c, double seconds)
{
    double best = 0;
    for (int i = 0; i < RUNS; i++) {
        if (bench_mcp_call(c, "execution_get_state", "{}") != 0) return -1;
        double cycles0 = bench_mcp_number(c, "cycles");
        double t0 = bench_mcp_now_us();
        if (bench_mcp_call(c, "execution_run", "{\"warp\":true}") != 0) return -1;
        usleep((useconds_t)(seconds * 1e6));
        if (bench_mcp_call(c, "execution_pause", "{}") != 0) return -1;
        double took = bench_mcp_now_us() - t0;
        double mhz = (bench_mcp_number(c, "cycles") - cycles0) / took;
        if (mhz > best) best = mhz;
    }
    return best;
}

/* CPU seconds (user + system) the process has used, from /proc; -1 when
 * unknown. On a shared machine emulated cycles per CPU second are steadier
 * than per wall second. */
static double cpu_seconds(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name may hold spaces */
    unsigned long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
                     &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double median3(double v[RUNS])
{
    for (int i = 1; i < RUNS; i++) /* insertion sort */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[RUNS / 2];
}

/* Median emulated MHz of RUNS warp runs of `seconds` each, per wall time
 * and (*cpu_mhz) per CPU time of the host process. */
static double measure_median(bench_mcp *c, double seconds, double *cpu_mhz)
{
    double mhz[RUNS], cpu[RUNS];
    for (int i = 0; i < RUNS; i++) {
        if (bench_mcp_call(c, "execution_get_state", "{}") != 0) return -1;
        double cycles0 = bench_mcp_number(c, "cycles");
        double t0 = bench_mcp_now_us(), c0 = cpu_seconds(c->pid);
        if (bench_mcp_call(c, "execution_run", "{\"warp\":true}") != 0) return -1;
        usleep((useconds_t)(seconds * 1e6));
        if (bench_mcp_call(c, "execution_pause", "{}") != 0) return -1;
        double ran = bench_mcp_number(c, "cycles") - cycles0;
        mhz[i] = ran / (bench_mcp_now_us() - t0);
        double used = cpu_seconds(c->pid) - c0;
        cpu[i] = used > 0 ? ran / used / 1e6 : 0;
    }
    *cpu_mhz = median3(cpu);
    return median3(mhz);
}

/* One C64 host booted to READY with the history rings set (sizes) and the
 * time-travel snapshot ring on or off (MCPHOST_TRAVEL); median MHz. */
static double travel_run(const char *exe, double seconds, int ring, int history, double *cpu_mhz)
{
    setenv("MCPHOST_TRAVEL", ring ? "on" : "off", 1);
    char *args[] = {(char *)exe, "--log-level", "error", "--machine", "c64", "--transport",
                    "stdio", NULL};
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) return -1;
    const char *insns = history ? "{\"size\":65536}" : "{\"size\":0}";
    const char *writes = history ? "{\"address\":0,\"size\":65536}" : "{\"address\":0,\"size\":0}";
    double mhz = -1;
    if (bench_mcp_call(&c, "execution_run_until", "{\"frames\":150,\"warp\":true}") == 0 &&
        bench_mcp_call(&c, "trace_instructions", insns) == 0 &&
        bench_mcp_call(&c, "memory_history", writes) == 0)
        mhz = measure_median(&c, seconds, cpu_mhz);
    bench_mcp_stop(&c);
    unsetenv("MCPHOST_TRAVEL");
    return mhz;
}

/* Issue #18's budget: warp speed with the instruction history, the write
 * log and the time-travel snapshot ring all on is at least 60% of the
 * speed with all of them off. Fresh hosts, medians of RUNS. */
static int time_travel_cost(const char *exe, double seconds)
{
    static const struct {
        const char *what;
        int ring, history;
    } runs[] = {
        {"history + write log + snapshot ring on", 1, 1},
        {"history + write log on, ring off", 0, 1},
        {"snapshot ring alone", 1, 0},
        {"all off", 0, 0},
    };
    double wall[4], cpu[4];
    for (int i = 0; i < 4; i++) {
        wall[i] = travel_run(exe, seconds, runs[i].ring, runs[i].history, &cpu[i]);
        if (wall[i] <= 0) {
            fprintf(stderr, "bench_debug: a time-travel run failed\n");
            return 1;
        }
    }
    printf("time travel (fresh hosts, median of %d runs of %.1f s; per wall second and per CPU "
           "second of mcphost; budget: all on >= 60%% of all off):\n", RUNS, seconds);
    for (int i = 0; i < 4; i++)
        printf("  %-44s %7.2f MHz (%3.0f%%)  %7.2f MHz/CPU-s (%3.0f%%)\n", runs[i].what, wall[i],
               100.0 * wall[i] / wall[3], cpu[i], cpu[3] > 0 ? 100.0 * cpu[i] / cpu[3] : 0);
    return 0;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    char exe[4096];
    if (bench_mcp_binary(exe, sizeof exe) != 0 || seconds <= 0) return 2;
    char *args[] = {exe, "--log-level", "error", "--machine", "c64", "--transport", "stdio", NULL};
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) {
        fprintf(stderr, "bench_debug: cannot start %s\n", exe);
        return 1;
    }
    /* Boot to READY first, so every measurement runs the same idle loop. */
    if (bench_mcp_call(&c, "execution_run_until", "{\"frames\":150,\"warp\":true}") != 0) {
        fprintf(stderr, "bench_debug: boot failed: %s\n", c.line);
        return 1;
    }
    printf("bench_debug: C64 at READY, warp, best of %d runs of %.1f s, through mcphost over "
           "stdio\n", RUNS, seconds);
    /* The history rings (issue #18) are on by default: measure all four
     * combinations, then go on with both off as the unarmed base. */
    static const struct {
        const char *what, *insns, *writes;
    } history[] = {
        {"history + write log on (default)", "{\"size\":65536}", "{\"address\":0,\"size\":65536}"},
        {"history on, write log off", "{\"size\":65536}", "{\"address\":0,\"size\":0}"},
        {"history off, write log on", "{\"size\":0}", "{\"address\":0,\"size\":65536}"},
        {"history + write log off", "{\"size\":0}", "{\"address\":0,\"size\":0}"},
    };
    double speed[4] = {0};
    for (int i = 0; i < 4; i++) {
        if (bench_mcp_call(&c, "trace_instructions", history[i].insns) != 0 ||
            bench_mcp_call(&c, "memory_history", history[i].writes) != 0) {
            fprintf(stderr, "bench_debug: %s\n", c.line);
            return 1;
        }
        speed[i] = measure(&c, seconds);
    }
    double base = speed[3];
    for (int i = 0; i < 4; i++)
        printf("  %-44s %7.2f MHz  (%.0f%% of all off)\n", history[i].what, speed[i],
               100.0 * speed[i] / base);
    printf("  %-44s %7.2f MHz\n", "nothing armed (history off from here)", base);

    /* The traces (issue #18), each alone and then all three, with the
     * history off: a frame trace of every chip register until stopped, the
     * chip event log, a cycle counter on the KERNAL's IRQ handler. */
    static const struct {
        const char *what, *tool, *args;
    } traces[] = {
        {"frame trace on (all chips, until stopped)", "trace_frame_start", "{\"frames\":0}"},
        {"+ chip event log on", "trace_events_get", "{\"size\":65536,\"count\":1}"},
        {"+ cycle counter on $EA31", "trace_cycles_get", "{\"start\":\"$EA31\"}"},
    };
    for (int i = 0; i < 3; i++) {
        if (bench_mcp_call(&c, traces[i].tool, traces[i].args) != 0) {
            fprintf(stderr, "bench_debug: %s\n", c.line);
            return 1;
        }
        double traced = measure(&c, seconds);
        printf("  %-44s %7.2f MHz  (%.0f%% of all off)\n", traces[i].what, traced,
               100.0 * traced / base);
    }
    if (bench_mcp_call(&c, "trace_frame_stop", "{}") != 0 ||
        bench_mcp_call(&c, "trace_events_get", "{\"size\":0}") != 0 ||
        bench_mcp_call(&c, "trace_cycles_reset", "{\"remove\":true}") != 0) {
        fprintf(stderr, "bench_debug: %s\n", c.line);
        return 1;
    }
    /* The profiler costs only while on: measured alone, then stopped. */
    if (bench_mcp_call(&c, "profile_start", "{}") != 0) {
        fprintf(stderr, "bench_debug: %s\n", c.line);
        return 1;
    }
    double profiled = measure(&c, seconds);
    if (bench_mcp_call(&c, "profile_stop", "{}") != 0) return 1;
    printf("  %-44s %7.2f MHz  (%.0f%% of all off)\n", "profiler + code/data log on (history off)",
           profiled, 100.0 * profiled / base);
    double stopped = measure(&c, seconds);
    printf("  %-44s %7.2f MHz  (%.0f%% of all off)\n", "profiler stopped again", stopped,
           100.0 * stopped / base);

    char bp[160];
    for (int i = 0; i < 100; i++) {
        snprintf(bp, sizeof bp, "{\"address\":%d}", 0xC000 + 3 * i);
        if (bench_mcp_call(&c, "breakpoints_set", bp) != 0) return 1;
    }
    for (int i = 0; i < 10; i++) {
        snprintf(bp, sizeof bp, "{\"address\":%d,\"on\":\"write\"}", 0xC200 + i);
        if (bench_mcp_call(&c, "breakpoints_memory_watch", bp) != 0) return 1;
    }
    double armed = measure(&c, seconds);
    printf("  %-44s %7.2f MHz  (%.0f%% of unarmed)\n", "100 exec breakpoints + 10 watchpoints",
           armed, 100.0 * armed / base);

    /* A watchpoint on the screen (written every cursor blink) and a
     * breakpoint in the IRQ handler, both with conditions that stay false. */
    if (bench_mcp_call(&c, "breakpoints_memory_watch",
                       "{\"address\":\"$0400\",\"length\":1000,\"on\":\"write\","
                       "\"condition\":\"value == $FF && a == $FF\"}") != 0 ||
        bench_mcp_call(&c, "breakpoints_set",
                       "{\"address\":\"$EA31\",\"condition\":\"x == $FF && y == $FF\"}") != 0) {
        fprintf(stderr, "bench_debug: %s\n", c.line);
        return 1;
    }
    double busy = measure(&c, seconds);
    printf("  %-44s %7.2f MHz  (%.0f%% of unarmed)\n", "+ conditional hits on $0400-$07E7, $EA31",
           busy, 100.0 * busy / base);
    bench_mcp_stop(&c);
    return time_travel_cost(exe, seconds);
}
