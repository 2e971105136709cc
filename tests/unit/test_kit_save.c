/* kit.save: the virtual drive's SAVE trap (mh_kernal_save_trap in
 * mcphost/kernal.h) on a bare CPU state and 64 KiB of RAM with the C64's
 * variables: what is saved (start pointer named by A, end X/Y), the
 * KERNAL variables and registers afterwards, the image written back to its
 * file, and the errors (no name, FILE EXISTS, DISK FULL, a failed
 * write-back that keeps the file in the disk in memory). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/kernal.h>
#include <mcphost/media_d64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const mh_kernal_layout layout = {
    sizeof(mh_kernal_layout), .status = 0x90, .verify_flag = 0x93, .load_end = 0xAE,
    .file_name_length = 0xB7, .secondary_address = 0xB9, .device = 0xBA, .file_name = 0xBB,
    .load_start = 0xC3, .keyboard_count = 0xC6, .keyboard_buffer = 0x0277, .keyboard_size = 10,
    .basic_start = 0x2B, .basic_end = 0x2D, .basic_program = 0x0801, .load_entry = 0xFFD5,
    .directory_address = 0x0401, .save_entry = 0xFFD8, .save_start = 0xC1};

typedef struct rig {
    uint8_t ram[65536];
    mh_cpu6502 cpu;
    mh_kernal k;
    char dir[64], path[128];
    mh_d64 *disk;
} rig;

static rig *rig_new(unsigned free_blocks_wanted_full)
{
    rig *r = calloc(1, sizeof *r);
    r->k.layout = &layout;
    r->k.cpu = &r->cpu;
    r->k.ram = r->ram;
    snprintf(r->dir, sizeof r->dir, "/tmp/mh-kit-save-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(r->dir));
    snprintf(r->path, sizeof r->path, "%s/disk.d64", r->dir);
    tb_d64 b;
    tb_d64_init(&b, 35, false, "SAVES", "S1");
    const uint8_t old[4] = {0x01, 0x08, 0xEE, 0xEE};
    tb_d64_add_file(&b, "OLD", 0x82, old, sizeof old);
    if (free_blocks_wanted_full) {
        size_t size = 662 * 254; /* all but one block */
        uint8_t *filler = calloc(1, size);
        tb_d64_add_file(&b, "FILLER", 0x82, filler, size);
        free(filler);
    }
    FILE *f = fopen(r->path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(b.img, 1, b.size, f);
    fclose(f);
    r->disk = mh_d64_open(b.img, b.size, 0, NULL);
    tb_d64_free(&b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->disk);
    return r;
}

static void rig_free(rig *r)
{
    mh_d64_free(r->disk);
    unlink(r->path);
    rmdir(r->dir);
    free(r);
}

/* JSR $FFD8 from $0200 with the pointer at $FB: saves start..end-1. */
static void call_save(rig *r, const char *name, uint8_t device, uint16_t start, uint16_t end)
{
    size_t length = strlen(name);
    memcpy(r->ram + 0x0400, name, length);
    r->ram[0xB7] = (uint8_t)length;
    r->ram[0xBB] = 0x00;
    r->ram[0xBC] = 0x04;
    r->ram[0xBA] = device;
    r->ram[0xB9] = 0;
    r->ram[0x90] = 0x55;
    r->ram[0xFB] = (uint8_t)start;
    r->ram[0xFC] = (uint8_t)(start >> 8);
    r->cpu.a = 0xFB;
    r->cpu.x = (uint8_t)end;
    r->cpu.y = (uint8_t)(end >> 8);
    r->cpu.p = 0;
    r->cpu.s = 0xFD;
    r->ram[0x1FE] = 0x02;
    r->ram[0x1FF] = 0x02;
    r->cpu.pc = 0xFFD8;
}

static size_t file_bytes(const char *path, uint8_t **out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    *out = malloc(200000);
    size_t n = fread(*out, 1, 200000, f);
    fclose(f);
    return n;
}

static void test_save_trap(void)
{
    rig *r = rig_new(0);
    for (unsigned i = 0; i < 300; i++) r->ram[0x0801 + i] = (uint8_t)(i * 7);
    char message[1024];
    call_save(r, "PROG", 9, 0x0801, 0x0801 + 300);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), 0);
    CU_ASSERT_EQUAL(r->cpu.pc, 0xFFD8); /* untouched: the KERNAL's own code runs */
    mh_d64 *none = NULL;
    call_save(r, "PROG", 8, 0x0801, 0x0801 + 300);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &none, r->path, message, sizeof message), 0);

    const mh_d64 *before = r->disk;
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), 1);
    CU_ASSERT_PTR_NOT_EQUAL(r->disk, before);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "saved \"PROG\" $0801-$092C"));
    CU_ASSERT_EQUAL(r->cpu.pc, 0x0203);
    CU_ASSERT_EQUAL(r->cpu.s, 0xFF);
    CU_ASSERT_EQUAL(r->cpu.p & MH_CPU6502_FLAG_C, 0);
    CU_ASSERT_EQUAL(r->ram[0x90], 0);
    CU_ASSERT_EQUAL(r->ram[0xC1] | r->ram[0xC2] << 8, 0x0801);
    CU_ASSERT_EQUAL(r->ram[0xAE] | r->ram[0xAF] << 8, 0x0801 + 300);
    /* the disk in the drive and the file on disk both hold it */
    uint8_t *data = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL_FATAL(mh_d64_load(r->disk, (const uint8_t *)"PROG", 4, 0, &data, &size, NULL, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 302);
    CU_ASSERT_EQUAL(data[0] | data[1] << 8, 0x0801);
    CU_ASSERT_EQUAL(memcmp(data + 2, r->ram + 0x0801, 300), 0);
    free(data);
    uint8_t *bytes = NULL;
    size_t n = file_bytes(r->path, &bytes);
    CU_ASSERT_EQUAL_FATAL(n, MH_D64_SIZE_35);
    mh_d64 *reread = mh_d64_open(bytes, n, 0, NULL);
    free(bytes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reread);
    CU_ASSERT_PTR_NOT_NULL(mh_d64_find(reread, (const uint8_t *)"PROG", 4));
    mh_d64_free(reread);

    /* errors: carry set, A = the KERNAL error, the disk unchanged */
    call_save(r, "", 8, 0x0801, 0x0900);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), -1);
    CU_ASSERT_EQUAL(r->cpu.a, 8);
    CU_ASSERT_NOT_EQUAL(r->cpu.p & MH_CPU6502_FLAG_C, 0);
    CU_ASSERT_EQUAL(r->cpu.pc, 0x0203);
    before = r->disk;
    call_save(r, "OLD", 8, 0x0801, 0x0900);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), -1);
    CU_ASSERT_EQUAL(r->cpu.a, 5);
    CU_ASSERT_NOT_EQUAL(r->cpu.p & MH_CPU6502_FLAG_C, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "63, FILE EXISTS"));
    CU_ASSERT_PTR_EQUAL(r->disk, before);
    call_save(r, "@0:OLD", 8, 0x0801, 0x0803);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "replacing"));
    /* an empty range saves the load address alone, as the KERNAL does */
    call_save(r, "EMPTY", 8, 0x0900, 0x0900);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), 1);
    CU_ASSERT_EQUAL(mh_d64_load(r->disk, (const uint8_t *)"EMPTY", 5, 0, &data, &size, NULL, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 2);
    free(data);
    rig_free(r);
}

static void test_save_trap_full_and_write_back(void)
{
    rig *r = rig_new(1);
    char message[1024];
    uint8_t *original = NULL;
    size_t original_size = file_bytes(r->path, &original);
    call_save(r, "BIG", 8, 0x0801, 0x0801 + 600); /* 3 blocks, 1 free */
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message), -1);
    CU_ASSERT_EQUAL(r->cpu.a, 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "72, DISK FULL"));
    uint8_t *now = NULL;
    size_t now_size = file_bytes(r->path, &now);
    CU_ASSERT_TRUE(now_size == original_size && memcmp(now, original, now_size) == 0);
    free(now);
    free(original);
    /* a file that cannot be written: the save is kept in the drive's disk */
    char gone[160];
    snprintf(gone, sizeof gone, "%s/missing/disk.d64", r->dir);
    call_save(r, "SMALL", 8, 0x0801, 0x0810);
    CU_ASSERT_EQUAL(mh_kernal_save_trap(&r->k, 8, &r->disk, gone, message, sizeof message), -1);
    CU_ASSERT_EQUAL(r->cpu.a, 5);
    CU_ASSERT_NOT_EQUAL(r->cpu.p & MH_CPU6502_FLAG_C, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "NOT written back"));
    CU_ASSERT_PTR_NOT_NULL(mh_d64_find(r->disk, (const uint8_t *)"SMALL", 5));
    rig_free(r);
}

/* A read-only .d64 file is a write-protected disk (not testable as root,
 * for whom every file is writable: said on stderr then). */
static void test_save_trap_read_only(void)
{
    rig *r = rig_new(0);
    char message[1024];
    CU_ASSERT_EQUAL_FATAL(chmod(r->path, 0444), 0);
    call_save(r, "PROG", 8, 0x0801, 0x0810);
    int done = mh_kernal_save_trap(&r->k, 8, &r->disk, r->path, message, sizeof message);
    if (geteuid() == 0) {
        fprintf(stderr, "kit.save: running as root, the read-only check cannot be seen\n");
        CU_ASSERT_EQUAL(done, 1);
    } else {
        CU_ASSERT_EQUAL(done, -1);
        CU_ASSERT_EQUAL(r->cpu.a, 5);
        CU_ASSERT_PTR_NOT_NULL(strstr(message, "26, WRITE PROTECT ON"));
        CU_ASSERT_PTR_NULL(mh_d64_find(r->disk, (const uint8_t *)"PROG", 4));
    }
    chmod(r->path, 0644);
    rig_free(r);
}

MH_SUITE("kit.save", NULL, NULL, MH_TEST(test_save_trap),
         MH_TEST(test_save_trap_full_and_write_back), MH_TEST(test_save_trap_read_only))
