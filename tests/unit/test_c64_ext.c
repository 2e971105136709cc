/* c64.snapshot_iface, c64.config, c64.media_iface, c64.caps - the C64's
 * mh.snapshot/1, mh.config/1, mh.media/1 and mh.caps/1 in-process (c64_core,
 * the vtables c64_ext_chips() registers). Needs /usr/share/open-roms/C64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c64.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_c64_common.h"
#include "test_media_build.h"

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

static void run(c64 *m, uint64_t cycles)
{
    mh_run_result r = {0};
    c64_run(m, cycles, &r);
}

static const char *screen(const c64 *m)
{
    static char text[25 * 41 + 1];
    c64t_screen_text(m->p.ram + 0x0400, text);
    return text;
}

/* The vtable registered for iface. */
static const void *vtable(c64 *m, const char *iface)
{
    mh_chip chips[4];
    size_t n = c64_ext_chips(m, chips);
    for (size_t i = 0; i < n; i++)
        if (strcmp(chips[i].interface_id, iface) == 0) {
            CU_ASSERT_PTR_EQUAL(chips[i].context, m);
            return chips[i].vtable;
        }
    return NULL;
}

static char tmpdir[64];

static int suite_init(void)
{
    strcpy(tmpdir, "/tmp/mh_c64_ext_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *write_tmp(const char *name, const uint8_t *data, size_t size)
{
    static char paths[8][600];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 600, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t n = fwrite(data, 1, size, f);
    return fclose(f) == 0 && n == size ? path : NULL;
}

/* ---- c64.snapshot ---- */

typedef struct state {
    mh_cpu6502 cpu;
    c64_plain p;
} state;

static void capture(const c64 *m, state *s)
{
    s->cpu = m->cpu;
    memcpy(&s->p, &m->p, sizeof s->p);
}

static int same_state(const state *a, const state *b)
{
    return a->cpu.pc == b->cpu.pc && a->cpu.a == b->cpu.a && a->cpu.x == b->cpu.x &&
           a->cpu.y == b->cpu.y && a->cpu.s == b->cpu.s && a->cpu.p == b->cpu.p &&
           a->cpu.cycles == b->cpu.cycles && memcmp(&a->p, &b->p, sizeof a->p) == 0;
}

static void test_snapshot_round_trip(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_snapshot_iface *snap = vtable(m, MH_IFACE_SNAPSHOT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
    char error[256];
    /* Something moving: typed text and a raster colour change. */
    CU_ASSERT_EQUAL(c64_type_text(m, "PRINT \"SNAP\"\n", error, sizeof error), MH_OK);
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(snap->save(m, &blob, &size), MH_OK);
    CU_ASSERT_TRUE(size > 56);
    CU_ASSERT_EQUAL(memcmp(blob, "MHSNAP", 6), 0);
    state *first = malloc(sizeof *first), *second = malloc(sizeof *second);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    CU_ASSERT_PTR_NOT_NULL_FATAL(second);
    run(m, 400000);
    capture(m, first);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "\nSNAP "));
    CU_ASSERT_EQUAL(snap->load(m, blob, size, error, sizeof error), MH_OK);
    run(m, 400000);
    capture(m, second);
    CU_ASSERT_TRUE(same_state(first, second));
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "\nSNAP "));
    /* A blob of one machine loads into another of the same kind. */
    c64 *other = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(other);
    const mh_snapshot_iface *snap2 = vtable(other, MH_IFACE_SNAPSHOT);
    CU_ASSERT_EQUAL(snap2->load(other, blob, size, error, sizeof error), MH_OK);
    run(other, 400000);
    capture(other, second);
    CU_ASSERT_TRUE(same_state(first, second));
    c64_free(other);
    free(first);
    free(second);
    free(blob);
    c64_free(m);
}

static void expect_refused(c64 *m, const void *blob, size_t size, const char *fragment)
{
    const mh_snapshot_iface *snap = vtable(m, MH_IFACE_SNAPSHOT);
    state *before = malloc(sizeof *before), *after = malloc(sizeof *after);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    capture(m, before);
    char error[256] = "";
    CU_ASSERT_NOT_EQUAL(snap->load(m, blob, size, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, fragment));
    if (!strstr(error, fragment)) fprintf(stderr, "\n%zu bytes: \"%s\" lacks \"%s\"\n", size, error, fragment);
    capture(m, after);
    CU_ASSERT_TRUE(same_state(before, after));
    free(before);
    free(after);
}

static void test_snapshot_hostile(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_snapshot_iface *snap = vtable(m, MH_IFACE_SNAPSHOT);
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(snap->save(m, &blob, &size), MH_OK);
    run(m, 100000); /* the machine moves on from the saved state */
    uint8_t *bad = malloc(size + 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    const size_t cuts[] = {0, 1, 8, 55, 56, 57, 1000, size / 2, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        uint8_t *copy = tb_dup(blob, cuts[i]);
        expect_refused(m, copy, cuts[i], "truncated");
        free(copy);
    }
    expect_refused(m, NULL, 0, "truncated");
    memcpy(bad, blob, size);
    memset(bad + size, 0, 16);
    expect_refused(m, bad, size + 16, "trailing");
    memcpy(bad, blob, size);
    memcpy(bad, "XXSNAP", 6);
    expect_refused(m, bad, size, "magic");
    memcpy(bad, blob, size);
    memcpy(bad + 8, "vic20", 6);
    expect_refused(m, bad, size, "machine \"vic20\"");
    memcpy(bad, blob, size);
    bad[24] = 99;
    expect_refused(m, bad, size, "version 99");
    uint32_t seed = 1;
    for (int i = 0; i < 8; i++) {
        memcpy(bad, blob, size);
        size_t at = 44 + tb_rand(&seed) % (size - 44);
        bad[at] ^= (uint8_t)(1u << (i & 7));
        expect_refused(m, bad, size, "checksum");
    }
    memcpy(bad, blob, size);
    bad[40] ^= 1;
    expect_refused(m, bad, size, "checksum");
    /* An NTSC machine refuses a PAL blob. */
    c64 *ntsc = boot("{\"video\":\"ntsc\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ntsc);
    expect_refused(ntsc, blob, size, "VIC-II");
    c64_free(ntsc);
    /* Still running fine. */
    memset(m->p.ram + 0x0400, 0x20, 1000);
    char error[256];
    CU_ASSERT_EQUAL(c64_type_text(m, "PRINT \"STILL\"\n", error, sizeof error), MH_OK);
    run(m, 400000);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "\nSTILL "));
    free(bad);
    free(blob);
    c64_free(m);
}

static void spoil_raster(c64_snapshot *s) { s->vic.raster = 46051; }
static void spoil_vc(c64_snapshot *s) { s->vic.vc = 2000; }
static void spoil_cycles(c64_snapshot *s) { s->vic.cycles_per_line = 200; }
static void spoil_sprite_mc(c64_snapshot *s) { s->vic.mc[3] = 200; }
static void spoil_sprite_x(c64_snapshot *s) { s->vic.spr_xtick[0] = 200; }
static void spoil_sid_ring(c64_snapshot *s) { s->sid.ring_read = 1u << 30; }
static void spoil_sid_rate(c64_snapshot *s) { s->sid.chip.sample_rate = 0; }
static void spoil_sid_clock(c64_snapshot *s) { s->sid.cycles = 0; } /* 3 M cycles behind */
static void spoil_sid_filter(c64_snapshot *s) { s->sid.chip.vlp = 0x7FFFFFF0; }
static void spoil_cia_tod(c64_snapshot *s) { s->cia1.tod.pin_hz = 0; }
static void spoil_vic_bank(c64_snapshot *s) { s->p.vic_bank = 9; }
static void spoil_type_queue(c64_snapshot *s) { s->p.typed.head = 1u << 31; }
static void spoil_cpu_model(c64_snapshot *s) { s->cpu.model = 99; }
/* the held sprite pixel indexes a 4-entry colour table */
static void spoil_sprite_hold(c64_snapshot *s) { s->vic.spr_hold_val[5] = 200; }
static void spoil_env_pipe(c64_snapshot *s) { s->sid.chip.voice[1].state_pipe = 77; }

/* Well-formed blobs (right checksum) with state no C64 can be in, as anyone
 * can write one: each is refused, naming what is out of range, and the
 * machine is left as it was, instead of the chips indexing past their
 * tables (what fuzz_snapshot found). */
static void test_snapshot_state_out_of_range(void)
{
    static const struct {
        void (*spoil)(c64_snapshot *s);
        const char *says;
    } cases[] = {
        {spoil_raster, "raster line 46051"},    {spoil_vc, "video counters"},
        {spoil_cycles, "VIC-II timing"},        {spoil_sprite_mc, "sprite 3 data counter"},
        {spoil_sprite_x, "sprite 0 position"},  {spoil_sid_ring, "SID audio ring"},
        {spoil_sid_rate, "SID model or clocks"}, {spoil_cia_tod, "CIA 1"},
        {spoil_vic_bank, "VIC bank"},           {spoil_type_queue, "keyboard queue"},
        {spoil_cpu_model, "CPU model"},       {spoil_sid_clock, "SID clock is"},
        {spoil_sid_filter, "SID filter state"}, {spoil_sprite_hold, "sprite 5 held pixel"},
        {spoil_env_pipe, "SID voice 2 envelope pipeline"},
    };
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_snapshot_iface *snap = vtable(m, MH_IFACE_SNAPSHOT);
    void *blob = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(snap->save(m, &blob, &size), MH_OK);
    CU_ASSERT_EQUAL_FATAL(size, 56 + sizeof(c64_snapshot));
    uint8_t *bad = malloc(size);
    c64_snapshot *state = malloc(sizeof *state);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
    CU_ASSERT_PTR_NOT_NULL_FATAL(state);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(state, (const uint8_t *)blob + 56, sizeof *state);
        cases[i].spoil(state);
        memcpy(bad, blob, size);
        memcpy(bad + 56, state, sizeof *state);
        c64_snapshot_blob_seal(bad, size);
        expect_refused(m, bad, size, cases[i].says);
    }
    /* The unspoilt blob still loads. */
    char error[256];
    CU_ASSERT_EQUAL(snap->load(m, blob, size, error, sizeof error), MH_OK);
    free(state);
    free(bad);
    free(blob);
    c64_free(m);
}

/* ---- c64.media_iface ---- */

/* 10 PRINT "LOADED" at $0801. */
static const uint8_t print_prg[] = {0x01, 0x08, 0x10, 0x08, 0x0A, 0x00, 0x99, 0x20, 0x22, 'L',
                                    'O',  'A',  'D',  'E',  'D',  0x22, 0x00, 0x00, 0x00};

static const char *make_d64(void)
{
    tb_d64 d64;
    tb_d64_init(&d64, 35, false, "MEDIA", "MH");
    tb_d64_add_file(&d64, "PROG", 0x82, print_prg, sizeof print_prg);
    const char *path = write_tmp("disk.d64", d64.img, d64.size);
    tb_d64_free(&d64);
    return path;
}

static void test_media_program_and_tape(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_media_iface *media = vtable(m, MH_IFACE_MEDIA);
    CU_ASSERT_PTR_NOT_NULL_FATAL(media);
    char error[512];
    const char *prg = write_tmp("print.prg", print_prg, sizeof print_prg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prg);
    CU_ASSERT_PTR_NULL(media->attached(m, "program"));
    /* Without autostart: in RAM now, nothing typed. */
    CU_ASSERT_EQUAL(media->attach(m, "program", prg, 0, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0x0801, print_prg + 2, sizeof print_prg - 2), 0);
    CU_ASSERT_EQUAL(m->p.ram[0xC6], 0);
    CU_ASSERT_STRING_EQUAL(media->attached(m, "program"), prg);
    CU_ASSERT_EQUAL(media->detach(m, "program", error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "program"));
    /* With autostart: RUN typed at READY. */
    memset(m->p.ram + 0x0801, 0, sizeof print_prg);
    CU_ASSERT_EQUAL(media->attach(m, "program", prg, 1, error, sizeof error), MH_OK);
    run(m, 1000000);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "LOADED"));
    /* A tape: its first program, autostarted. */
    c64_reset(m, 1);
    run(m, BOOT_CYCLES);
    tb_t64_file file = {"PRINT", 0x0801, (uint16_t)(0x0801 + sizeof print_prg - 2), print_prg + 2,
                        sizeof print_prg - 2};
    size_t tsize = 0;
    uint8_t *t64 = tb_t64_build("C64S tape image file", 4, &file, 1, &tsize);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t64);
    const char *tape = write_tmp("tape.t64", t64, tsize);
    free(t64);
    CU_ASSERT_EQUAL(media->attach(m, "tape", tape, 1, error, sizeof error), MH_OK);
    CU_ASSERT_STRING_EQUAL(media->attached(m, "tape"), tape);
    run(m, 1000000);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "LOADED"));
    CU_ASSERT_EQUAL(media->detach(m, "tape", error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "tape"));
    /* Errors. */
    CU_ASSERT_NOT_EQUAL(media->attach(m, "program", tape, 1, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a PRG"));
    CU_ASSERT_NOT_EQUAL(media->attach(m, "tape", prg, 1, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a T64"));
    CU_ASSERT_PTR_NULL(media->attached(m, "tape"));
    c64_free(m);
}

static void test_media_disk_and_cartridge(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_media_iface *media = vtable(m, MH_IFACE_MEDIA);
    char error[512];
    const char *disk = make_d64();
    CU_ASSERT_PTR_NOT_NULL_FATAL(disk);
    CU_ASSERT_EQUAL(media->attach(m, "disk", disk, 0, error, sizeof error), MH_OK);
    CU_ASSERT_STRING_EQUAL(media->attached(m, "disk"), disk);
    CU_ASSERT_EQUAL(c64_type_text(m, "LOAD\"PROG\",8\nRUN\n", error, sizeof error), MH_OK);
    run(m, 2000000);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "LOADED"));
    CU_ASSERT_EQUAL(media->detach(m, "disk", error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "disk"));
    CU_ASSERT_PTR_NULL(m->drive8);

    /* An 8K cartridge: attach hard-resets into it, detach back out. */
    static uint8_t roml[8192];
    memset(roml, 0xEA, sizeof roml);
    tb_crt_chip chip = {0, 0, 0x8000, 8192, 0, 0, false};
    size_t csize = 0;
    uint8_t *crt = tb_crt_build(0, 0, 1, "MEDIA", &chip, 1, &csize);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    const char *cart = write_tmp("cart.crt", crt, csize);
    free(crt);
    CU_ASSERT_EQUAL(media->attach(m, "cartridge", cart, 0, error, sizeof error), MH_OK);
    CU_ASSERT_STRING_EQUAL(media->attached(m, "cartridge"), cart);
    CU_ASSERT_EQUAL(m->p.run.cycles, 0); /* the power cycle */
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x8000), 0x00); /* fill + index */
    CU_ASSERT_EQUAL(c64_bus_peek(m, 0x8005), 0x05);
    CU_ASSERT_EQUAL(media->detach(m, "cartridge", error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "cartridge"));

    /* Errors: missing file, wrong kind, bad images; nothing attached. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/nothere.d64", tmpdir);
    CU_ASSERT_NOT_EQUAL(media->attach(m, "disk", missing, 0, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "nothere.d64"));
    CU_ASSERT_NOT_EQUAL(media->attach(m, "floppy", disk, 0, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "\"floppy\""));
    CU_ASSERT_NOT_EQUAL(media->detach(m, "floppy", error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "floppy"));
    const char *prg = write_tmp("p.prg", print_prg, sizeof print_prg);
    CU_ASSERT_NOT_EQUAL(media->attach(m, "disk", prg, 0, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a D64"));
    CU_ASSERT_NOT_EQUAL(media->attach(m, "cartridge", prg, 0, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "cartridge"));
    CU_ASSERT_NOT_EQUAL(media->attach(m, "program", "", 0, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NULL(media->attached(m, "disk"));
    CU_ASSERT_PTR_NULL(media->attached(m, "cartridge"));
    CU_ASSERT_PTR_NULL(media->attached(m, "program"));
    c64_free(m);
}

/* ---- c64.config ---- */

static void test_config(void)
{
    c64 *m = boot("{\"cia_model\":\"6526a\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_config_iface *config = vtable(m, MH_IFACE_CONFIG);
    CU_ASSERT_PTR_NOT_NULL_FATAL(config);
    CU_ASSERT_EQUAL(config->count(m), 10);
    int runtime = 0;
    for (size_t i = 0; i < config->count(m); i++) {
        const mh_config_item *item = config->item(m, i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(item);
        CU_ASSERT_TRUE(item->name[0] && item->description[0] && item->allowed[0]);
        runtime += item->runtime;
    }
    CU_ASSERT_EQUAL(runtime, 2);
    CU_ASSERT_PTR_NULL(config->item(m, 10));
    CU_ASSERT_STRING_EQUAL(config->item(m, 1)->name, "video");
    CU_ASSERT_STRING_EQUAL(config->item(m, 1)->allowed, "pal|ntsc");
    char out[600], error[512];
    CU_ASSERT_EQUAL(config->get(m, "video", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "pal");
    CU_ASSERT_EQUAL(config->get(m, "cia_model", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "6526a");
    CU_ASSERT_EQUAL(config->get(m, "vicii_model", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "6569");
    CU_ASSERT_EQUAL(config->get(m, "debugcart", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "false");
    CU_ASSERT_EQUAL(config->get(m, "drive8", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_EQUAL(config->get(m, "nope", out, sizeof out), MH_ERR_NOT_FOUND);
    CU_ASSERT_EQUAL(config->get(m, "video", out, 2), MH_ERR_INVALID_ARGUMENT);

    CU_ASSERT_EQUAL(config->set(m, "video", "ntsc", error, sizeof error), MH_ERR_UNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(error, "video can only be chosen when the session is created");
    CU_ASSERT_EQUAL(config->set(m, "nope", "1", error, sizeof error), MH_ERR_NOT_FOUND);
    const char *disk = make_d64();
    CU_ASSERT_EQUAL(config->set(m, "drive8", disk, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(config->get(m, "drive8", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, disk);
    CU_ASSERT_NOT_EQUAL(config->set(m, "drive8", "/nonexistent.d64", error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(config->get(m, "drive8", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, disk); /* a failed attach keeps the disk */
    CU_ASSERT_EQUAL(config->set(m, "drive8", "", error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(config->get(m, "drive8", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "");
    c64_free(m);
}

/* ---- c64.caps ---- */

static void test_caps(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const mh_caps_iface *caps = vtable(m, MH_IFACE_CAPS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(caps);
    const mh_machine_caps *c = caps->caps(m);
    CU_ASSERT_EQUAL(c->struct_size, sizeof *c);
    CU_ASSERT_STRING_EQUAL(c->cpu, "6510");
    CU_ASSERT_STRING_EQUAL(c->video_standards, "pal,ntsc");
    CU_ASSERT_STRING_EQUAL(c->media, "disk,tape,cartridge,program");
    CU_ASSERT_PTR_NOT_NULL(c->description);
    c64_free(m);
}

MH_SUITE("c64.snapshot_iface", NULL, NULL, MH_TEST(test_snapshot_round_trip),
         MH_TEST(test_snapshot_hostile), MH_TEST(test_snapshot_state_out_of_range))
MH_SUITE("c64.media_iface", suite_init, suite_cleanup, MH_TEST(test_media_program_and_tape),
         MH_TEST(test_media_disk_and_cartridge))
MH_SUITE("c64.config", suite_init, suite_cleanup, MH_TEST(test_config))
MH_SUITE("c64.caps", NULL, NULL, MH_TEST(test_caps))
