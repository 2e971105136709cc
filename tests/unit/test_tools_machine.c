/* tools_machine.* - the tools-machine toolset on the real C64 (and
 * bare6502) plugins through the in-process host: media (a D64 built here,
 * listed and attached; a PRG autostarted that changes memory), snapshots
 * (save, change, load, memory and registers back; list with metadata),
 * keyboard and joystick input seen in screen RAM and CIA1, settings, reset
 * and machine_capabilities; and for every tool its bad inputs, paths
 * outside the allowed directory included. Needs /usr/share/open-roms/C64. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mh_test.h"
#include "test_c64_common.h"
#include "test_media_build.h"
#include "test_tools_machine_common.h"

static int suite_init(void) { return tmt_setup(); }
static int suite_cleanup(void) { return 0; }

static const char *str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static int ends_with(const char *s, const char *end)
{
    return s && strlen(s) >= strlen(end) && strcmp(s + strlen(s) - strlen(end), end) == 0;
}

/* ---- tools_machine.media ---- */

/* 10 SYS 2064, then LDA #42 / STA $C000 / RTS: a program that leaves a mark. */
static const char mark_source[] = "        *= $0801\n"
                                  "        .word basic_end\n"
                                  "        .word 10\n"
                                  "        .byte $9E\n"
                                  "        .text \"2064\"\n"
                                  "        .byte 0\n"
                                  "basic_end:\n"
                                  "        .word 0\n"
                                  "        *= $0810\n"
                                  "        LDA #42\n"
                                  "        STA $C000\n"
                                  "        RTS\n";
static uint8_t poke_prg[64];
static size_t poke_prg_size;

static int build_prg(void)
{
    static uint8_t image[65536];
    int lo = 0, hi = 0;
    if (poke_prg_size) return 0;
    if (c64t_assemble(mark_source, image, &lo, &hi) != 0 || hi - lo + 3 > (int)sizeof poke_prg)
        return -1;
    poke_prg[0] = (uint8_t)lo;
    poke_prg[1] = (uint8_t)(lo >> 8);
    memcpy(poke_prg + 2, image + lo, (size_t)(hi - lo + 1));
    poke_prg_size = (size_t)(hi - lo + 3);
    return 0;
}

static int make_disk(const char *rel)
{
    if (build_prg() != 0) return -1;
    tb_d64 d;
    tb_d64_init(&d, 35, false, "TOOLS DISK", "42");
    tb_d64_add_file(&d, "HELLO", 0x82, poke_prg, poke_prg_size);
    static const uint8_t seq[300] = {1};
    tb_d64_add_file(&d, "NOTES", 0x81, seq, sizeof seq);
    int r = tmt_write(rel, d.img, d.size);
    tb_d64_free(&d);
    return r;
}

static void test_list_and_attach_disk(void)
{
    CU_ASSERT_EQUAL_FATAL(make_disk("allowed/tools.d64"), 0);
    const cJSON *out = tmt_expect_ok("files_list_disk", "{\"path\":\"tools.d64\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "name"), "TOOLS DISK");
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(out, "entries");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(entries), 2);
    CU_ASSERT_STRING_EQUAL(str(cJSON_GetArrayItem(entries, 0), "name"), "HELLO");
    CU_ASSERT_STRING_EQUAL(str(cJSON_GetArrayItem(entries, 0), "type"), "PRG");
    CU_ASSERT_STRING_EQUAL(str(cJSON_GetArrayItem(entries, 1), "type"), "SEQ");
    CU_ASSERT_EQUAL(num(cJSON_GetArrayItem(entries, 1), "blocks"), 2);
    CU_ASSERT_EQUAL(num(out, "blocks_free"), 664 - 3);
    const cJSON *r = tmt_call("files_list_disk", "{\"path\":\"tools.d64\"}");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "\"HELLO\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "BLOCKS FREE."));

    out = tmt_expect_ok("files_attach_disk", "{\"path\":\"tools.d64\"}");
    const cJSON *attached = cJSON_GetObjectItemCaseSensitive(out, "attached");
    CU_ASSERT_TRUE(ends_with(str(attached, "disk"), "/allowed/tools.d64"));
    /* Without a path: the attached disk. */
    out = tmt_expect_ok("files_list_disk", "{}");
    CU_ASSERT_STRING_EQUAL(str(out, "name"), "TOOLS DISK");
    out = tmt_expect_ok("files_detach", "{\"kind\":\"disk\"}");
    attached = cJSON_GetObjectItemCaseSensitive(out, "attached");
    CU_ASSERT_TRUE(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(attached, "disk")));
    tmt_expect_error("files_list_disk", "{}", "no disk is attached", "files_attach_disk");
}

static void test_autostart_prg(void)
{
    CU_ASSERT_EQUAL_FATAL(build_prg(), 0);
    CU_ASSERT_EQUAL_FATAL(tmt_write("allowed/poke.prg", poke_prg, poke_prg_size), 0);
    uint8_t zero = 0, value = 0;
    tmt_poke("c64", 1, 0xC000, &zero, 1);
    /* The autostart types RUN at the cursor: start from an empty line. */
    tmt_expect_ok("keyboard_type", "{\"text\":\"{CLR}\"}");
    tmt_run("c64", 5u * TMT_FRAME);
    const cJSON *out = tmt_expect_ok("files_autostart", "{\"path\":\"poke.prg\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "kind"), "program");
    CU_ASSERT_TRUE(ends_with(str(cJSON_GetObjectItemCaseSensitive(out, "attached"), "program"),
                             "/allowed/poke.prg"));
    tmt_run("c64", 100u * TMT_FRAME);
    tmt_peek("c64", 1, 0xC000, &value, 1);
    CU_ASSERT_EQUAL(value, 42); /* the program ran: SYS 2064 stored 42 at $C000 */
    if (value != 42) {
        char screen[25 * 41 + 1];
        tmt_screen("c64", screen);
        fprintf(stderr, "\n%s\n", screen);
    }
    tmt_expect_ok("files_detach", "{\"kind\":\"all\"}");

    /* The same program in a T64, attached with autostart. */
    tb_t64_file file = {"MARK", (uint16_t)(poke_prg[0] | poke_prg[1] << 8),
                        (uint16_t)((poke_prg[0] | poke_prg[1] << 8) + poke_prg_size - 2),
                        poke_prg + 2, poke_prg_size - 2};
    size_t t64_size = 0;
    uint8_t *t64 = tb_t64_build("C64S tape image file", 4, &file, 1, &t64_size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t64);
    CU_ASSERT_EQUAL_FATAL(tmt_write("allowed/mark.t64", t64, t64_size), 0);
    free(t64);
    tmt_poke("c64", 1, 0xC000, &zero, 1);
    tmt_expect_ok("keyboard_type", "{\"text\":\"{CLR}\"}");
    tmt_run("c64", 5u * TMT_FRAME);
    out = tmt_expect_ok("files_attach_tape", "{\"path\":\"mark.t64\",\"autostart\":true}");
    CU_ASSERT_TRUE(ends_with(str(cJSON_GetObjectItemCaseSensitive(out, "attached"), "tape"),
                             "/allowed/mark.t64"));
    tmt_run("c64", 100u * TMT_FRAME);
    tmt_peek("c64", 1, 0xC000, &value, 1);
    CU_ASSERT_EQUAL(value, 42);
    tmt_expect_ok("files_detach", "{\"kind\":\"tape\"}");
}

/* An 8K cartridge whose cold start stores 42 at $C000 and loops. */
static void test_cartridge(void)
{
    static const uint8_t rom[] = {0x09, 0x80, 0x09, 0x80, 0xC3, 0xC2, 0xCD, 0x38, 0x30, 0xA9,
                                  0x2A, 0x8D, 0x00, 0xC0, 0x4C, 0x0E, 0x80};
    tb_crt_chip chip = {0, 0, 0x8000, 8192, 0, 0, false};
    size_t size = 0;
    uint8_t *crt = tb_crt_build(0, 0, 1, "MARK", &chip, 1, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    memcpy(crt + 64 + 16, rom, sizeof rom);
    CU_ASSERT_EQUAL_FATAL(tmt_write("allowed/mark.crt", crt, size), 0);
    free(crt);
    uint8_t zero = 0, value = 0;
    tmt_poke("c64", 1, 0xC000, &zero, 1);
    const cJSON *out = tmt_expect_ok("files_attach_cartridge", "{\"path\":\"mark.crt\"}");
    CU_ASSERT_TRUE(ends_with(str(cJSON_GetObjectItemCaseSensitive(out, "attached"), "cartridge"),
                             "/allowed/mark.crt"));
    tmt_run("c64", 5u * TMT_FRAME);
    tmt_peek("c64", 1, 0xC000, &value, 1);
    CU_ASSERT_EQUAL(value, 42); /* the machine power-cycled into the cartridge */
    /* files_autostart detects a CRT by its content. */
    out = tmt_expect_ok("files_autostart", "{\"path\":\"mark.crt\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "kind"), "cartridge");
    tmt_expect_ok("files_detach", "{\"kind\":\"cartridge\"}");
    tmt_run("c64", 150u * TMT_FRAME); /* back to BASIC's READY */
    char screen[25 * 41 + 1];
    tmt_screen("c64", screen);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen, "READY."));
}

static void test_media_bad_inputs(void)
{
    static const char *const tools[] = {"files_attach_disk", "files_attach_tape",
                                        "files_attach_cartridge", "files_autostart",
                                        "files_list_disk"};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        tmt_expect_error(tools[i], "{\"path\":\"../outside/secret.d64\"}",
                         "outside the allowed directories", "--allow-dir");
        tmt_expect_error(tools[i], "{\"path\":\"/etc/passwd\"}", "\"/etc/passwd\" is outside",
                         tmt_allowed);
        tmt_expect_error(tools[i], "{\"path\":\"link_out.d64\"}", "symbolic link", "--allow-dir");
        tmt_expect_error(tools[i], "{\"path\":\"missing.d64\"}", "does not exist", NULL);
        tmt_expect_error(tools[i], "{\"path\":\"\"}", "path: empty", NULL);
        /* JSON's \u0000 ends the string on the way in: still confined. */
        tmt_expect_error(tools[i], "{\"path\":\"gone\\u0000/../../etc/passwd\"}",
                         "does not exist", NULL);
        tmt_expect_error(tools[i], "{\"path\":5}", "path", NULL);
        char abs[PATH_MAX + 64];
        snprintf(abs, sizeof abs, "{\"path\":\"%s-evil/x.d64\"}", tmt_allowed);
        tmt_expect_error(tools[i], abs, "outside the allowed directories", NULL);
    }
    tmt_expect_error("files_attach_disk", "{}", "path", NULL);
    tmt_expect_error("files_list_disk", "{\"path\":\"notes.txt\"}", "not a usable D64", "D64:");
    tmt_expect_error("files_attach_disk", "{\"path\":\"notes.txt\"}", "cannot attach", "notes.txt");
    tmt_expect_error("files_attach_cartridge", "{\"path\":\"poke.prg\"}", "cartridge", NULL);
    tmt_expect_error("files_attach_disk", "{\"path\":\"tools.d64\",\"drive\":9}", "drive", "8");
    tmt_expect_error("files_attach_disk", "{\"path\":\"tools.d64\",\"autostart\":\"yes\"}",
                     "autostart", NULL);
    tmt_expect_error("files_detach", "{\"kind\":\"floppy\"}", "kind", NULL);
    tmt_expect_error("files_detach", "{}", "kind", NULL);
    tmt_expect_error("files_autostart", "{\"path\":\"poke.prg\",\"kind\":\"reel\"}", "kind", NULL);
    /* bare6502 has no media interface */
    tmt_expect_error("files_attach_disk", "{\"path\":\"tools.d64\",\"session\":\"bare\"}",
                     "not available", "bare6502");
}

/* Damaged disk images (random bytes changed in the BAM, the directory and
 * the data, truncated files) are listed as far as they go or refused with
 * the parser's message; never a crash or a silent empty listing. */
static void test_list_disk_hostile(void)
{
    tb_d64 d;
    CU_ASSERT_EQUAL_FATAL(build_prg(), 0);
    tb_d64_init(&d, 35, false, "FUZZ", "ZZ");
    for (int i = 0; i < 10; i++) tb_d64_add_file(&d, "FILE", 0x82, poke_prg, poke_prg_size);
    uint32_t seed = 99;
    int listed = 0, refused = 0;
    size_t dir = tb_d64_offset(18, 0);
    for (int round = 0; round < 60; round++) {
        uint8_t *img = tb_dup(d.img, d.size);
        size_t size = d.size;
        int n = 1 + (int)(tb_rand(&seed) % 12);
        for (int k = 0; k < n; k++) {
            /* Mostly track 18 (BAM and directory), sometimes anywhere. */
            size_t at = tb_rand(&seed) % 4 ? dir + tb_rand(&seed) % (19 * 256)
                                           : tb_rand(&seed) % size;
            img[at] = (uint8_t)tb_rand(&seed);
        }
        if (round % 10 == 9) size = tb_rand(&seed) % size; /* truncated */
        CU_ASSERT_EQUAL_FATAL(tmt_write("allowed/fuzz.d64", img, size), 0);
        free(img);
        const cJSON *r = tmt_call("files_list_disk", "{\"path\":\"fuzz.d64\"}");
        if (mh_harness_is_error(r)) {
            refused++;
            CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "not a usable D64"));
        } else {
            listed++;
            const cJSON *out = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
            CU_ASSERT_TRUE(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(out, "entries")));
        }
    }
    tb_d64_free(&d);
    CU_ASSERT_TRUE(listed > 0);
    CU_ASSERT_TRUE(refused > 0);
}

MH_SUITE("tools_machine.media", suite_init, suite_cleanup, MH_TEST(test_list_and_attach_disk),
         MH_TEST(test_autostart_prg), MH_TEST(test_cartridge), MH_TEST(test_media_bad_inputs),
         MH_TEST(test_list_disk_hostile))

/* ---- tools_machine.snapshot ---- */

static void test_snapshot_round_trip(void)
{
    uint8_t before[4] = {0x11, 0x22, 0x33, 0x44}, after[4] = {0x99, 0x99, 0x99, 0x99}, now[4];
    tmt_poke("c64", 1, 0xC100, before, 4);
    uint8_t a_saved = 0;
    uint16_t pc_saved = 0;
    tmt_cpu("c64", &a_saved, &pc_saved, 1, 0x5A);
    const cJSON *out = tmt_expect_ok("snapshot_save", "{\"path\":\"one.mhsnap\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "machine"), "c64");
    CU_ASSERT_TRUE(num(out, "size") > 65536);
    CU_ASSERT_TRUE(ends_with(str(out, "path"), "/allowed/one.mhsnap"));
    char path[PATH_MAX + 64];
    tmt_path("allowed/one.mhsnap", path, sizeof path);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL((double)st.st_size, num(out, "size"));

    /* Change memory, a register and run on; load brings them back. */
    tmt_poke("c64", 1, 0xC100, after, 4);
    tmt_cpu("c64", NULL, NULL, 1, 0xA5);
    tmt_run("c64", 5u * TMT_FRAME);
    tmt_expect_ok("snapshot_load", "{\"path\":\"one.mhsnap\"}");
    tmt_peek("c64", 1, 0xC100, now, 4);
    CU_ASSERT_EQUAL(memcmp(now, before, 4), 0);
    uint8_t a = 0;
    uint16_t pc = 0;
    tmt_cpu("c64", &a, &pc, 0, 0);
    CU_ASSERT_EQUAL(a, 0x5A);
    CU_ASSERT_EQUAL(pc, pc_saved);

    /* No overwrite without asking. */
    tmt_expect_error("snapshot_save", "{\"path\":\"one.mhsnap\"}", "exists", "overwrite");
    tmt_expect_ok("snapshot_save", "{\"path\":\"one.mhsnap\",\"overwrite\":true}");
}

static void test_snapshot_list(void)
{
    tmt_expect_ok("snapshot_save", "{\"path\":\"two.mhsnap\",\"overwrite\":true}");
    static const uint8_t junk[] = "MHSNAX not one";
    CU_ASSERT_EQUAL(tmt_write("allowed/junk.mhsnap", junk, sizeof junk), 0);
    char sub[PATH_MAX + 64];
    tmt_path("allowed/snaps", sub, sizeof sub);
    mkdir(sub, 0755);
    tmt_expect_ok("snapshot_save", "{\"path\":\"snaps/three.mhsnap\",\"overwrite\":true}");

    const cJSON *out = tmt_expect_ok("snapshot_list", "{}");
    CU_ASSERT_STRING_EQUAL(str(out, "directory"), tmt_allowed);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(out, "snapshots");
    int found = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        CU_ASSERT_STRING_NOT_EQUAL(str(item, "name"), "junk.mhsnap");
        CU_ASSERT_STRING_NOT_EQUAL(str(item, "name"), "link_out.d64");
        if (strcmp(str(item, "name"), "two.mhsnap") != 0) continue;
        found = 1;
        CU_ASSERT_STRING_EQUAL(str(item, "machine"), "c64");
        CU_ASSERT_EQUAL(num(item, "version"), 5); /* C64_SNAP_VERSION */
        CU_ASSERT_TRUE(num(item, "size") > 65536);
        const char *time = str(item, "time");
        CU_ASSERT_TRUE(time && strlen(time) == 20 && time[10] == 'T' && time[19] == 'Z');
    }
    CU_ASSERT_TRUE(found);
    out = tmt_expect_ok("snapshot_list", "{\"directory\":\"snaps\"}");
    list = cJSON_GetObjectItemCaseSensitive(out, "snapshots");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(list), 1);
    CU_ASSERT_STRING_EQUAL(str(cJSON_GetArrayItem(list, 0), "name"), "three.mhsnap");
}

static void test_snapshot_bad_inputs(void)
{
    tmt_expect_error("snapshot_save", "{\"path\":\"../outside/x.mhsnap\"}",
                     "outside the allowed directories", "--allow-dir");
    tmt_expect_error("snapshot_save", "{\"path\":\"/etc/x.mhsnap\"}", "is outside", NULL);
    tmt_expect_error("snapshot_save", "{\"path\":\"nodir/x.mhsnap\"}", "does not exist", NULL);
    tmt_expect_error("snapshot_save", "{\"path\":\"snaps\"}", "directory", NULL);
    tmt_expect_error("snapshot_save", "{\"path\":\"link_out.d64\",\"overwrite\":true}",
                     "symbolic link", NULL);
    tmt_expect_error("snapshot_save", "{}", "path", NULL);
    tmt_expect_error("snapshot_save", "{\"path\":\"x.mhsnap\",\"overwrit\":true}", "overwrit",
                     NULL); /* a misspelt argument is not ignored */
    tmt_expect_error("snapshot_save", "{\"path\":\"x.mhsnap\",\"overwrite\":1}", "overwrite", NULL);
    tmt_expect_error("snapshot_load", "{\"path\":\"../outside/secret.txt\"}",
                     "outside the allowed directories", NULL);
    tmt_expect_error("snapshot_load", "{\"path\":\"/etc/passwd\"}", "is outside", NULL);
    tmt_expect_error("snapshot_load", "{\"path\":\"link_out.d64\"}", "symbolic link", NULL);
    tmt_expect_error("snapshot_load", "{\"path\":\"nothere.mhsnap\"}", "does not exist", NULL);
    tmt_expect_error("snapshot_load", "{\"path\":\"notes.txt\"}", "not an mcphost snapshot",
                     "snapshot_list");
    /* A damaged snapshot is refused and the machine is unchanged. */
    char path[PATH_MAX + 64];
    tmt_path("allowed/one.mhsnap", path, sizeof path);
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    uint8_t *blob = malloc(1 << 20);
    size_t n = fread(blob, 1, 1 << 20, f);
    fclose(f);
    blob[n / 2] ^= 0xFF;
    CU_ASSERT_EQUAL(tmt_write("allowed/bad.mhsnap", blob, n), 0);
    CU_ASSERT_EQUAL(tmt_write("allowed/short.mhsnap", blob, 100), 0);
    free(blob);
    uint8_t mark = 0x77, now = 0;
    tmt_poke("c64", 1, 0xC200, &mark, 1);
    tmt_expect_error("snapshot_load", "{\"path\":\"bad.mhsnap\"}", "was not loaded",
                     "unchanged");
    tmt_expect_error("snapshot_load", "{\"path\":\"short.mhsnap\"}", "was not loaded", NULL);
    tmt_peek("c64", 1, 0xC200, &now, 1);
    CU_ASSERT_EQUAL(now, 0x77);
    tmt_expect_error("snapshot_list", "{\"directory\":\"/etc\"}", "is outside", NULL);
    tmt_expect_error("snapshot_list", "{\"directory\":\"../outside\"}", "outside", NULL);
    tmt_expect_error("snapshot_list", "{\"directory\":\"notes.txt\"}", "not a directory", NULL);
    tmt_expect_error("snapshot_save", "{\"path\":\"b.mhsnap\",\"session\":\"bare\"}",
                     "not available", "bare6502");
}

MH_SUITE("tools_machine.snapshot", suite_init, suite_cleanup, MH_TEST(test_snapshot_round_trip),
         MH_TEST(test_snapshot_list), MH_TEST(test_snapshot_bad_inputs))

/* ---- tools_machine.input ---- */

static void test_keyboard_type_screen(void)
{
    const cJSON *out = tmt_expect_ok("keyboard_type", "{\"text\":\"{CLR}PRINT 7*6{RETURN}\"}");
    CU_ASSERT_EQUAL(num(out, "queued"), 11);
    const cJSON *codes = cJSON_GetObjectItemCaseSensitive(out, "petscii");
    CU_ASSERT_EQUAL(cJSON_GetArrayItem(codes, 0)->valueint, 0x93);
    CU_ASSERT_EQUAL(cJSON_GetArrayItem(codes, 10)->valueint, 0x0D);
    tmt_run("c64", 30u * TMT_FRAME);
    char screen[25 * 41 + 1];
    tmt_screen("c64", screen);
    CU_ASSERT_EQUAL(strncmp(screen, "PRINT 7*6", 9), 0); /* CLR put it at the top */
    /* RETURN reached BASIC: it answered (the Open ROMs' BASIC has no
     * PRINT of expressions yet) and printed READY. again. */
    CU_ASSERT_PTR_NOT_NULL(strstr(screen, "\nREADY."));
    if (!strstr(screen, "\nREADY.")) fprintf(stderr, "\n%s\n", screen);
    /* A repeat and a raw code. */
    tmt_expect_ok("keyboard_type", "{\"text\":\"{clr}{crsr down*3}{$41}\\n\"}");
    tmt_run("c64", 30u * TMT_FRAME);
    tmt_screen("c64", screen);
    CU_ASSERT_EQUAL(screen[3 * 41], 'A');
}

static void test_keyboard_press(void)
{
    tmt_expect_ok("keyboard_type", "{\"text\":\"{CLR}\"}");
    tmt_run("c64", 10u * TMT_FRAME);
    const cJSON *out = tmt_expect_ok("keyboard_press", "{\"key\":\"q\",\"frames\":3}");
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(out, "keys"), 0)->valuestring, "Q");
    CU_ASSERT_EQUAL(tmt_keys_held("c64"), 1); /* held now ... */
    tmt_run("c64", 5u * TMT_FRAME);
    CU_ASSERT_EQUAL(tmt_keys_held("c64"), 0); /* ... and released by the machine */
    char screen[25 * 41 + 1];
    tmt_screen("c64", screen);
    CU_ASSERT_EQUAL(screen[0], 'Q'); /* the KERNAL's scan saw it */
    /* Two keys at once, by other spellings. */
    out = tmt_expect_ok("keyboard_press", "{\"keys\":[\"shift\",\"crsr down\"],\"frames\":2}");
    CU_ASSERT_EQUAL(tmt_keys_held("c64"), 2);
    tmt_run("c64", 4u * TMT_FRAME);
    CU_ASSERT_EQUAL(tmt_keys_held("c64"), 0);
}

static void test_joystick(void)
{
    tmt_expect_ok("joystick_set", "{\"port\":2,\"directions\":[\"up\",\"left\"],\"fire\":true}");
    tmt_run("c64", TMT_FRAME);
    /* Port 2 pulls CIA1 PA0 (up), PA2 (left), PA4 (fire) low. */
    CU_ASSERT_EQUAL(tmt_cia1("c64", 0x00) & 0x1F, 0x1F & ~(0x01 | 0x04 | 0x10));
    tmt_expect_ok("joystick_set", "{\"port\":2}");
    CU_ASSERT_EQUAL(tmt_cia1("c64", 0x00) & 0x1F, 0x1F);
    /* Port 1 (PB) for 2 frames, then centred by the machine. */
    const cJSON *out =
        tmt_expect_ok("joystick_set", "{\"port\":1,\"directions\":[\"down\"],\"frames\":2}");
    CU_ASSERT_EQUAL(num(out, "mask"), 2);
    CU_ASSERT_EQUAL(tmt_cia1("c64", 0x01) & 0x02, 0);
    tmt_run("c64", 3u * TMT_FRAME);
    CU_ASSERT_EQUAL(tmt_cia1("c64", 0x01) & 0x02, 0x02);
}

static void test_input_bad_inputs(void)
{
    tmt_expect_error("keyboard_type", "{\"text\":\"{FOO}\"}", "unknown key {FOO} at character 1",
                     "{RETURN");
    tmt_expect_error("keyboard_type", "{\"text\":\"AB{RETURN\"}", "character 3",
                     "no closing }");
    tmt_expect_error("keyboard_type", "{\"text\":\"A}B\"}", "character 2", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"~\"}", "'~' at character 1", "no key");
    tmt_expect_error("keyboard_type", "{\"text\":\"{RESTORE}\"}", "keyboard_press", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"{$00}\"}", "$00", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"{$4}\"}", "unknown key", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"{DOWN*0}\"}", "repeat", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"{DOWN*999}\"}", "repeat", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"\\u0001\"}", "0x01", "cannot be typed");
    tmt_expect_error("keyboard_type", "{\"text\":\"\"}", "empty", NULL);
    tmt_expect_error("keyboard_type", "{}", "text", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":7}", "text", NULL);
    char *big = malloc(5000 + 32);
    strcpy(big, "{\"text\":\"");
    memset(big + 9, 'A', 5000);
    strcpy(big + 9 + 5000, "\"}");
    tmt_expect_error("keyboard_type", big, "more than 4096", NULL);
    free(big);
    tmt_expect_error("keyboard_press", "{\"key\":\"NOPE\"}", "unknown key \"NOPE\"", "RUNSTOP");
    tmt_expect_error("keyboard_press", "{\"key\":\"A\",\"frames\":0}", "frames", NULL);
    tmt_expect_error("keyboard_press", "{\"key\":\"A\",\"frames\":99999}", "frames", NULL);
    tmt_expect_error("keyboard_press", "{\"key\":\"A\",\"keys\":[\"B\"]}", "not both", NULL);
    tmt_expect_error("keyboard_press", "{\"keys\":[]}", "1 to 8", NULL);
    tmt_expect_error("keyboard_press", "{\"keys\":[1]}", "keys", NULL);
    tmt_expect_error("keyboard_press", "{}", "give key", NULL);
    tmt_expect_error("keyboard_press", "{\"key\":\"\"}", "empty", NULL);
    CU_ASSERT_EQUAL(tmt_keys_held("c64"), 0); /* nothing pressed by the refusals */
    tmt_expect_error("joystick_set", "{\"port\":3}", "port", NULL);
    tmt_expect_error("joystick_set", "{}", "port", NULL);
    tmt_expect_error("joystick_set", "{\"port\":2,\"directions\":[\"up\",\"down\"]}",
                     "impossible", NULL);
    tmt_expect_error("joystick_set", "{\"port\":2,\"directions\":[\"north\"]}", "directions",
                     NULL);
    tmt_expect_error("joystick_set", "{\"port\":2,\"directions\":\"up\"}", "directions", NULL);
    tmt_expect_error("joystick_set", "{\"port\":2,\"fire\":\"yes\"}", "fire", NULL);
    tmt_expect_error("joystick_set", "{\"port\":2,\"frames\":-1}", "frames", NULL);
    tmt_expect_error("keyboard_type", "{\"text\":\"A\",\"session\":\"bare\"}", "not available",
                     "bare6502");
    tmt_expect_error("keyboard_type", "{\"text\":\"A\",\"session\":\"nosuch\"}", "nosuch", NULL);
}

/* Hostile texts (random braces, names, repeats, codes, bytes) on a session
 * of their own: each is either queued or refused with a message that says
 * "text:" or why the queue is full; nothing else happens. */
static void test_keyboard_type_hostile(void)
{
    tmt_expect_ok("session_create", "{\"machine\":\"c64\",\"name\":\"fuzz\",\"select\":false}");
    static const char *const pieces[] = {"{", "}", "{RETURN}", "{crsr down*3}", "{$93}", "{$0",
                                         "*", "{F9}", "A", "z", "~", "\\n", "{}", "{*2}",
                                         "{RETURN*256}", "{ $41 }", "{RVS-ON}", "\\u00ff", " "};
    uint32_t seed = 12345;
    int ok = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        char text[256] = "", args[600];
        int n = 1 + (int)(tb_rand(&seed) % 8);
        for (int i = 0; i < n; i++)
            strncat(text, pieces[tb_rand(&seed) % (sizeof pieces / sizeof pieces[0])],
                    sizeof text - strlen(text) - 1);
        snprintf(args, sizeof args, "{\"text\":\"%s\",\"session\":\"fuzz\"}", text);
        const cJSON *r = tmt_call("keyboard_type", args);
        const char *message = mh_harness_text(r);
        if (!mh_harness_is_error(r)) {
            ok++;
            continue;
        }
        refused++;
        int useful = strstr(message, "text:") || strstr(message, "cannot queue");
        if (!useful) fprintf(stderr, "\n  %s -> %s\n", args, message);
        CU_ASSERT_TRUE(useful);
    }
    CU_ASSERT_TRUE(ok > 10);
    CU_ASSERT_TRUE(refused > 10);
    tmt_expect_ok("session_destroy", "{\"session\":\"fuzz\"}");
}

MH_SUITE("tools_machine.input", suite_init, suite_cleanup, MH_TEST(test_keyboard_type_screen),
         MH_TEST(test_keyboard_press), MH_TEST(test_joystick), MH_TEST(test_input_bad_inputs),
         MH_TEST(test_keyboard_type_hostile))

/* ---- tools_machine.config ---- */

static const cJSON *setting(const cJSON *list, const char *name)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, list) if (strcmp(str(item, "name"), name) == 0) return item;
    return NULL;
}

static void test_config(void)
{
    const cJSON *out = tmt_expect_ok("config_list", "{}");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(out, "settings");
    const cJSON *video = setting(list, "video");
    CU_ASSERT_PTR_NOT_NULL_FATAL(video);
    CU_ASSERT_STRING_EQUAL(str(video, "value"), "pal");
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(video, "runtime")));
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(setting(list, "drive8"), "runtime")));
    out = tmt_expect_ok("config_get", "{\"name\":\"vicii_model\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "value"), "6569");
    CU_ASSERT_EQUAL_FATAL(make_disk("allowed/cfg.d64"), 0);
    out = tmt_expect_ok("config_set", "{\"name\":\"drive8\",\"value\":\"cfg.d64\"}");
    CU_ASSERT_TRUE(ends_with(str(out, "value"), "/allowed/cfg.d64"));
    out = tmt_expect_ok("files_list_disk", "{}");
    CU_ASSERT_STRING_EQUAL(str(out, "name"), "TOOLS DISK");
    out = tmt_expect_ok("config_set", "{\"name\":\"drive8\",\"value\":\"\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "value"), "");
}

static void test_config_bad_inputs(void)
{
    tmt_expect_error("config_get", "{\"name\":\"colour\"}", "no setting \"colour\"", "drive8");
    tmt_expect_error("config_get", "{}", "name", NULL);
    tmt_expect_error("config_set", "{\"name\":\"video\",\"value\":\"ntsc\"}",
                     "cannot change on a running machine", "session_create");
    tmt_expect_error("config_set", "{\"name\":\"drive8\",\"value\":\"../outside/secret.d64\"}",
                     "outside the allowed directories", NULL);
    tmt_expect_error("config_set", "{\"name\":\"drive8\",\"value\":\"/etc/passwd\"}",
                     "is outside", NULL);
    tmt_expect_error("config_set", "{\"name\":\"cartridge\",\"value\":\"link_out.d64\"}",
                     "symbolic link", NULL);
    tmt_expect_error("config_set", "{\"name\":\"drive8\",\"value\":3}", "takes a path", NULL);
    tmt_expect_error("config_set", "{\"name\":\"drive8\",\"value\":\"notes.txt\"}", "drive8",
                     NULL);
    tmt_expect_error("config_set", "{\"name\":\"drive8\"}", "value", NULL);
    tmt_expect_error("config_set", "{\"name\":\"nope\",\"value\":1}", "no setting", NULL);
    tmt_expect_error("config_list", "{\"session\":\"bare\"}", "not available", "bare6502");
}

static void test_machine_reset(void)
{
    uint8_t mark = 0x42, now = 0;
    tmt_poke("c64", 1, 0xC300, &mark, 1);
    const cJSON *out = tmt_expect_ok("machine_reset", "{}");
    CU_ASSERT_STRING_EQUAL(str(out, "mode"), "soft");
    uint16_t pc = 0;
    tmt_cpu("c64", NULL, &pc, 0, 0);
    tmt_peek("c64", 1, 0xC300, &now, 1);
    CU_ASSERT_EQUAL(now, 0x42); /* soft: RAM kept */
    out = tmt_expect_ok("machine_reset", "{\"mode\":\"hard\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "mode"), "hard");
    tmt_peek("c64", 1, 0xC300, &now, 1);
    CU_ASSERT_NOT_EQUAL(now, 0x42); /* hard: the power-on pattern */
    tmt_run("c64", 150u * TMT_FRAME);
    char screen[25 * 41 + 1];
    tmt_screen("c64", screen);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen, "READY."));
    tmt_expect_error("machine_reset", "{\"mode\":\"warm\"}", "mode", NULL);
    tmt_expect_error("machine_reset", "{\"mode\":1}", "mode", NULL);
}

MH_SUITE("tools_machine.config", suite_init, suite_cleanup, MH_TEST(test_config),
         MH_TEST(test_config_bad_inputs), MH_TEST(test_machine_reset))

/* ---- tools_machine.caps ---- */

static const cJSON *named(const cJSON *list, const char *key, const char *value)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        const char *v = str(item, key);
        if (v && strcmp(v, value) == 0) return item;
    }
    return NULL;
}

static void test_capabilities_c64(void)
{
    const cJSON *out = tmt_expect_ok("machine_capabilities", "{}");
    CU_ASSERT_STRING_EQUAL(str(out, "machine"), "c64");
    CU_ASSERT_STRING_EQUAL(str(out, "cpu"), "6510");
    const cJSON *chips = cJSON_GetObjectItemCaseSensitive(out, "chips");
    static const char *const instances[] = {"vic2", "cia1", "cia2", "sid", "cpu", "memory"};
    for (size_t i = 0; i < sizeof instances / sizeof instances[0]; i++) {
        const cJSON *chip = named(chips, "instance", instances[i]);
        CU_ASSERT_PTR_NOT_NULL(chip);
        if (chip) CU_ASSERT_TRUE(strlen(str(chip, "description")) > 3);
    }
    CU_ASSERT_PTR_NOT_NULL(named(cJSON_GetObjectItemCaseSensitive(out, "memory_spaces"), "name", "ram"));
    const cJSON *video = cJSON_GetObjectItemCaseSensitive(out, "video");
    CU_ASSERT_STRING_EQUAL(str(video, "standard"), "PAL");
    const cJSON *media = cJSON_GetObjectItemCaseSensitive(out, "media");
    CU_ASSERT_PTR_NOT_NULL(strstr(str(media, "kinds"), "disk"));
    const cJSON *toolsets = cJSON_GetObjectItemCaseSensitive(out, "toolsets");
    const cJSON *tm = named(toolsets, "name", "tools-machine");
    CU_ASSERT_PTR_NOT_NULL_FATAL(tm);
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tm, "available")));
    CU_ASSERT_EQUAL(num(tm, "tools_unavailable"), 0);
    const cJSON *tool = named(cJSON_GetObjectItemCaseSensitive(out, "tools"), "name", "keyboard_type");
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tool, "available")));
    const cJSON *r = tmt_call("machine_capabilities", "{}");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "cia1"));
}

static void test_capabilities_bare6502(void)
{
    const cJSON *out = tmt_expect_ok("machine_capabilities", "{\"session\":\"bare\"}");
    CU_ASSERT_STRING_EQUAL(str(out, "machine"), "bare6502");
    const cJSON *toolsets = cJSON_GetObjectItemCaseSensitive(out, "toolsets");
    const cJSON *tm = named(toolsets, "name", "tools-machine");
    CU_ASSERT_PTR_NOT_NULL_FATAL(tm);
    CU_ASSERT_TRUE(num(tm, "tools_unavailable") >= 10);
    const cJSON *tool = named(cJSON_GetObjectItemCaseSensitive(out, "tools"), "name", "files_attach_disk");
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(tool, "available")));
    CU_ASSERT_PTR_NOT_NULL(strstr(str(tool, "reason"), "bare6502"));
    CU_ASSERT_PTR_NOT_NULL(strstr(str(tool, "reason"), "mh.media/1"));
    /* The chip toolsets that are built: unavailable, saying which chip. */
    static const struct {
        const char *toolset, *chip;
    } chip_sets[] = {{"tools-vic2", "VIC-II"}, {"tools-cia", "CIA"}, {"tools-sid", "SID"},
                     {"tools-audio", "sound output"}};
    const cJSON *r = tmt_call("machine_capabilities", "{\"session\":\"bare\"}");
    int seen = 0;
    for (size_t i = 0; i < sizeof chip_sets / sizeof chip_sets[0]; i++) {
        const cJSON *set = named(toolsets, "name", chip_sets[i].toolset);
        if (!set) continue;
        seen++;
        CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(set, "available")));
        CU_ASSERT_PTR_NOT_NULL(strstr(str(set, "reason"), chip_sets[i].chip));
        CU_ASSERT_PTR_NOT_NULL(strstr(str(set, "reason"), "bare6502"));
        char line[64];
        snprintf(line, sizeof line, "%-14s (", chip_sets[i].toolset);
        const char *at = strstr(mh_harness_text(r), line);
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        const char *unavailable = strstr(at, ") unavailable: ");
        CU_ASSERT_TRUE(unavailable && unavailable < strchr(at, '\n'));
    }
    CU_ASSERT_TRUE(seen >= 1); /* at least one chip toolset is built */
    /* ... and available on the C64. */
    const cJSON *c64 = tmt_expect_ok("machine_capabilities", "{\"session\":\"c64\"}");
    for (size_t i = 0; i < sizeof chip_sets / sizeof chip_sets[0]; i++) {
        const cJSON *set = named(cJSON_GetObjectItemCaseSensitive(c64, "toolsets"), "name",
                                 chip_sets[i].toolset);
        if (set) CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(set, "available")));
    }
    tmt_expect_error("machine_capabilities", "{\"session\":\"nosuch\"}", "nosuch", NULL);
    tmt_expect_error("machine_capabilities", "{\"extra\":1}", "extra", NULL);
}

/* Last suite by name: frees the shared host. */
static int caps_cleanup(void)
{
    tmt_teardown();
    return 0;
}

MH_SUITE("tools_machine.zz_caps", suite_init, caps_cleanup, MH_TEST(test_capabilities_c64),
         MH_TEST(test_capabilities_bare6502))
