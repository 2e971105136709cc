/* Tests of the VIC-20 machine (plugins/machine-vic20) without the plugin
 * loader: the memory map (expansions, open bus, colour RAM nybbles, both
 * VIAs answering where both are selected), the debug-cart exit, snapshots
 * (round trip, hostile blobs refused), cartridges (raw and CRT, hostile
 * images refused) on a tiny KERNAL written here; and, with the original
 * ROMs (../shared/roms or $MCPHOST_TEST_ROMS; skipped, saying so, when
 * absent), the boot to READY in each memory configuration. */
#include "mh_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_media_build.h"
#include "test_memory_runs_common.h"
#include "vic20.h"

/* ---- a tiny KERNAL: reset at $E000 runs the code the test put there ---- */

static char rom_dir[64];

static void write_file(const char *dir, const char *name, const uint8_t *bytes, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(bytes, 1, size, f);
    fclose(f);
}

/* A ROM directory whose KERNAL starts at $E000 with code (generic names). */
static void make_roms(const uint8_t *code, size_t size)
{
    static uint8_t kernal[8192], basic[8192], chargen[4096];
    strcpy(rom_dir, "/tmp/mh_vic20_roms_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(rom_dir));
    memset(kernal, 0xEA, sizeof kernal);
    memcpy(kernal, code, size);
    kernal[0x1FFC] = 0x00;
    kernal[0x1FFD] = 0xE0;
    for (size_t i = 0; i < sizeof chargen; i++) chargen[i] = (uint8_t)i;
    write_file(rom_dir, "kernal", kernal, sizeof kernal);
    write_file(rom_dir, "basic", basic, sizeof basic);
    write_file(rom_dir, "chargen", chargen, sizeof chargen);
}

static void remove_roms(void)
{
    char path[256];
    static const char *const names[] = {"kernal", "basic", "chargen", "cart.bin", "bad.crt",
                                        "big.bin", "cart.crt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", rom_dir, names[i]);
        unlink(path);
    }
    rmdir(rom_dir);
}

static vic20 *make(const char *extra)
{
    char options[512], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\",\"debugcart\":true%s%s}", rom_dir,
             extra && extra[0] ? "," : "", extra ? extra : "");
    vic20 *m = vic20_new(options, NULL, error, sizeof error);
    if (!m) fprintf(stderr, "vic20_new: %s\n", error);
    return m;
}

static mh_run_result run(vic20 *m, uint64_t cycles)
{
    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    vic20_run(m, cycles, &result);
    return result;
}

/* LDA #$2A; STA $910F (the debug cart: exit code $2A) */
static const uint8_t exit_2a[] = {0xA9, 0x2A, 0x8D, 0x0F, 0x91, 0x4C, 0x05, 0xE0};

static void test_debugcart_exit_and_rom_errors(void)
{
    make_roms(exit_2a, sizeof exit_2a);
    vic20 *m = make(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mh_run_result r = run(m, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x2A);
    CU_ASSERT(r.cycles < 20);
    vic20_free(m);
    char error[512];
#ifdef MH_HAVE_BOOT_ROMS
    /* No rom_dir: the built-in boot ROM (roms/; tested in boot_rom.*). */
    m = vic20_new("{}", NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL(m);
    if (m) vic20_free(m);
#else
    /* No rom_dir: a clear message naming --rom-dir. */
    CU_ASSERT_PTR_NULL(vic20_new("{}", NULL, error, sizeof error));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "--rom-dir"));
#endif
    CU_ASSERT_PTR_NULL(vic20_new("{\"vic20_memory\":\"12k\"}", NULL, error, sizeof error));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "vic20_memory"));
    remove_roms();
}

static void test_memory_map(void)
{
    make_roms(exit_2a, sizeof exit_2a);
    vic20 *m = make("\"vic20_memory\":\"none\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    run(m, 5000);
    /* Unexpanded: $0400 and $2000 are open: a read gets the VIC's last fetch. */
    vic20_bus_poke(m, 0x0400, 0x12);
    vic20_bus_poke(m, 0x2000, 0x34);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x0400), m->vic.last_data);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x2000), m->vic.last_data);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0xA000), m->vic.last_data);
    vic20_bus_poke(m, 0x1000, 0x56);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x1000), 0x56);
    /* Colour RAM: 4 bits, the upper nybble from the open bus. */
    vic20_bus_poke(m, 0x9400, 0xA7);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x9400) & 0x0F, 0x07);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x9400) & 0xF0, m->vic.last_data & 0xF0);
    /* ROMs. */
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x8001), 0x01);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0xE000), 0xA9);
    /* $9130: both VIAs are selected; a write reaches both. */
    vic20_bus_poke(m, 0x913E, 0x82);
    CU_ASSERT_EQUAL(m->via1.ier, 0x02);
    CU_ASSERT_EQUAL(m->via2.ier, 0x02);
    vic20_bus_poke(m, 0x911E, 0x7F);
    CU_ASSERT_EQUAL(m->via1.ier, 0x00);
    CU_ASSERT_EQUAL(m->via2.ier, 0x02);
    /* The VIC's registers repeat every 16 bytes through $90FF. */
    vic20_bus_poke(m, 0x90FF, 0x3B);
    CU_ASSERT_EQUAL(m->vic.regs[15], 0x3B);
    vic20_free(m);

    m = make("\"vic20_memory\":\"all\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    static const uint16_t ram_at[] = {0x0400, 0x0FFF, 0x2000, 0x5000, 0x7FFF, 0xA000, 0xBFFF};
    for (size_t i = 0; i < sizeof ram_at / sizeof ram_at[0]; i++) {
        vic20_bus_poke(m, ram_at[i], (uint8_t)(0x40 + i));
        CU_ASSERT_EQUAL(vic20_bus_peek(m, ram_at[i]), 0x40 + i);
    }
    CU_ASSERT_EQUAL(m->kernal_layout.basic_program, 0x1201);
    vic20_free(m);
    m = make("\"vic20_memory\":\"3k\"");
    CU_ASSERT_EQUAL(m->kernal_layout.basic_program, 0x0401);
    vic20_bus_poke(m, 0x2000, 0x77);
    CU_ASSERT_NOT_EQUAL(m->p.ram[0x2000], 0x77);
    vic20_free(m);
    remove_roms();
}

static uint8_t vic20_ref_peek(const void *m, uint16_t addr) { return vic20_bus_peek(m, addr); }

/* memory_read's bulk path: in every memory configuration, and with a
 * cartridge in block 5, the memory interface's 64 KiB peek and peek_runs
 * give exactly the bytes vic20_bus_peek gives one by one (RAM, ROM, the
 * open blocks, I/O and colour RAM). */
static void test_bulk_read(void)
{
    make_roms(exit_2a, sizeof exit_2a);
    static const char *const memory[] = {"none", "3k", "8k", "16k", "24k", "all", "none"};
    for (size_t i = 0; i < sizeof memory / sizeof memory[0]; i++) {
        char extra[64];
        snprintf(extra, sizeof extra, "\"vic20_memory\":\"%s\"", memory[i]);
        vic20 *m = make(extra);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        run(m, 5000);
        const char *cart = "";
        if (i == sizeof memory / sizeof memory[0] - 1) { /* the last: a cartridge in block 5 */
            static uint8_t image[8192];
            mrt_fill_pattern(image, sizeof image, 9);
            char path[256], error[512];
            write_file(rom_dir, "cart.bin", image, sizeof image);
            snprintf(path, sizeof path, "%s/cart.bin", rom_dir);
            CU_ASSERT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
            cart = " with a cartridge";
        }
        mrt_fill_pattern(m->p.ram, sizeof m->p.ram, (uint8_t)i);
        mrt_fill_pattern(m->rom, 0xA000, 0x40); /* character ROM; the cartridge stays */
        mrt_fill_pattern(m->rom + 0xC000, 0x4000, 0x41);
        mh_chip chips[16];
        size_t count = vic20_ifaces_chips(m, chips, 16);
        char label[64];
        snprintf(label, sizeof label, "vic20_memory %s%s", memory[i], cart);
        mrt_check_cpu_space(chips, count, m, vic20_ref_peek, label);
        vic20_free(m);
    }
    remove_roms();
}

static void test_via_interrupt_lines(void)
{
    /* VIA2 T1 IRQ -> CPU IRQ, VIA1 -> NMI: CLI; VIA2 T1 = 100 with IRQ on;
     * the IRQ vector ($FFFE -> $E040) writes the exit code $11. */
    uint8_t code[0x60];
    memset(code, 0xEA, sizeof code);
    static const uint8_t start[] = {0xA9, 0xC0, 0x8D, 0x2E, 0x91, /* IER: T1 */
                                    0xA9, 0x64, 0x8D, 0x24, 0x91, 0xA9, 0x00, 0x8D, 0x25,
                                    0x91, 0x58, 0x4C, 0x10, 0xE0};
    memcpy(code, start, sizeof start);
    static const uint8_t irq[] = {0xA9, 0x11, 0x8D, 0x0F, 0x91};
    memcpy(code + 0x40, irq, sizeof irq);
    make_roms(code, sizeof code);
    char path[256];
    snprintf(path, sizeof path, "%s/kernal", rom_dir);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0x1FFE, SEEK_SET);
    fputc(0x40, f);
    fputc(0xE0, f);
    fclose(f);
    vic20 *m = make(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mh_run_result r = run(m, 10000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x11);
    CU_ASSERT(r.cycles > 100 && r.cycles < 150);
    vic20_free(m);
    remove_roms();
}

static void test_snapshots(void)
{
    static const uint8_t loop[] = {0xEE, 0x00, 0x10, 0x4C, 0x00, 0xE0}; /* INC $1000; JMP */
    make_roms(loop, sizeof loop);
    vic20 *m = make(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    run(m, 30000);
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(vic20_snapshot_blob_save(m, &blob, &size), MH_OK);
    uint8_t counter = m->p.ram[0x1000];
    uint16_t line = m->vic.line;
    run(m, 12345);
    CU_ASSERT_NOT_EQUAL(m->p.ram[0x1000], counter);
    char error[512];
    CU_ASSERT_EQUAL(vic20_snapshot_blob_load(m, blob, size, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(m->p.ram[0x1000], counter);
    CU_ASSERT_EQUAL(m->vic.line, line);
    /* Hostile blobs: truncated, corrupt, another machine, impossible state. */
    CU_ASSERT_NOT_EQUAL(vic20_snapshot_blob_load(m, blob, 20, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "truncated"));
    uint8_t *bad = malloc(size);
    memcpy(bad, blob, size);
    bad[size / 2] ^= 0x55;
    CU_ASSERT_NOT_EQUAL(vic20_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "checksum"));
    memcpy(bad, blob, size);
    memcpy(bad + 8, "c64\0\0", 5);
    vic20_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(vic20_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "c64"));
    memcpy(bad, blob, size);
    vic20_snapshot *snap = (vic20_snapshot *)(bad + 56);
    snap->vic.line = 999;
    vic20_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(vic20_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not one this VIC-20 can be in"));
    /* a CPU held by RDY, which no VIC-20 chip releases (fuzz_snapshot_vic20
     * found a run that never ended on one) */
    memcpy(bad, blob, size);
    snap->cpu.rdy = 0;
    vic20_snapshot_blob_seal(bad, size);
    CU_ASSERT_NOT_EQUAL(vic20_snapshot_blob_load(m, bad, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "RDY"));
    CU_ASSERT_EQUAL(m->p.ram[0x1000], counter); /* nothing was loaded */
    free(bad);
    free(blob);
    vic20_free(m);
    remove_roms();
}

/* Mutated snapshots (resealed, so only the state checks stand between the
 * bytes and the chips): each loads or is refused, and the machine runs on
 * without reading or writing out of bounds (the ASan build checks that). */
static void test_snapshot_mutations(void)
{
    static const uint8_t loop[] = {0xEE, 0x00, 0x10, 0x4C, 0x00, 0xE0};
    make_roms(loop, sizeof loop);
    vic20 *m = make(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    run(m, 50000);
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(vic20_snapshot_blob_save(m, &blob, &size), MH_OK);
    uint8_t *bad = malloc(size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    /* The chip and CPU state lies before the RAM and the framebuffers. */
    size_t chips = 56 + offsetof(vic20_snapshot, p) + offsetof(vic20_plain, ram);
    uint32_t seed = 12345;
    int loaded = 0, refused = 0;
    for (int i = 0; i < 300; i++) {
        memcpy(bad, blob, size);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = 56 + (seed >> 8) % (chips - 56);
            seed = seed * 1103515245u + 12345u;
            bad[at] = (uint8_t)(seed >> 16);
        }
        seed = seed * 1103515245u + 12345u;
        if (seed & 0x100) { /* sometimes a whole word of 0xFF */
            size_t at = 56 + (seed >> 12) % (chips - 60);
            memset(bad + at, 0xFF, 4);
        }
        vic20_snapshot_blob_seal(bad, size);
        char error[512];
        if (vic20_snapshot_blob_load(m, bad, size, error, sizeof error) == MH_OK) {
            loaded++;
            run(m, 30000);
            uint16_t line = 0, cycle = 0;
            vic20_vic_catch_up(m);
            line = m->vic.line;
            cycle = m->vic.cycle;
            CU_ASSERT(line < 312 && cycle < 71);
        } else {
            refused++;
            CU_ASSERT(strlen(error) > 10);
        }
    }
    CU_ASSERT(loaded > 0);
    CU_ASSERT(refused > 0);
    free(bad);
    free(blob);
    vic20_free(m);
    remove_roms();
}

static void test_cartridges(void)
{
    make_roms(exit_2a, sizeof exit_2a);
    vic20 *m = make(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char path[256], error[512];
    /* A raw 8 KiB image: block 5. */
    static uint8_t image[8192];
    for (size_t i = 0; i < sizeof image; i++) image[i] = (uint8_t)(i * 7);
    write_file(rom_dir, "cart.bin", image, sizeof image);
    snprintf(path, sizeof path, "%s/cart.bin", rom_dir);
    CU_ASSERT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0xA001), 7);
    vic20_bus_poke(m, 0xA001, 0); /* ROM */
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0xA001), 7);
    /* A CRT with a chip at $6000 (block 3). */
    static uint8_t crt[64 + 16 + 4096];
    memset(crt, 0, sizeof crt);
    memcpy(crt, "VIC20 CARTRIDGE ", 16);
    crt[0x13] = 0x40;
    crt[0x14] = 1;
    memcpy(crt + 64, "CHIP", 4);
    uint32_t packet = 16 + 4096;
    crt[64 + 4] = (uint8_t)(packet >> 24);
    crt[64 + 5] = (uint8_t)(packet >> 16);
    crt[64 + 6] = (uint8_t)(packet >> 8);
    crt[64 + 7] = (uint8_t)packet;
    crt[64 + 12] = 0x60;
    crt[64 + 14] = 0x10;
    memset(crt + 80, 0x99, 4096);
    write_file(rom_dir, "cart.crt", crt, sizeof crt);
    snprintf(path, sizeof path, "%s/cart.crt", rom_dir);
    CU_ASSERT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x6000), 0x99);
    CU_ASSERT(m->cart_blocks == VIC20_MEM_BLK3);
    /* Hostile: a chip at $8000 (the character ROM), a packet past the end,
     * a raw image too big, a load address outside the blocks. */
    crt[64 + 12] = 0x80;
    write_file(rom_dir, "bad.crt", crt, sizeof crt);
    snprintf(path, sizeof path, "%s/bad.crt", rom_dir);
    CU_ASSERT_NOT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a ROM inside blocks"));
    crt[64 + 12] = 0x60;
    crt[64 + 6] = 0x30; /* the packet claims more than the file has */
    write_file(rom_dir, "bad.crt", crt, sizeof crt);
    CU_ASSERT_NOT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a valid VIC-20 CRT"));
    static uint8_t big[20000];
    write_file(rom_dir, "big.bin", big, sizeof big);
    snprintf(path, sizeof path, "%s/big.bin", rom_dir);
    CU_ASSERT_NOT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    big[0] = 0x00;
    big[1] = 0x90; /* load at $9000 */
    write_file(rom_dir, "big.bin", big, 3000);
    CU_ASSERT_NOT_EQUAL(vic20_cart_attach(m, path, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "$2000, $4000, $6000 or $A000"));
    CU_ASSERT_EQUAL(vic20_bus_peek(m, 0x6000), 0x99); /* the good one stays */
    vic20_free(m);
    remove_roms();
}

/* ---- with the original ROMs ---- */

static int find_original_roms(char out[1024], size_t size)
{
    const char *env = getenv("MCPHOST_TEST_ROMS");
    char *shared = mh_test_shared_path("../roms");
    const char *bases[2] = {env, shared};
    int found = 0;
    for (int i = 0; i < 2 && !found; i++) {
        if (!bases[i]) continue;
        static const char *const subs[2] = {"/VIC20", ""};
        for (int s = 0; s < 2 && !found; s++) {
            char probe[1100];
            snprintf(out, size, "%s%s", bases[i], subs[s]);
            snprintf(probe, sizeof probe, "%s/kernal.901486-07.bin", out);
            found = access(probe, R_OK) == 0;
        }
    }
    free(shared);
    if (!found) printf("\n    (skipped: no VIC-20 ROMs in $MCPHOST_TEST_ROMS or ../shared/roms) ");
    return found;
}

/* Screen codes of "READY." and the "BYTES FREE" line's number. */
static int screen_has(const vic20 *m, const char *text)
{
    uint16_t screen = m6561_cpu_address(m6561_screen_vic_address(&m->vic));
    size_t n = strlen(text);
    for (unsigned i = 0; i + n <= 22u * 23u; i++) {
        size_t k = 0;
        for (; k < n; k++) {
            char c = text[k];
            uint8_t code = c >= 'A' && c <= 'Z' ? (uint8_t)(c - 'A' + 1) : (uint8_t)c;
            if (m->p.ram[screen + i + k] != code) break;
        }
        if (k == n) return 1;
    }
    return 0;
}

static void test_boot_with_original_roms(void)
{
    char dir[1024];
    if (!find_original_roms(dir, sizeof dir)) return;
    static const struct { const char *memory, *video, *free; } configs[] = {
        {"none", "pal", "3583 BYTES FREE"},
        {"3k", "pal", "6655 BYTES FREE"},
        {"8k", "ntsc", "11775 BYTES FREE"},
        {"24k", "pal", "28159 BYTES FREE"},
    };
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        char options[1200], error[512];
        snprintf(options, sizeof options,
                 "{\"rom_dir\":\"%s\",\"vic20_memory\":\"%s\",\"video\":\"%s\"}", dir,
                 configs[i].memory, configs[i].video);
        vic20 *m = vic20_new(options, NULL, error, sizeof error);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        run(m, 3000000);
        CU_ASSERT(screen_has(m, "READY."));
        if (!screen_has(m, configs[i].free)) {
            fprintf(stderr, "\n%s: no \"%s\" on the screen\n", configs[i].memory, configs[i].free);
            CU_FAIL("BYTES FREE");
        }
        CU_ASSERT_EQUAL(m->p.ram[0x2B] | m->p.ram[0x2C] << 8, m->kernal_layout.basic_program);
        vic20_free(m);
    }
}

/* RUN/STOP + RESTORE: VIA1 CA1 -> NMI; the KERNAL's NMI handler warm
 * starts BASIC, which sets the VIC's colours back. Joystick lines. */
static void test_restore_and_joystick(void)
{
    char dir[1024];
    if (!find_original_roms(dir, sizeof dir)) return;
    char options[1200], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\"}", dir);
    vic20 *m = vic20_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    run(m, 3000000);
    vic20_bus_poke(m, 0x900F, 0x08);
    CU_ASSERT_EQUAL(vic20_key(m, "RUNSTOP", 1), MH_OK);
    CU_ASSERT_EQUAL(vic20_key(m, "RESTORE", 1), MH_OK);
    run(m, 200000);
    CU_ASSERT_EQUAL(vic20_key(m, "RESTORE", 0), MH_OK);
    CU_ASSERT_EQUAL(vic20_key(m, "RUNSTOP", 0), MH_OK);
    run(m, 1000000);
    CU_ASSERT_EQUAL(m6561_read(&m->vic, 15), 0x1B);
    CU_ASSERT(screen_has(m, "READY."));
    /* Keys through the matrix (VIA2 PB columns, PA rows): the KERNAL's
     * scan finds them and prints them at the cursor. */
    static const char *const keys[] = {"H", "I", "SPACE", "V", "2", "0"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        CU_ASSERT_EQUAL(vic20_key(m, keys[i], 1), MH_OK);
        run(m, 60000);
        CU_ASSERT_EQUAL(vic20_key(m, keys[i], 0), MH_OK);
        run(m, 60000);
    }
    CU_ASSERT(screen_has(m, "HI V20"));
    CU_ASSERT_EQUAL(vic20_key(m, "NOSUCHKEY", 1), MH_ERR_NOT_FOUND);
    /* The joystick: up/down/left/fire on VIA1 PA2-PA5, right on VIA2 PB7. */
    CU_ASSERT_EQUAL(vic20_joystick(m, 1, MH_JOY_UP | MH_JOY_FIRE), MH_OK);
    CU_ASSERT_EQUAL(m6522_port_pins(&m->via1, 0) & 0x3C, 0x3C & ~0x24);
    /* Fire is the light pen too: the press latched the beam. */
    CU_ASSERT_EQUAL(m->vic.regs[7], (uint8_t)(m->vic.line >> 1));
    CU_ASSERT_EQUAL(m->vic.regs[6], (uint8_t)(m->vic.cycle * 2u));
    CU_ASSERT_EQUAL(vic20_joystick(m, 1, MH_JOY_RIGHT), MH_OK);
    CU_ASSERT_EQUAL(m6522_port_pins(&m->via1, 0) & 0x3C, 0x3C);
    vic20_bus_poke(m, 0x9122, 0x00); /* VIA2 DDRB: input, as programs read the stick */
    CU_ASSERT_EQUAL(m6522_port_pins(&m->via2, 1) & 0x80, 0x00);
    CU_ASSERT_EQUAL(vic20_joystick(m, 3, 0), MH_ERR_INVALID_ARGUMENT);
    vic20_free(m);
}

/* A BASIC program saved unexpanded ($1001) autostarts on an 8K machine at
 * its BASIC start ($1201), relinked: 10 POKE 37135,90 ends the run. */
static void test_basic_program_relocated(void)
{
    char dir[1024];
    if (!find_original_roms(dir, sizeof dir)) return;
    static const uint8_t prg[] = {0x01, 0x10, 0x0F, 0x10, 0x0A, 0x00, 0x97, '3', '7', '1', '3',
                                  '5', ',', '9', '0', 0x00, 0x00, 0x00};
    char path[] = "/tmp/mh_vic20_prg_XXXXXX.prg";
    int fd = mkstemps(path, 4);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, prg, sizeof prg), (ssize_t)sizeof prg);
    close(fd);
    char options[1400], error[512];
    snprintf(options, sizeof options,
             "{\"rom_dir\":\"%s\",\"vic20_memory\":\"8k\",\"autostart\":\"%s\",\"debugcart\":true}",
             dir, path);
    vic20 *m = vic20_new(options, NULL, error, sizeof error);
    if (!m) fprintf(stderr, "%s\n", error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
    for (int i = 0; i < 50 && r.stop == MH_RUN_BUDGET; i++) r = run(m, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 90);
    CU_ASSERT_EQUAL(m->p.ram[0x1201] | m->p.ram[0x1202] << 8, 0x120F); /* the new link */
    vic20_free(m);
    unlink(path);
}

/* LOAD"PROG",8 from a D64 in the virtual drive 8 (the LOAD trap at
 * $FFD5), then RUN: the program writes $5A to the debug cart. */
static void test_drive8_load_and_run(void)
{
    char dir[1024];
    if (!find_original_roms(dir, sizeof dir)) return;
    static const uint8_t prg[] = {0x01, 0x10, 0x0C, 0x10, 0x0A, 0x00, 0x9E, 0x34, 0x31, 0x31,
                                  0x30, 0x00, 0x00, 0x00, 0x00, 0xA9, 0x5A, 0x8D, 0x0F, 0x91,
                                  0x4C, 0x13, 0x10};
    tb_d64 disk;
    tb_d64_init(&disk, 35, false, "VIC TEST", "V2");
    tb_d64_add_file(&disk, "PROG", 0x82, prg, sizeof prg);
    char path[] = "/tmp/mh_vic20_d64_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, disk.img, disk.size), (ssize_t)disk.size);
    close(fd);
    tb_d64_free(&disk);
    char options[1400], error[512];
    snprintf(options, sizeof options, "{\"rom_dir\":\"%s\",\"drive8\":\"%s\",\"debugcart\":true}",
             dir, path);
    vic20 *m = vic20_new(options, NULL, error, sizeof error);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    run(m, 3000000);
    CU_ASSERT_EQUAL(vic20_type_text(m, "LOAD\"PROG\",8\nRUN\n", error, sizeof error), MH_OK);
    mh_run_result r = {sizeof r, 0, MH_RUN_BUDGET, 0};
    for (int i = 0; i < 100 && r.stop == MH_RUN_BUDGET; i++) r = run(m, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x5A);
    /* loaded at $1001 (BASIC relinks the line, so compare the code) */
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0x100E, prg + 15, sizeof prg - 15), 0);
    vic20_free(m);
    unlink(path);
}

MH_SUITE("vic20.machine", NULL, NULL, MH_TEST(test_debugcart_exit_and_rom_errors),
         MH_TEST(test_memory_map), MH_TEST(test_bulk_read), MH_TEST(test_via_interrupt_lines), MH_TEST(test_snapshots),
         MH_TEST(test_snapshot_mutations), MH_TEST(test_cartridges),
         MH_TEST(test_boot_with_original_roms),
         MH_TEST(test_drive8_load_and_run), MH_TEST(test_restore_and_joystick),
         MH_TEST(test_basic_program_relocated))
