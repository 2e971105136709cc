/* bench_host.h - what the machine-plugin benches share: a minimal host that
 * dlopen()s a machine plugin and hands it just the registry and session
 * services it needs, a monotonic clock, the bench's own directory, and a
 * timed run of the real mcphost binary. Header-only (each bench is one
 * program); the state below is per program. */
#ifndef MH_BENCH_HOST_H
#define MH_BENCH_HOST_H

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcphost/mcphost.h"

extern char **environ;

struct mh_session {
    int chips;
};

/* The machine the plugin registered, and its memory interface once a
 * session was created. */
static mh_machine_desc bench_machine;
static int bench_have_machine;
static const mh_memory_iface *bench_memory_iface;
static void *bench_memory_context;
/* Its video and audio interfaces (NULL when it has none). */
static const mh_video_iface *bench_video_iface;
static void *bench_video_context;
static const mh_audio_iface *bench_audio_iface;
static void *bench_audio_context;
static const char *bench_machine_name = "bench";

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline mh_status bench_add_machine(const mh_host *host, const mh_machine_desc *desc)
{
    (void)host;
    bench_machine = *desc;
    bench_have_machine = 1;
    return MH_OK;
}

static inline mh_status bench_add_chip(mh_session *session, const mh_chip *chip)
{
    session->chips++;
    if (strcmp(chip->interface_id, MH_IFACE_MEMORY) == 0) {
        bench_memory_iface = chip->vtable;
        bench_memory_context = chip->context;
    } else if (strcmp(chip->interface_id, MH_IFACE_VIDEO) == 0) {
        bench_video_iface = chip->vtable;
        bench_video_context = chip->context;
    } else if (strcmp(chip->interface_id, MH_IFACE_AUDIO) == 0) {
        bench_audio_iface = chip->vtable;
        bench_audio_context = chip->context;
    }
    return MH_OK;
}

static inline const char *bench_session_name(mh_session *session)
{
    (void)session;
    return "bench-1";
}

static inline const char *bench_session_machine(mh_session *session)
{
    (void)session;
    return bench_machine_name;
}

static inline const void *bench_get_service(const mh_host *host, const char *id)
{
    static mh_registry_service registry;
    static mh_session_service sessions;
    (void)host;
    registry.struct_size = sizeof registry;
    registry.add_machine = bench_add_machine;
    sessions.struct_size = sizeof sessions;
    sessions.name = bench_session_name;
    sessions.machine = bench_session_machine;
    sessions.add_chip = bench_add_chip;
    if (strcmp(id, MH_REGISTRY_SERVICE_ID) == 0) return &registry;
    if (strcmp(id, MH_SESSION_SERVICE_ID) == 0) return &sessions;
    return NULL; /* no log service: a plugin must cope */
}

/* The directory this bench program is in (for the build tree's plugins and
 * mcphost next to it). */
static inline void bench_exe_dir(char *out, size_t size)
{
    snprintf(out, size, ".");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    snprintf(out, size, "%s", exe);
}

/* Loads a machine plugin and runs its init; exits with a message on failure.
 * The machine it registered is in bench_machine. */
static inline const mh_plugin_entry *bench_load_machine(const char *path, const char *machine_name,
                                                        void **plugin_data)
{
    static mh_host host;
    bench_machine_name = machine_name;
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const mh_plugin_entry *entry = so ? dlsym(so, MH_ENTRY_SYMBOL) : NULL;
    if (!entry) {
        fprintf(stderr, "bench: cannot load %s: %s\n", path, dlerror());
        exit(1);
    }
    host.struct_size = sizeof host;
    host.abi_major = MH_ABI_MAJOR;
    host.abi_minor = MH_ABI_MINOR;
    host.host_version = "bench";
    host.get_service = bench_get_service;
    if (entry->init(&host, plugin_data) != MH_OK || !bench_have_machine) {
        fprintf(stderr, "bench: %s did not register a machine\n", path);
        exit(1);
    }
    return entry;
}

/* The largest peak resident set of the binaries bench_run_binary ran, in
 * KiB (the kernel's ru_maxrss of each child). */
static long bench_binary_peak_kib;

/* Runs argv (argv[0] is the program) and waits; returns the wall seconds
 * and stores the exit code (-1 when it did not start or exit normally). */
static inline double bench_run_binary(const char *const *argv, int *exit_code)
{
    pid_t pid;
    double t0 = bench_now();
    int rc = posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);
    if (rc != 0) {
        fprintf(stderr, "bench: cannot start %s: %s\n", argv[0], strerror(rc));
        *exit_code = -1;
        return 0;
    }
    int status = 0;
    struct rusage usage = {0};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    double took = bench_now() - t0;
    if (usage.ru_maxrss > bench_binary_peak_kib) bench_binary_peak_kib = usage.ru_maxrss;
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return took;
}

#endif
