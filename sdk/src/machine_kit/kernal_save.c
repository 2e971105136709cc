/* kernal_save.c - the virtual drive behind the KERNAL's SAVE entry
 * (mcphost/kernal.h: mh_kernal_save_trap): the file goes into a new copy
 * of the D64 (mh_d64_save), the copy is written over the image's file
 * (mh_file_write: temporary file, fsync, rename) and replaces the disk in
 * the drive. Done at that instruction boundary in zero cycles, with no
 * serial bus; no SAVING message is printed (as the LOAD trap prints none).
 *
 * A real drive that cannot take a file (63 FILE EXISTS, 72 DISK FULL)
 * blinks its light and the KERNAL returns without an error; the trap sets
 * carry with A = 5 instead, so BASIC stops with ?DEVICE NOT PRESENT ERROR
 * and a program that was not saved never looks saved. The drive's error
 * text goes to the message the machine logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcphost/file_write.h"
#include "mcphost/kernal.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"

#include "kernal_trap.h"

#define KERNAL_DEVICE_NOT_PRESENT 5
#define KERNAL_MISSING_FILE_NAME 8

static int fail(const mh_kernal *k, uint8_t code)
{
    kernal_return_error(k, code);
    return -1;
}

static void show_name(const uint8_t *name, size_t length, char *shown, size_t size)
{
    size_t n = length < size - 1 ? length : size - 1;
    for (size_t i = 0; i < n; i++)
        shown[i] = name[i] >= 0x20 && name[i] < 0x7F ? (char)name[i] : '?';
    shown[n] = '\0';
}

int mh_kernal_save_trap(const mh_kernal *k, uint8_t device, struct mh_d64 **disk,
                        const char *disk_path, char *message, size_t message_size)
{
    const mh_kernal_layout *l = k->layout;
    uint8_t *ram = k->ram;
    if (!l->save_entry || !disk || !*disk || ram[l->device] != device) return 0;
    /* What the KERNAL's SAVE entry does first: EAL = X/Y, STAL = (A). */
    uint16_t start = kernal_word_at(ram, k->cpu->a);
    uint16_t end = (uint16_t)(k->cpu->x | k->cpu->y << 8);
    kernal_set_word(ram, l->load_end, end);
    kernal_set_word(ram, l->save_start, start);
    uint8_t name[256];
    size_t length = ram[l->file_name_length];
    uint16_t name_at = kernal_word_at(ram, l->file_name);
    for (size_t i = 0; i < length; i++) name[i] = kernal_peek(k, (uint16_t)(name_at + i));
    char shown[64];
    show_name(name, length, shown, sizeof shown);
    if (length == 0) {
        snprintf(message, message_size, "SAVE without a file name");
        return fail(k, KERNAL_MISSING_FILE_NAME);
    }
    /* A .d64 file the user made read-only is a write-protected disk (the
     * rename of the write-back would replace it anyway). */
    if (disk_path && access(disk_path, W_OK) != 0 && (errno == EACCES || errno == EROFS)) {
        snprintf(message, message_size,
                 "SAVE \"%s\": %s is read-only (a write-protected disk: the drive answers 26, "
                 "WRITE PROTECT ON); the disk is unchanged", shown, disk_path);
        return fail(k, KERNAL_DEVICE_NOT_PRESENT);
    }
    /* The load address, then start .. end - 1 (nothing when end <= start,
     * as the KERNAL's loop checks before each byte). */
    size_t count = end > start ? (size_t)(end - start) : 0;
    uint8_t *data = malloc(count + 2);
    if (!data) {
        snprintf(message, message_size, "SAVE \"%s\": out of memory", shown);
        return fail(k, KERNAL_DEVICE_NOT_PRESENT);
    }
    data[0] = (uint8_t)start;
    data[1] = (uint8_t)(start >> 8);
    for (size_t i = 0; i < count; i++) data[2 + i] = kernal_peek(k, (uint16_t)(start + i));
    uint8_t *image = NULL;
    size_t image_size = 0;
    mh_d64_save_result result;
    mh_media_error err;
    mh_status status = mh_d64_save(*disk, name, length, data, count + 2, &image, &image_size,
                                   &result, &err);
    free(data);
    if (status != MH_OK) {
        snprintf(message, message_size, "SAVE \"%s\": %s", shown, err.message);
        return fail(k, KERNAL_DEVICE_NOT_PRESENT);
    }
    mh_d64 *saved = mh_d64_open(image, image_size, 0, &err);
    if (!saved) {
        free(image);
        snprintf(message, message_size, "SAVE \"%s\": the written image does not read back: %s",
                 shown, err.message);
        return fail(k, KERNAL_DEVICE_NOT_PRESENT);
    }
    char write_error[512] = "";
    mh_status written = disk_path ? mh_file_write(disk_path, image, image_size, MH_FILE_OVERWRITE,
                                                  write_error, sizeof write_error)
                                  : MH_ERR_INVALID_ARGUMENT;
    if (!disk_path) snprintf(write_error, sizeof write_error, "the disk has no file");
    free(image);
    mh_d64_free(*disk);
    *disk = saved;
    char where[96];
    snprintf(where, sizeof where, "%u block%s, track %u sector %u%s", result.blocks,
             result.blocks == 1 ? "" : "s", result.track, result.sector,
             result.replaced ? ", replacing the old file" : "");
    if (written != MH_OK) {
        snprintf(message, message_size,
                 "SAVE \"%s\": saved into the disk in drive 8 (%s) but NOT written back to its "
                 "file: %s; the program is only in the emulated disk until the session ends",
                 shown, where, write_error);
        return fail(k, KERNAL_DEVICE_NOT_PRESENT);
    }
    ram[l->status] = 0;
    k->cpu->p &= (uint8_t)~MH_CPU6502_FLAG_C;
    kernal_return(k);
    snprintf(message, message_size, "saved \"%s\" $%04X-$%04X (%s) to %s", shown, start,
             (unsigned)((end > start ? end : start + 1u) - 1u) & 0xffffu, where, disk_path);
    return 1;
}
