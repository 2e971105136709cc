/* bench_travel_reach - how far back time travel's snapshot ring reaches
 * (issue #18: 60 s within 3 MiB) on workloads whose state changes much,
 * in the real mcphost binary over stdio: the C64, VIC-20 and Plus/4 with a
 * BASIC loop that prints and scrolls the screen, with machine code that
 * writes pseudo-random bytes over RAM all the time (8 KiB; 2 KiB on the
 * unexpanded VIC-20), changing their border and background colours all the
 * time (stripes over the whole picture, which snapshots hold), and both. Each runs
 * `seconds` of emulated time in warp (default 65), then execution_rewind
 * one frame reports the ring: the seconds it reaches back, its bytes and
 * snapshots. Prints the figures; never asserts.
 *
 * The machines' original ROMs come from rom-root (default
 * $MCPHOST_TEST_ROMS, else ../shared/roms) holding C64/, VIC20/ and PLUS4/;
 * the C64 falls back to its built-in ROMs, the others' rows say they were
 * skipped.
 *
 * Usage: bench_travel_reach [seconds] [rom-root] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_mcp.h"

typedef struct machine {
    const char *name;
    const char *rom_sub; /* the ROMs' folder; the C64 falls back to its built-in ones */
    double hz;           /* session cycles per second (PAL) */
    const char *base;    /* where the programs go */
    unsigned fill_from, fill_to; /* pages the random fill rewrites */
    const char *stripes; /* colour registers INCed for the stripes */
} machine;

static const machine machines[] = {
    {"c64", "C64", 985248.0, "$4000", 0x50, 0x70, "$D020\\n        INC $D021"},
    {"vic20", "VIC20", 1108405.0, "$1400", 0x16, 0x1E, "$900F"},
    {"plus4", "PLUS4", 1773447.0, "$4000", 0x50, 0x70, "$FF19\\n        INC $FF15"},
};

enum { WORK_BASIC, WORK_RANDOM, WORK_STRIPES, WORK_BOTH, WORK_COUNT };
static const char *const work_names[] = {"BASIC scroll", "random fill", "colour stripes",
                                         "fill+stripes"};

static const char basic_loop[] =
    "{\"text\":\"10 PRINT RND(1),RND(1),RND(1):GOTO 10\\nRUN\\n\"}";

/* Pseudo-random bytes (a 16-bit Galois LFSR, taps $B400: no repeat within
 * the area) XORed over the fill pages again and again, interrupts off:
 * changes zlib cannot squeeze; with stripes, the colours change at every
 * byte too. */
static void fill_source(char *out, size_t size, const machine *m, int stripes)
{
    char inc[96] = "";
    if (stripes) snprintf(inc, sizeof inc, "        INC %s\\n", m->stripes);
    snprintf(out, size,
             "start   SEI\\n        LDA #1\\n        STA $FD\\n        LDA #0\\n        STA $FE\\n"
             "again   LDA #$00\\n        STA $FB\\n        LDA #$%02X\\n        STA $FC\\n"
             "        LDY #0\\n"
             "loop    LSR $FE\\n        ROR $FD\\n        BCC keep\\n"
             "        LDA $FE\\n        EOR #$B4\\n        STA $FE\\n"
             "keep    LDA $FD\\n        EOR ($FB),Y\\n        STA ($FB),Y\\n%s"
             "        INY\\n        BNE loop\\n"
             "        INC $FC\\n        LDA $FC\\n        CMP #$%02X\\n        BNE loop\\n"
             "        JMP again\\n",
             m->fill_from, inc, m->fill_to);
}

static int dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Runs one workload; prints a row. */
static void measure(const char *exe, const machine *m, const char *roms, int work, double seconds)
{
    char rom_dir[1024] = "";
    if (m->rom_sub) {
        snprintf(rom_dir, sizeof rom_dir, "%s/%s", roms, m->rom_sub);
        if (!dir_exists(rom_dir) && strcmp(m->name, "c64") == 0) {
            rom_dir[0] = 0; /* the built-in ROMs */
        } else if (!dir_exists(rom_dir)) {
            printf("%-6s %-14s skipped: no ROMs in %s\n", m->name, work_names[work], rom_dir);
            return;
        }
    }
    char *args[12];
    int n = 0;
    args[n++] = (char *)exe;
    args[n++] = "--log-level";
    args[n++] = "error";
    args[n++] = "--machine";
    args[n++] = (char *)m->name;
    args[n++] = "--transport";
    args[n++] = "stdio";
    if (rom_dir[0]) {
        args[n++] = "--rom-dir";
        args[n++] = rom_dir;
    }
    args[n] = NULL;
    bench_mcp c;
    if (bench_mcp_start(&c, args) != 0) {
        printf("%-6s cannot start %s\n", m->name, exe);
        return;
    }
    char call[1536];
    int ok = bench_mcp_call(&c, "execution_run_until",
                            "{\"cycles\":3000000,\"warp\":true,\"timeout_ms\":120000}") == 0;
    if (ok && work != WORK_BASIC) {
        char source[1024];
        if (work == WORK_RANDOM || work == WORK_BOTH)
            fill_source(source, sizeof source, m, work == WORK_BOTH);
        else
            snprintf(source, sizeof source, "start   SEI\\nloop    INC %s\\n        JMP loop\\n",
                     m->stripes);
        snprintf(call, sizeof call, "{\"address\":\"%s\",\"source\":\"%s\"}", m->base, source);
        ok = bench_mcp_call(&c, "assemble", call) == 0;
        snprintf(call, sizeof call, "{\"pc\":\"%s\"}", m->base);
        ok = ok && bench_mcp_call(&c, "registers_set", call) == 0;
    } else if (ok) {
        ok = bench_mcp_call(&c, "keyboard_type", basic_loop) == 0;
    }
    snprintf(call, sizeof call, "{\"cycles\":%.0f,\"warp\":true,\"timeout_ms\":600000}",
             seconds * m->hz);
    double t0 = bench_mcp_now_us();
    ok = ok && bench_mcp_call(&c, "execution_run_until", call) == 0;
    double wall = (bench_mcp_now_us() - t0) / 1e6;
    ok = ok && bench_mcp_call(&c, "execution_rewind", "{\"frames\":1}") == 0;
    if (ok) {
        double from = bench_mcp_number(&c, "from_cycle"), oldest = bench_mcp_number(&c, "oldest_cycle");
        double bytes = bench_mcp_number(&c, "ring_bytes");
        double snaps = bench_mcp_number(&c, "ring_snapshots");
        printf("%-6s %-14s reaches %5.1f s back after %.0f s; ring %.2f MiB in %.0f snapshots "
               "(%.1f s wall)\n",
               m->name, work_names[work], (from - oldest) / m->hz, seconds,
               bytes / 1048576.0, snaps, wall);
    } else {
        printf("%-6s %-14s failed: %.300s\n", m->name, work_names[work],
               c.line ? c.line : "(no answer)");
    }
    bench_mcp_stop(&c);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 65.0;
    if (seconds <= 0) seconds = 65.0;
    const char *roms = argc > 2 ? argv[2] : getenv("MCPHOST_TEST_ROMS");
    if (!roms || !*roms) roms = "../shared/roms";
    char exe[1024];
    if (bench_mcp_binary(exe, sizeof exe) != 0) {
        fprintf(stderr, "bench_travel_reach: mcphost not found beside this program\n");
        return 1;
    }
    printf("time travel's snapshot ring after %.0f s of emulated time (warp)\n", seconds);
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
        for (int work = WORK_BASIC; work < WORK_COUNT; work++) measure(exe, &machines[i], roms, work, seconds);
    return 0;
}
