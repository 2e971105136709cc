/* bench_bare6502 - emulated MHz of the bare6502 machine plugin on a
 * CPU-bound program: the sieve of Eratosthenes of bench_cpu6502 (8192
 * flags, then a prime count), run a fixed number of passes, after which
 * the program writes the prime count's low byte to the exit port.
 *
 * Measured:
 *   core alone     mh_cpu6502_run() with trivial RAM bus callbacks: the
 *                  floor of any machine built on the bus callbacks;
 *   plugin run()   the machine-bare6502.so plugin, dlopen()ed and driven
 *                  through its mh_machine_desc by a minimal host here, in
 *                  the host's 5 ms slices (5000 cycles at 1 MHz) and in
 *                  1M-cycle slices;
 *   mcphost        the real binary, `--machine bare6502 --transport none
 *                  --warp`, wall time including process start-up.
 * Each run is checked: exit code 4 (1028 primes), the count in memory.
 * Every figure is the best of 3 runs (build machines are shared). Prints
 * numbers only; never asserts timing.
 *
 * Usage: bench_bare6502 [seconds [plugin.so [mcphost]]]
 *   defaults: 1 s; the plugin and binary of the build tree this bench is in.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_host.h"
#include "bench_sieve.h"
#include "mcphost/asm6502.h"
#include "mcphost/cpu6502.h"
#include "mcphost/mcphost.h"


/* %u: the number of passes (1..65535). */
static const char program_format[] =
    BENCH_SIEVE_SYMBOLS
    "PASSES = %u\n"
    BENCH_SIEVE_CODE
    "        BNE passed\n"
    "        INC passes+1\n"
    "passed: LDA passes\n"
    "        CMP #<PASSES\n"
    "        BNE again\n"
    "        LDA passes+1\n"
    "        CMP #>PASSES\n"
    "        BNE again\n"
    "        LDA result\n"
    "        SEC\n"
    "        SBC #2           ; flags 0 and 1 are not primes\n"
    "        STA $F002        ; exit with the count's low byte\n"
    "again:  JMP start\n";

#define EXPECTED_EXIT (1028 & 0xFF)
#define REPEATS 3

/* Assembles the program for `passes` passes into a .prg at path; also
 * leaves the image in image (for the core-alone run). */
static int write_program(const char *path, unsigned passes, uint8_t *image)
{
    char source[sizeof program_format + 16];
    snprintf(source, sizeof source, program_format, passes);
    mh_asm6502_result result;
    if (mh_asm6502_assemble(source, strlen(source), NULL, &result) != MH_OK) {
        fprintf(stderr, "bench_bare6502: the program does not assemble: %s\n", result.error);
        mh_asm6502_result_free(&result);
        return -1;
    }
    uint16_t lo = result.chunks[0].address;
    size_t size = result.byte_count;
    memset(image, 0, 65536);
    mh_asm6502_to_image(&result, image, NULL);
    mh_asm6502_result_free(&result);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    uint8_t header[2] = {(uint8_t)(lo & 0xFF), (uint8_t)(lo >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(image + lo, 1, size, f);
    return fclose(f);
}

/* Runs the plugin on the program until it exits; returns seconds, stores
 * cycles and the exit code. */
static double run_plugin(const char *program_path, uint64_t slice, uint64_t *cycles,
                         int *exit_code, unsigned *primes)
{
    struct mh_session session = {0};
    char options[PATH_MAX + 64], error[512];
    snprintf(options, sizeof options, "{\"program\":\"%s\",\"output\":\"/dev/null\"}",
             program_path);
    void *instance = NULL;
    if (bench_machine.create(bench_machine.user_data, &session, options, &instance, error, sizeof error) !=
        MH_OK) {
        fprintf(stderr, "bench_bare6502: create failed: %s\n", error);
        exit(1);
    }
    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    *cycles = 0;
    double t0 = bench_now();
    do {
        bench_machine.run(instance, slice, &result);
        *cycles += result.cycles;
    } while (result.stop == MH_RUN_BUDGET);
    double took = bench_now() - t0;
    *exit_code = result.stop == MH_RUN_EXIT ? result.exit_code : -1;
    uint8_t count[2] = {0, 0};
    if (bench_memory_iface) bench_memory_iface->peek(bench_memory_context, 0, 0xF0, count, 2);
    *primes = (unsigned)(count[0] | count[1] << 8) - 2u;
    bench_machine.destroy(instance);
    return took;
}

/* ---- the SDK core alone, for comparison ---- */

static uint8_t ram_read(void *user, uint16_t addr) { return ((uint8_t *)user)[addr]; }
static void ram_write(void *user, uint16_t addr, uint8_t value) { ((uint8_t *)user)[addr] = value; }

static double run_core(const uint8_t *image, uint64_t cycles)
{
    static uint8_t mem[65536];
    memcpy(mem, image, sizeof mem);
    mem[0xFFFC] = 0x00;
    mem[0xFFFD] = 0x08;
    mh_cpu6502 cpu;
    mh_cpu6502_desc desc = {0};
    desc.read = ram_read;
    desc.write = ram_write;
    desc.user = mem;
    mh_cpu6502_init(&cpu, &desc);
    double t0 = bench_now();
    for (uint64_t left = cycles; left;) left -= mh_cpu6502_run(&cpu, left > 1000000 ? 1000000u : (uint32_t)left);
    return bench_now() - t0;
}

/* ---- the real binary ---- */

static double run_binary(const char *mcphost, const char *program_path, int *exit_code)
{
    char option[PATH_MAX + 16];
    snprintf(option, sizeof option, "program=%s", program_path);
    const char *argv[] = {mcphost, "--machine", "bare6502", "--transport", "none", "--warp",
                          "--log-level", "warning", "--config", option, NULL};
    return bench_run_binary(argv, exit_code);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    if (seconds <= 0) seconds = 1.0;
    char exe_dir[PATH_MAX], plugin[PATH_MAX + 64], mcphost[PATH_MAX + 16];
    bench_exe_dir(exe_dir, sizeof exe_dir);
    snprintf(plugin, sizeof plugin, "%s", argc > 2 ? argv[2] : "");
    if (!plugin[0]) snprintf(plugin, sizeof plugin, "%s/../lib/mcphost/plugins/machine-bare6502.so", exe_dir);
    snprintf(mcphost, sizeof mcphost, "%s", argc > 3 ? argv[3] : "");
    if (!mcphost[0]) snprintf(mcphost, sizeof mcphost, "%s/mcphost", exe_dir);

    void *plugin_data = NULL;
    const mh_plugin_entry *entry = bench_load_machine(plugin, "bare6502", &plugin_data);

    char dir[] = "/tmp/bench_bare6502_XXXXXX", path[64];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/sieve.prg", dir);
    static uint8_t image[65536];

    /* Calibrate: cycles of one pass, then enough passes for `seconds`. */
    uint64_t cycles = 0;
    int code = 0;
    unsigned primes = 0;
    if (write_program(path, 1, image) != 0) return 1;
    double took = run_plugin(path, 1000000, &cycles, &code, &primes);
    uint64_t per_pass = cycles;
    unsigned passes = (unsigned)(seconds * 250e6 / (double)per_pass) + 1;
    if (passes > 65535) passes = 65535;
    if (write_program(path, passes, image) != 0) return 1;
    printf("bench_bare6502: sieve of 8192 + prime count, %u passes of %llu cycles\n", passes,
           (unsigned long long)per_pass);

    /* The build machines are shared: every figure is the best of REPEATS. */
    uint64_t total = per_pass * passes;
    double best = 1e30;
    for (int r = 0; r < REPEATS; r++) {
        took = run_core(image, total);
        if (took < best) best = took;
    }
    printf("  %-36s %7.1f MHz  (%llu cycles in %.2f s)\n", "core alone, run() + bus callbacks",
           (double)total / best / 1e6, (unsigned long long)total, best);

    static const uint64_t slices[] = {5000, 1000000};
    for (size_t i = 0; i < 2; i++) {
        best = 1e30;
        int ok = 1;
        for (int r = 0; r < REPEATS; r++) {
            took = run_plugin(path, slices[i], &cycles, &code, &primes);
            if (took < best) best = took;
            ok = ok && code == EXPECTED_EXIT && primes == 1028;
        }
        char label[64];
        snprintf(label, sizeof label, "plugin run(), %llu-cycle slices",
                 (unsigned long long)slices[i]);
        printf("  %-36s %7.1f MHz  (%llu cycles in %.2f s; exit %d, %u primes)%s\n", label,
               (double)cycles / best / 1e6, (unsigned long long)cycles, best, code, primes,
               ok ? "" : "  WRONG RESULT");
    }

    best = 1e30;
    int ok = 1;
    for (int r = 0; r < REPEATS; r++) {
        took = run_binary(mcphost, path, &code);
        if (took < best) best = took;
        ok = ok && code == EXPECTED_EXIT;
    }
    printf("  %-36s %7.1f MHz  (%llu cycles in %.2f s wall, start-up included; exit %d)%s\n",
           "mcphost --transport none --warp", (double)cycles / best / 1e6,
           (unsigned long long)cycles, best, code, ok ? "" : "  WRONG EXIT");
    printf("  (best of %d runs each; %.1f emulated MHz = %.0fx a 1 MHz 6502 in real time)\n",
           REPEATS, (double)cycles / best / 1e6, (double)cycles / best / 1e6);

    if (entry->deinit) entry->deinit(plugin_data);
    remove(path);
    rmdir(dir);
    return 0;
}
