/* c64.machine, c64.input, c64.snapshot, c64.memory, c64.options - the C64
 * machine in-process, through the c64_core library (no host, no .so):
 * booting the Open ROMs to READY (PAL and NTSC), typing through the KERNAL
 * keyboard buffer, scanning the keyboard matrix and the joysticks with a
 * program, the exact cycle a raster IRQ handler starts, the debug-cart
 * exit, a jammed CPU with the chips still running, debugger hooks, the
 * memory spaces, a snapshot round trip, and option/ROM errors. Needs
 * /usr/share/open-roms/C64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c64.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_c64_common.h"

/* Boot time: Open ROMs reach READY well within this. */
#define BOOT_CYCLES 3000000u

static c64 *boot(const char *options)
{
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "c64_new(%s): %s\n", options, error);
        return NULL;
    }
    mh_run_result r = {0};
    c64_run(m, BOOT_CYCLES, &r);
    return m;
}

static const char *screen(const c64 *m)
{
    static char text[25 * 41 + 1];
    c64t_screen_text(m->p.ram + 0x0400, text);
    return text;
}

static uint64_t run(c64 *m, uint64_t cycles, uint32_t *stop)
{
    mh_run_result r = {0};
    c64_run(m, cycles, &r);
    if (stop) *stop = r.stop;
    return r.cycles;
}

/* Puts an assembled program into RAM and jumps to `start` (at a boundary). */
static int load_and_jump(c64 *m, const char *source, uint16_t start)
{
    static uint8_t image[65536];
    int lo, hi;
    if (c64t_assemble(source, image, &lo, &hi) != 0) return -1;
    memcpy(m->p.ram + lo, image + lo, (size_t)(hi - lo + 1));
    if (!mh_cpu6502_at_boundary(&m->cpu)) return -1;
    m->cpu.pc = start;
    return 0;
}

/* ---- c64.machine ---- */

static void test_boot_pal(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const char *text = screen(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "READY."));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "PAL"));
    CU_ASSERT_EQUAL(m->clock_hz, 985248u);
    /* Frames complete: a red border shows in the next complete frame. */
    CU_ASSERT_TRUE(m->p.frames_done >= 100);
    c64_io_write(m, 0xD020, 2);
    run(m, 2 * 63 * 312, NULL);
    const uint8_t *frame = m->p.fb[m->p.fb_back ^ 1];
    CU_ASSERT_EQUAL(frame[0], 2);
    CU_ASSERT_EQUAL(frame[271 * 384 + 383], 2);
    CU_ASSERT_EQUAL(frame[100 * 384 + 200], m->vic.reg[0x21] & 15);
    c64_free(m);
}

static void test_boot_ntsc(void)
{
    c64 *m = boot("{\"video\":\"ntsc\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const char *text = screen(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "READY."));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "NTSC"));
    CU_ASSERT_EQUAL(m->clock_hz, 1022727u);
    CU_ASSERT_EQUAL(m->vic.cycles_per_line, 65);
    c64_free(m);
}

static void test_two_machines_share_nothing(void)
{
    c64 *a = boot("{}");
    c64 *b = boot("{\"video\":\"ntsc\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    char error[256];
    CU_ASSERT_EQUAL(c64_type_text(a, "PRINT \"AB\"\n", error, sizeof error), MH_OK);
    a->p.ram[0xC000] = 0x55;
    run(a, 1000000, NULL);
    run(b, 1000000, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(a), "\nAB  "));
    CU_ASSERT_PTR_NULL(strstr(screen(b), "AB"));
    CU_ASSERT_NOT_EQUAL(b->p.ram[0xC000], 0x55);
    CU_ASSERT_NOT_EQUAL(a->vic.cycles_per_line, b->vic.cycles_per_line);
    c64_free(a);
    c64_free(b);
}

static void test_run_budget(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    for (uint64_t budget = 1; budget < 5000; budget = budget * 3 + 1) {
        uint64_t before = m->p.run.cycles;
        uint32_t stop;
        uint64_t ran = run(m, budget, &stop);
        CU_ASSERT_EQUAL(stop, MH_RUN_BUDGET);
        CU_ASSERT_TRUE(ran >= budget && ran < budget + 60); /* one instruction, maybe stalled */
        CU_ASSERT_EQUAL(m->p.run.cycles - before, ran);
        CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
    }
    c64_free(m);
}

static void test_debugcart_exit(void)
{
    c64 *m = boot("{\"debugcart\":true}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    /* SEI; NOP x 3; LDA #$2A; STA $D7FF (the write is the 4th cycle). */
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nNOP\nNOP\nNOP\nLDA #$2A\nSTA $D7FF\n"
                                           "LDA #1\nSTA $D7FF\n",
                                        0xC000),
                          0);
    uint64_t vic_before = m->vic.ticks;
    mh_run_result r = {0};
    c64_run(m, 100000, &r);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x2A);
    /* 2 + 3*2 + 2 + 4 cycles, plus any bad-line stall the VIC made. */
    CU_ASSERT_EQUAL(m->vic.ticks - vic_before, r.cycles);
    CU_ASSERT_TRUE(r.cycles >= 14 && r.cycles <= 14 + 43);
    CU_ASSERT_EQUAL(m->cpu.pc, 0xC009);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
    /* The next run goes on with the next instruction. */
    c64_run(m, 100000, &r);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 1);

    /* Without debugcart the write is a SID register write. */
    c64 *plain = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(plain, "*= $C000\nLDA #$2A\nSTA $D7FF\nJMP *\n", 0xC000), 0);
    c64_run(plain, 10000, &r);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_EQUAL(plain->sid.chip.regs[0x1F], 0x2A);
    c64_free(plain);
    c64_free(m);
}

static void test_rmw_exit(void)
{
    c64 *m = boot("{\"debugcart\":true}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    /* INC $D7FF writes twice: the first write (the unmodified value; the
     * debug-cart register reads $FF) ends the run, the second cycle is real. */
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nINC $D7FF\nJMP *\n", 0xC000), 0);
    uint64_t vic_before = m->vic.ticks;
    mh_run_result r = {0};
    c64_run(m, 100000, &r);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0xFF);
    CU_ASSERT_EQUAL(m->vic.ticks - vic_before, r.cycles);
    CU_ASSERT_EQUAL(m->cpu.pc, 0xC004);
    c64_free(m);
}

static void test_jam_keeps_clock(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nNOP\nJAM\n", 0xC000), 0);
    uint32_t stop;
    run(m, 100000, &stop);
    CU_ASSERT_EQUAL(stop, MH_RUN_JAMMED);
    CU_ASSERT_TRUE(m->cpu.jammed);
    uint64_t frames = m->p.frames_done, ticks = m->vic.ticks;
    uint64_t ran = run(m, 100000, &stop);
    CU_ASSERT_EQUAL(stop, MH_RUN_JAMMED);
    CU_ASSERT_EQUAL(ran, 100000);
    CU_ASSERT_EQUAL(m->vic.ticks - ticks, 100000);
    CU_ASSERT_TRUE(m->p.frames_done > frames);
    c64_free(m);
}

static int hook_calls;
static uint16_t hook_stop_at;

static int stop_hook(void *user, uint16_t pc)
{
    (void)user;
    hook_calls++;
    return pc == hook_stop_at;
}

static void test_hooks_break(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nloop: INX\nNOP\nJMP loop\n", 0xC000), 0);
    hook_calls = 0;
    hook_stop_at = 0xC002;
    c64_set_debug_hooks(m, stop_hook, NULL, NULL);
    uint32_t stop;
    run(m, 100000, &stop);
    CU_ASSERT_EQUAL(stop, MH_RUN_BREAK);
    CU_ASSERT_EQUAL(m->cpu.pc, 0xC002);
    uint8_t x = m->cpu.x;
    run(m, 100000, &stop); /* resumes the instruction, stops at the next pass */
    CU_ASSERT_EQUAL(stop, MH_RUN_BREAK);
    CU_ASSERT_EQUAL(m->cpu.x, (uint8_t)(x + 1));
    c64_set_debug_hooks(m, NULL, NULL, NULL);
    run(m, 10000, &stop);
    CU_ASSERT_EQUAL(stop, MH_RUN_BUDGET);
    CU_ASSERT_PTR_NULL(m->cpu.links.sync);
    c64_free(m);
}

/* The autostart hook and a debugger's hook run together. */
static void test_hooks_chain_autostart(void)
{
    char dir[] = "/tmp/mh_c64_chain_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.prg", dir);
    static const uint8_t prg[] = {0x00, 0xC0, 0xEE, 0x20, 0xD0, 0x4C, 0x00, 0xC0}; /* INC $D020; JMP */
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(prg, 1, sizeof prg, f);
    fclose(f);
    char options[256], error[512];
    snprintf(options, sizeof options, "{\"autostart\":\"%s\"}", path);
    c64 *m = c64_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    hook_calls = 0;
    hook_stop_at = 0xFFFF;
    c64_set_debug_hooks(m, stop_hook, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL(m->cpu.links.sync); /* the machine's chain */
    run(m, BOOT_CYCLES, NULL);
    CU_ASSERT_FALSE(m->p.autostart_pending);
    CU_ASSERT_TRUE(hook_calls > 100000); /* the debugger saw every instruction */
    /* chain gone, the debugger's hook stays (behind the machine's
     * trampoline that syncs the VIC-II: its user is the machine) */
    CU_ASSERT_PTR_NOT_NULL(m->cpu.links.sync);
    CU_ASSERT_PTR_EQUAL(m->cpu.links.hook_user, m);
    CU_ASSERT_PTR_EQUAL(m->dbg_sync, stop_hook);
    /* "SYS49152" was typed: the program runs and changes the border. */
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "SYS49152"));
    CU_ASSERT_EQUAL(m->p.ram[0xC000], 0xEE);
    CU_ASSERT_TRUE(m->cpu.pc >= 0xC000 && m->cpu.pc < 0xC008);
    c64_free(m);
    unlink(path);
    rmdir(dir);
}

/* The raster IRQ handler's first instruction starts in cycle 10 or 11 of
 * the line (IRQ asserted in cycle 1, a NOP in flight, 7 cycles of IRQ
 * sequence), on PAL and NTSC. */
static int irq_seen;
static uint16_t irq_line;
static uint8_t irq_cycle;

static int irq_hook(void *user, uint16_t pc)
{
    const c64 *m = user;
    if (pc == 0xC400 && !irq_seen) {
        irq_seen = 1;
        /* The hook runs before the fetch's cycle is ticked. */
        irq_line = m6569_line(&m->vic);
        irq_cycle = (uint8_t)(m->vic.cycle + 1);
        if (irq_cycle > m->vic.cycles_per_line) {
            irq_cycle = 1;
            irq_line++;
        }
    }
    return 0;
}

static void raster_irq_cycle(const char *options)
{
    c64 *m = boot(options);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char source[4096];
    int n = snprintf(source, sizeof source,
                     "*= $C000\nSEI\nLDA #$7F\nSTA $DC0D\nLDA $DC0D\nLDA #$35\nSTA $01\n"
                     "LDA #$00\nSTA $FFFE\nLDA #$C4\nSTA $FFFF\nLDA #$1B\nSTA $D011\n"
                     "LDA #$80\nSTA $D012\nLDA #1\nSTA $D01A\nSTA $D019\nCLI\nsled:\n");
    for (int i = 0; i < 300; i++) n += snprintf(source + n, sizeof source - (size_t)n, "NOP\n");
    snprintf(source + n, sizeof source - (size_t)n, "JMP sled\n*= $C400\nINC $D019\nRTI\n");
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, source, 0xC000), 0);
    irq_seen = 0;
    c64_set_debug_hooks(m, irq_hook, NULL, m);
    run(m, 100000, NULL);
    CU_ASSERT_TRUE(irq_seen);
    CU_ASSERT_EQUAL(irq_line, 0x80);
    CU_ASSERT_TRUE(irq_cycle == 10 || irq_cycle == 11);
    if (irq_cycle != 10 && irq_cycle != 11)
        fprintf(stderr, "\n%s: handler at line $%X cycle %u\n", options, irq_line, irq_cycle);
    c64_free(m);
}

static void test_raster_irq_cycle(void)
{
    raster_irq_cycle("{}");
    raster_irq_cycle("{\"video\":\"ntsc\"}");
    raster_irq_cycle("{\"vicii_model\":\"6567r56a\"}");
}

/* ---- c64.input ---- */

static void test_typing(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char error[256];
    /* 11 characters: more than the 10-byte buffer, fed in two goes. */
    CU_ASSERT_EQUAL(c64_type_text(m, "PRINT \"HI\"\n", error, sizeof error), MH_OK);
    run(m, 1500000, NULL);
    const char *text = screen(m);
    const char *cmd = strstr(text, "PRINT \"HI\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cmd);
    CU_ASSERT_EQUAL(strncmp(cmd + 41, "HI  ", 4), 0); /* the next line */
    CU_ASSERT_EQUAL(m->p.typed.count, 0);

    /* Lower case types as upper case (Open ROMs' BASIC has strings but
     * no arithmetic yet); unknown characters are refused. */
    CU_ASSERT_EQUAL(c64_type_text(m, "print \"ok\"\n", error, sizeof error), MH_OK);
    run(m, 1500000, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "PRINT \"OK\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "\nOK  "));
    CU_ASSERT_EQUAL(c64_type_text(m, "a{b", error, sizeof error), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "'{'"));
    CU_ASSERT_EQUAL(c64_type_text(m, "tab\there", error, sizeof error), MH_ERR_INVALID_ARGUMENT);
    c64_free(m);
}

static void test_keyboard_matrix(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char *source = c64t_read_program("keyscan.s");
    CU_ASSERT_PTR_NOT_NULL_FATAL(source);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, source, 0xC000), 0);
    free(source);
    const uint8_t *r = m->p.ram + 0xC100;
    /* Keys alone: A (PA1, PB2) and RETURN (PA0, PB1). */
    CU_ASSERT_EQUAL(c64_key(m, "A", 1), MH_OK);
    CU_ASSERT_EQUAL(c64_key(m, "return", 1), MH_OK); /* names ignore case */
    CU_ASSERT_EQUAL(c64_key(m, "NOSUCHKEY", 1), MH_ERR_NOT_FOUND);
    run(m, 20000, NULL);
    CU_ASSERT_TRUE(m->p.ram[0xC120] >= 2);
    CU_ASSERT_EQUAL(r[0], 0xFD); /* column 0 low: RETURN pulls PB1 */
    CU_ASSERT_EQUAL(r[1], 0xFB); /* column 1 low: A pulls PB2 */
    for (int c = 2; c < 8; c++) CU_ASSERT_EQUAL(r[c], 0xFF);
    CU_ASSERT_EQUAL(r[8 + 1], 0xFE); /* row 1 low (PB driven): RETURN pulls PA0 */
    CU_ASSERT_EQUAL(r[8 + 2], 0xFD); /* row 2 low: A pulls PA1 */
    CU_ASSERT_EQUAL(r[8 + 0], 0xFF);
    CU_ASSERT_EQUAL(r[0x10], 0xFF);
    CU_ASSERT_EQUAL(r[0x11], 0xFF);

    /* Joysticks alone: port 2 on PA, port 1 on PB, active low. */
    c64_release_all(m);
    CU_ASSERT_EQUAL(c64_joystick(m, 2, MH_JOY_UP | MH_JOY_FIRE), MH_OK);
    CU_ASSERT_EQUAL(c64_joystick(m, 1, MH_JOY_RIGHT), MH_OK);
    CU_ASSERT_EQUAL(c64_joystick(m, 3, 0), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(c64_joystick(m, 1, 0x20), MH_ERR_INVALID_ARGUMENT);
    run(m, 20000, NULL);
    CU_ASSERT_EQUAL(r[0x10], 0xEE);
    CU_ASSERT_EQUAL(r[0x11], 0xF7);
    for (int c = 0; c < 8; c++) CU_ASSERT_EQUAL(r[c], 0xF7);
    for (int c = 0; c < 8; c++) CU_ASSERT_EQUAL(r[8 + c], 0xEE);

    /* Both: joystick 2 holds PA0 low, so RETURN (PA0, PB1) shows on PB even
     * with PA all high: the joystick-in-port-2 ghost keys of a real C64. */
    CU_ASSERT_EQUAL(c64_key(m, "RETURN", 1), MH_OK);
    run(m, 20000, NULL);
    CU_ASSERT_EQUAL(r[0x11], 0xF5);
    CU_ASSERT_EQUAL(r[5], 0xF5);

    c64_release_all(m);
    run(m, 20000, NULL);
    for (int i = 0; i < 18; i++) CU_ASSERT_EQUAL(r[i], 0xFF);

    /* F2 is SHIFT + F1; a held SHIFT survives releasing F2. */
    CU_ASSERT_EQUAL(c64_key(m, "SHIFT_LEFT", 1), MH_OK);
    CU_ASSERT_EQUAL(c64_key(m, "F2", 1), MH_OK);
    CU_ASSERT_EQUAL(c64_key(m, "F2", 0), MH_OK);
    run(m, 20000, NULL);
    CU_ASSERT_EQUAL(r[1], 0x7F); /* SHIFT_LEFT: PA1, PB7 */
    CU_ASSERT_EQUAL(r[0], 0xFF); /* F1 released */

    /* Every key name the machine lists is accepted. */
    const char *const *names = c64_key_names();
    size_t count = 0;
    for (; names[count]; count++) {
        CU_ASSERT_EQUAL(c64_key(m, names[count], 1), MH_OK);
        CU_ASSERT_EQUAL(c64_key(m, names[count], 0), MH_OK);
    }
    CU_ASSERT_EQUAL(count, 64 + 1 + 8);
    c64_free(m);
}

static int nmi_count;

static int nmi_hook(void *user, uint16_t pc)
{
    (void)user;
    if (pc == 0xC100) nmi_count++;
    return 0;
}

static void test_restore_nmi(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nLDA #$35\nSTA $01\nLDA #$00\nSTA $FFFA\n"
                                           "LDA #$C1\nSTA $FFFB\nJMP *\n*= $C100\nRTI\n",
                                        0xC000),
                          0);
    run(m, 1000, NULL);
    nmi_count = 0;
    c64_set_debug_hooks(m, nmi_hook, NULL, NULL);
    CU_ASSERT_EQUAL(c64_key(m, "RESTORE", 1), MH_OK);
    run(m, 10000, NULL);
    CU_ASSERT_EQUAL(nmi_count, 1); /* one edge, even while held */
    CU_ASSERT_EQUAL(m->p.restore_nmi, 0); /* the pulse ended */
    CU_ASSERT_EQUAL(c64_key(m, "RESTORE", 0), MH_OK);
    CU_ASSERT_EQUAL(c64_key(m, "RESTORE", 1), MH_OK);
    run(m, 10000, NULL);
    CU_ASSERT_EQUAL(nmi_count, 2);
    c64_free(m);
}

/* ---- c64.snapshot ---- */

static void test_snapshot_round_trip(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char error[128];
    /* Something moving: a sprite, typing, and the cursor blinking. */
    m->p.ram[0x07F8] = 13;
    memset(m->p.ram + 0x0340, 0xFF, 63);
    c64_io_write(m, 0xD015, 1);
    c64_io_write(m, 0xD000, 120);
    c64_io_write(m, 0xD001, 120);
    CU_ASSERT_EQUAL(c64_type_text(m, "FOR I=1 TO 300:POKE 53280,I AND 15:NEXT\n", error, sizeof error),
                    MH_OK);
    run(m, 200000, NULL);
    c64_snapshot *snap = malloc(sizeof *snap), *first = malloc(sizeof *first),
                 *second = malloc(sizeof *second);
    CU_ASSERT_PTR_NOT_NULL_FATAL(snap && first && second);
    c64_snapshot_save(m, snap);
    run(m, 300000, NULL);
    c64_snapshot_save(m, first);
    c64_snapshot_restore(m, snap);
    run(m, 300000, NULL);
    c64_snapshot_save(m, second);
    CU_ASSERT_EQUAL(memcmp(&first->p, &second->p, sizeof first->p), 0); /* RAM, frames, input */
    CU_ASSERT_EQUAL(memcmp(first->p.fb, second->p.fb, sizeof first->p.fb), 0);
    CU_ASSERT_EQUAL(first->cpu.cycles, second->cpu.cycles);
    CU_ASSERT_EQUAL(first->cpu.pc, second->cpu.pc);
    CU_ASSERT_EQUAL(first->vic.ticks, second->vic.ticks);
    CU_ASSERT_EQUAL(memcmp(first->vic.reg, second->vic.reg, sizeof first->vic.reg), 0);
    CU_ASSERT_EQUAL(first->cia1.ta.counter, second->cia1.ta.counter);
    CU_ASSERT_EQUAL(first->cia1.tod.countdown, second->cia1.tod.countdown);
    /* Whole chip structs minus their links. */
    first->cpu.links = second->cpu.links;
    first->vic.links = second->vic.links;
    first->cia1.links = second->cia1.links;
    first->cia2.links = second->cia2.links;
    CU_ASSERT_EQUAL(memcmp(&first->cpu, &second->cpu, sizeof first->cpu), 0);
    CU_ASSERT_EQUAL(memcmp(&first->vic, &second->vic, sizeof first->vic), 0);
    CU_ASSERT_EQUAL(memcmp(&first->cia1, &second->cia1, sizeof first->cia1), 0);
    CU_ASSERT_EQUAL(memcmp(&first->cia2, &second->cia2, sizeof first->cia2), 0);
    free(snap);
    free(first);
    free(second);
    c64_free(m);
}

/* ---- c64.memory ---- */

static void test_peek_has_no_side_effects(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    /* CIA1 timer A has underflowed (the KERNAL's IRQ source): the ICR flag
     * stays set however often a debugger peeks. */
    m->cpu.p |= MH_CPU6502_FLAG_I;
    run(m, 20000, NULL);
    uint8_t icr = c64_bus_peek(m, 0xDC0D);
    CU_ASSERT_TRUE(icr & 0x01);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xDC0D), icr);
    CU_ASSERT_EQUAL(c64_io_peek(m, 0xDC0D), icr);
    CU_ASSERT_EQUAL(m->cia1.icr.flags, icr);
    /* $00/$01 are the port; ROMs and RAM as banked. */
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x0000), 0x2F);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x0001) & 0x07, 0x07);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xE000), m->rom[0xE000]);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xA000), m->rom[0xA000]);
    /* Colour RAM: low nybble stored, upper nybble is open bus. */
    c64_bus_poke(m, 0xD800, 0xF5);
    CU_ASSERT_EQUAL(m->p.color[0], 0x05);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xD800) & 0x0F, 0x05);
    /* Poking $01 through the CPU view banks: all RAM with $34. */
    m->p.ram[0xE000] = 0x12;
    c64_bus_poke(m, 0x0001, 0x34);
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0xE000), 0x12);
    CU_ASSERT_EQUAL(m->rd_bank[0xD], C64_BANK_RAM);
    c64_bus_poke(m, 0x0001, 0x37);
    CU_ASSERT_EQUAL(m->rd_bank[0xD], C64_BANK_IO);
    c64_free(m);
}

/* A read stalled by a bad line repeats while the VIC has the bus (AEC low):
 * those repeats must not reach I/O. CIA1 timer A underflows in the middle
 * of the stall; the read that completes after the stall still returns the
 * TA flag (and clears it). Had a repeat read ICR, it would have cleared the
 * flag and the final read would return 0. */
static void test_stalled_read_has_no_side_effects(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nloop: NOP\nJMP loop\n*= $C100\nLDA $DC0D\n"
                                           "JMP *\n",
                                        0xC000),
                          0);
    c64_io_write(m, 0xDC0D, 0x7F); /* no CIA1 interrupts */
    c64_io_write(m, 0xDC0E, 0x00);
    c64_io_write(m, 0xD011, 0x1B); /* bad lines where RASTER & 7 == 3 */
    int found = 0;
    for (uint32_t i = 0; i < 200000 && !found; i++) {
        mh_cpu6502_run(&m->cpu, 1);
        found = mh_cpu6502_at_boundary(&m->cpu) && m->vic.raster == 0x53 &&
                (m->vic.cycle == 8 || m->vic.cycle == 9);
    }
    CU_ASSERT_TRUE_FATAL(found);
    m->cpu.pc = 0xC100; /* LDA $DC0D: its read cycle is cycle 12 or 13 */
    (void)m6526_read(&m->cia1, 0x0D); /* start with no flags */
    c64_io_write(m, 0xDC04, 20);
    c64_io_write(m, 0xDC05, 0);
    c64_io_write(m, 0xDC0E, 0x19); /* one-shot, force load, start: underflow about 22 later */
    uint64_t start = m->cpu.cycles;
    uint32_t underflow_at = 0, underflows = m->cia1.ta.underflows;
    do {
        mh_cpu6502_run(&m->cpu, 1);
        if (!underflow_at && m->cia1.ta.underflows != underflows) underflow_at = m->vic.cycle;
    } while (!mh_cpu6502_at_boundary(&m->cpu) && m->cpu.cycles - start < 100);
    CU_ASSERT_TRUE(m->cpu.cycles - start >= 40);          /* the read was stalled */
    CU_ASSERT_TRUE(underflow_at > 15 && underflow_at < 54); /* ... and AEC was low then */
    CU_ASSERT_EQUAL(m->cpu.a & 0x01, 0x01);                 /* the flag reached the CPU */
    CU_ASSERT_EQUAL(m->cia1.icr.flags & 0x01, 0);           /* and that one read cleared it */
    c64_free(m);
}

/* The CIAs skip the cycles in which only their counters move (c64.h,
 * c64_chips_due): a debugger's peek in the middle of such a stretch still
 * sees the exact counter. CIA1 timer A (the KERNAL's IRQ timer, continuous)
 * must have moved by exactly the cycles run between two peeks, modulo its
 * period (latch + 1). */
static void test_cia_seen_while_skipping(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(load_and_jump(m, "*= $C000\nSEI\nloop: JMP loop\n", 0xC000), 0);
    uint32_t period = m->cia1.ta.latch + 1u;
    CU_ASSERT_FATAL(period > 1000u && (m->cia1.ta.cr & M6526_CR_START));
    uint16_t last = (uint16_t)(c64_bus_peek(m, 0xDC04) | c64_bus_peek(m, 0xDC05) << 8);
    int skipping = 0, wrong = 0, checked = 0;
    for (int i = 0; i < 2000; i++) {
        uint32_t ran = mh_cpu6502_run(&m->cpu, 37);
        if (m->vic.ticks != m->cia_synced) skipping++;
        uint16_t now = (uint16_t)(c64_bus_peek(m, 0xDC04) | c64_bus_peek(m, 0xDC05) << 8);
        int64_t moved = ((int64_t)last - now - ran) % (int64_t)period;
        if (moved != 0) wrong++;
        c64_cias_sync(m);
        if (m->cia1.ta.counter != now) wrong++;
        last = now;
        checked++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(checked, 2000);
    CU_ASSERT(skipping > 1000); /* the peeks came in skipped stretches */
    c64_free(m);
}

/* ---- c64.options ---- */

static void expect_error(const char *options, const char *fragment)
{
    char error[512] = "";
    c64 *m = c64_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NULL(m);
    if (m) c64_free(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, fragment));
    if (!strstr(error, fragment)) fprintf(stderr, "\n%s -> %s\n", options, error);
}

static void test_option_errors(void)
{
    expect_error("{\"colour\":1}", "unknown option \"colour\"; c64 takes rom_dir, video");
    expect_error("{\"video\":\"secam\"}", "video: expected one of \"pal\", \"ntsc\", got \"secam\"");
    expect_error("{\"vicii_model\":6570}", "vicii_model: expected one of \"6569\"");
    expect_error("{\"vicii_model\":\"8562\",\"video\":\"pal\"}", "is an NTSC chip but video is \"pal\"");
    expect_error("{\"cia_model\":true}", "cia_model: expected one of \"6526\", \"6526a\"");
    expect_error("{\"sid_model\":\"6582\"}", "sid_model: expected one of \"6581\", \"8580\"");
    expect_error("{\"debugcart\":\"yes\"}", "debugcart: expected true or false");
    expect_error("{\"rom_dir\":\"\"}", "rom_dir: expected a directory");
    expect_error("{\"autostart\":3}", "autostart");
    expect_error("[1]", "options: expected a JSON object");
    expect_error("{\"rom_dir\":\"/nonexistent/roms\"}", "rom_dir /nonexistent/roms");
    expect_error("{\"autostart\":\"/nonexistent/x.prg\"}", "autostart \"/nonexistent/x.prg\"");

    /* Models as numbers (the CLI's --vicii-model 6569) and strings. */
    char error[256];
    c64 *m = c64_new("{\"vicii_model\":8565,\"cia_model\":\"6526A\",\"sid_model\":8580,"
                     "\"video\":\"pal\",\"debugcart\":false}",
                     NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->vic.model, M6569_MODEL_8565);
    CU_ASSERT_EQUAL(m->cia1.model, M6526_MODEL_6526A);
    CU_ASSERT_EQUAL(m->sid.model, C64_SID_8580);
    c64_free(m);
}

static void write_bytes(const char *path, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    for (size_t i = 0; i < size; i++) fputc(0, f);
    fclose(f);
}

static void test_rom_errors(void)
{
    char dir[] = "/tmp/mh_c64_roms_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[256], options[512], expect[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\"}", dir);
    /* Nothing there: the KERNAL is missing, named with the names tried. */
    snprintf(expect, sizeof expect, "kernal ROM not found in %s (looked for kernal, kernal.rom", dir);
    expect_error(options, expect);
    /* A short KERNAL (VICE 3.x name): its size, the size expected, the dir. */
    snprintf(path, sizeof path, "%s/kernal-901227-03.bin", dir);
    write_bytes(path, 100);
    snprintf(expect, sizeof expect, "kernal ROM %s is 100 bytes, expected 8192 (directory searched: %s)",
             path, dir);
    expect_error(options, expect);
    unlink(path);
    /* VICE names with the right sizes work; a missing chargen is named. */
    snprintf(path, sizeof path, "%s/kernal-901227-03.bin", dir);
    write_bytes(path, 8192);
    snprintf(path, sizeof path, "%s/basic.rom", dir);
    write_bytes(path, 8192);
    expect_error(options, "chargen ROM not found");
    snprintf(path, sizeof path, "%s/chargen", dir);
    write_bytes(path, 4096);
    char error[256];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL(m);
    if (m) {
        CU_ASSERT_EQUAL(m->rom[0xE000], 0);
        c64_free(m);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* ---- c64.sid ---- */

/* Voice 3: sawtooth at $1000 (OSC3 +1 every 16 cycles), attack 0, sustain
 * 15, gate on, volume 15; at raster line 0 (no bad lines, sprites off, IRQs
 * off) reads OSC3 twice 256 cycles apart (-> $CF00/$CF01), then ENV3 twice
 * 256 cycles apart (-> $CF02/$CF03). */
static char *sid_program(void)
{
    static const char head[] =
        "*= $C000\nSEI\n"
        "LDA #$00\nSTA $D40E\nLDA #$10\nSTA $D40F\n"
        "LDA #$00\nSTA $D413\nLDA #$F0\nSTA $D414\nLDA #$0F\nSTA $D418\n"
        "W1: LDA $D012\nBNE W1\nLDA $D011\nBMI W1\n"
        "LDA #$21\nSTA $D412\n"
        "LDA $D41B\nSTA $CF00\n";
    static const char mid[] = "LDA $D41B\nSTA $CF01\nLDA $D41C\nSTA $CF02\n";
    static const char tail[] = "LDA $D41C\nSTA $CF03\nL: JMP L\n";
    size_t size = sizeof head + sizeof mid + sizeof tail + 2 * 124 * 4 + 1;
    char *text = malloc(size);
    if (!text) return NULL;
    strcpy(text, head);
    /* STA abs (4) + 124 NOPs (2 each) + LDA abs (4): the reads are 256
     * cycles apart. */
    for (int i = 0; i < 124; i++) strcat(text, "NOP\n");
    strcat(text, mid);
    for (int i = 0; i < 124; i++) strcat(text, "NOP\n");
    strcat(text, tail);
    return text;
}

static int sid_play(c64 *m)
{
    char *program = sid_program();
    int rc = program ? load_and_jump(m, program, 0xC000) : -1;
    free(program);
    return rc;
}

/* Peak-to-peak of what c64_audio_read gives; *count gets how many. */
static int audio_span(c64 *m, size_t *count)
{
    static int16_t buf[C64_AUDIO_RING];
    size_t n = c64_audio_read(m, buf, C64_AUDIO_RING);
    int lo = 32767, hi = -32768;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] < lo) lo = buf[i];
        if (buf[i] > hi) hi = buf[i];
    }
    *count = n;
    return n ? hi - lo : 0;
}

static void test_sid_osc3_env3(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_TRUE(m->sid.sound);
    CU_ASSERT_EQUAL_FATAL(sid_play(m), 0);
    run(m, 40000, NULL);
    const uint8_t *ram = m->p.ram;
    /* 256 cycles of $1000 steps: the accumulator moves $100000, OSC3
     * (its top 8 bits) exactly 16. */
    CU_ASSERT_EQUAL((uint8_t)(ram[0xCF01] - ram[0xCF00]), 16);
    /* ENV3 rises after gate on with attack 0 (9 cycles a step). */
    CU_ASSERT_TRUE(ram[0xCF02] > 0);
    CU_ASSERT_TRUE(ram[0xCF03] > ram[0xCF02]);
    CU_ASSERT_TRUE(ram[0xCF03] - ram[0xCF02] >= 20 && ram[0xCF03] - ram[0xCF02] <= 32);
    /* The SID is clocked up to the end of the slice: peek sees the live
     * accumulator. */
    CU_ASSERT_EQUAL(m->sid.cycles, m->vic.ticks);
    CU_ASSERT_EQUAL(c64_io_peek(m, 0xD41B), (uint8_t)(m->sid.chip.voice[2].acc >> 16));
    CU_ASSERT_EQUAL(c64_io_peek(m, 0xD41C), 0xFF); /* attack done, sustain 15 */
    /* Mirrors every 32 bytes. */
    CU_ASSERT_EQUAL(c64_io_peek(m, 0xD7FC), 0xFF);
    c64_free(m);
}

static void test_sid_audio(void)
{
    size_t n = 0;
    c64 *quiet = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(quiet);
    audio_span(quiet, &n); /* the boot's samples */
    run(quiet, 98525, NULL); /* 0.1 s */
    int span = audio_span(quiet, &n);
    CU_ASSERT_TRUE(n >= 4400 && n <= 4420);
    CU_ASSERT_TRUE(span < 200);
    c64_free(quiet);

    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    audio_span(m, &n);
    CU_ASSERT_EQUAL_FATAL(sid_play(m), 0);
    run(m, 98525, NULL);
    span = audio_span(m, &n);
    CU_ASSERT_TRUE(n >= 4400 && n <= 4420);
    CU_ASSERT_TRUE(span > 4000);
    c64_free(m);

    /* sound=off: nothing made, register storage reads, OSC3/ENV3 0. */
    c64 *off = boot("{\"sound\":\"off\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(off);
    CU_ASSERT_EQUAL_FATAL(sid_play(off), 0);
    run(off, 98525, NULL);
    CU_ASSERT_EQUAL(audio_span(off, &n), 0);
    CU_ASSERT_EQUAL(n, 0u);
    CU_ASSERT_EQUAL(off->p.ram[0xCF00], 0);
    CU_ASSERT_EQUAL(off->p.ram[0xCF03], 0);
    CU_ASSERT_EQUAL(c64_io_peek(off, 0xD40F), 0x10);
    CU_ASSERT_EQUAL(c64_io_peek(off, 0xD419), 0xFF);
    c64_free(off);
}

static void test_sid_options(void)
{
    char error[256];
    c64 *m = c64_new("{\"vicii_model\":8565}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->sid.model, C64_SID_8580);
    CU_ASSERT_EQUAL(m->sid.chip.model, M6581_MODEL_8580);
    c64_free(m);
    m = c64_new("{\"vicii_model\":8562,\"sid_model\":6581,\"sound\":false}", NULL, error,
                sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->sid.model, C64_SID_6581);
    CU_ASSERT_FALSE(m->sid.sound);
    c64_free(m);
    m = c64_new("{}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->sid.model, C64_SID_6581);
    c64_free(m);
    expect_error("{\"sound\":\"loud\"}", "sound: expected one of \"on\", \"off\"");
}

/* A blob saved while a voice plays: the SID (chip, clock, audio ring) and
 * the samples after it come out the same. */
static void test_sid_snapshot(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(sid_play(m), 0);
    run(m, 20000, NULL);
    void *blob = NULL;
    size_t size = 0;
    char error[256];
    CU_ASSERT_EQUAL_FATAL(c64_snapshot_blob_save(m, &blob, &size), MH_OK);
    c64_sid *first = malloc(sizeof *first), *second = malloc(sizeof *second);
    static int16_t a[8192], b[8192];
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    CU_ASSERT_PTR_NOT_NULL_FATAL(second);
    run(m, 50000, NULL);
    *first = m->sid;
    size_t na = c64_audio_read(m, a, 8192);
    CU_ASSERT_EQUAL_FATAL(c64_snapshot_blob_load(m, blob, size, error, sizeof error), MH_OK);
    run(m, 50000, NULL);
    *second = m->sid;
    size_t nb = c64_audio_read(m, b, 8192);
    CU_ASSERT_EQUAL(memcmp(first, second, sizeof *first), 0);
    CU_ASSERT_TRUE(na > 1000);
    CU_ASSERT_EQUAL(na, nb);
    CU_ASSERT_EQUAL(memcmp(a, b, na * sizeof a[0]), 0);
    /* A version 1 blob is refused. */
    ((uint8_t *)blob)[24] = 1;
    CU_ASSERT_EQUAL(c64_snapshot_blob_load(m, blob, size, error, sizeof error), MH_ERR_UNSUPPORTED);
    free(first);
    free(second);
    free(blob);
    c64_free(m);
}

MH_SUITE("c64.machine", NULL, NULL, MH_TEST(test_boot_pal), MH_TEST(test_boot_ntsc),
         MH_TEST(test_two_machines_share_nothing), MH_TEST(test_run_budget),
         MH_TEST(test_debugcart_exit), MH_TEST(test_rmw_exit), MH_TEST(test_jam_keeps_clock),
         MH_TEST(test_hooks_break), MH_TEST(test_hooks_chain_autostart),
         MH_TEST(test_raster_irq_cycle))
MH_SUITE("c64.input", NULL, NULL, MH_TEST(test_typing), MH_TEST(test_keyboard_matrix),
         MH_TEST(test_restore_nmi))
MH_SUITE("c64.snapshot", NULL, NULL, MH_TEST(test_snapshot_round_trip))
MH_SUITE("c64.memory", NULL, NULL, MH_TEST(test_peek_has_no_side_effects),
         MH_TEST(test_stalled_read_has_no_side_effects), MH_TEST(test_cia_seen_while_skipping))
MH_SUITE("c64.options", NULL, NULL, MH_TEST(test_option_errors), MH_TEST(test_rom_errors))
MH_SUITE("c64.sid", NULL, NULL, MH_TEST(test_sid_osc3_env3), MH_TEST(test_sid_audio),
         MH_TEST(test_sid_options), MH_TEST(test_sid_snapshot))
