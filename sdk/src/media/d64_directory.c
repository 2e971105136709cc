/* d64_directory.c - what a 1541 answers to LOAD: the "$" directory as a
 * BASIC program (byte for byte the 1541/VICE layout) and files by name. */
#include "media_internal.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_LINE 30u /* link, line 0, RVS '"' name(16) '"' ' ' id(5), 0 */
#define ENTRY_LINE 32u  /* link, blocks, 27 text bytes, 0 */
#define FOOTER_LINE 30u /* link, blocks free, "BLOCKS FREE." + 13 spaces, 0 */

/* A type letter after '=' or ',' (PETSCII = ASCII for these) to a type. */
static int type_letter(uint8_t c)
{
    switch (c) {
    case 'P': return MH_CBM_PRG;
    case 'S': return MH_CBM_SEQ;
    case 'U': return MH_CBM_USR;
    case 'R': return MH_CBM_REL;
    case 'D': return MH_CBM_DEL;
    default: return -1;
    }
}

/* Copies n name bytes with $A0 shown as a space, as the 1541 does. A $00
 * would end the BASIC line early (BASIC relinks a loaded program by
 * looking for them), so it is shown as '?' to keep the listing loadable. */
static void copy_padded(uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = in[i] == 0xa0 ? ' ' : in[i] == 0 ? '?' : in[i];
}

static void put_entry_text(uint8_t *text, const mh_d64_entry *e)
{
    memset(text, ' ', 27);
    size_t q = 1; /* the opening quote, after 1-3 spaces */
    if (e->blocks < 100) q++;
    if (e->blocks < 10) q++;
    text[q] = '"';
    uint8_t *name = text + q + 1;
    copy_padded(name, e->name_raw, 16);
    name[e->name_length] = '"';
    name[17] = e->closed ? ' ' : '*';
    memcpy(name + 18, mh_cbm_file_type_name(e->type), 3);
    name[21] = e->locked ? '<' : ' ';
}

mh_status mh_d64_directory(const mh_d64 *d64, uint16_t load_address, const uint8_t *pattern,
                           size_t length, uint8_t **program, size_t *size, mh_media_error *err)
{
    if (!d64 || !program || !size || (!pattern && length))
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no image, pattern or result pointer given");
    *program = NULL;
    *size = 0;
    int type = -1;
    for (size_t i = 0; i < length; i++) {
        if (pattern[i] != '=') continue;
        if (i + 1 < length) type = type_letter(pattern[i + 1]);
        length = i;
        break;
    }
    static const uint8_t all[] = {'*'};
    if (length == 0) {
        pattern = all;
        length = 1;
    }
    size_t listed = 0;
    for (size_t i = 0; i < d64->entry_count; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if ((type < 0 || (int)e->type == type) &&
            mh_cbm_name_match(pattern, length, e->name_raw, e->name_length))
            listed++;
    }
    size_t total = 2 + HEADER_LINE + listed * ENTRY_LINE + FOOTER_LINE + 2;
    if (total - 2 > 0x10000u - load_address)
        return mh_media_i_fail(err, MH_ERR_LIMIT,
                               "D64: the directory listing (%zu entries, %zu bytes) does not fit "
                               "in memory from $%04X", listed, total - 2, load_address);
    uint8_t *out = malloc(total);
    if (!out) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "D64: out of memory");
    uint8_t *p = out;
    unsigned addr = load_address;
    *p++ = (uint8_t)(addr & 0xff);
    *p++ = (uint8_t)(addr >> 8);

    /* 0 RVS"DISK NAME       " ID 2A */
    addr += HEADER_LINE;
    *p++ = (uint8_t)(addr & 0xff);
    *p++ = (uint8_t)(addr >> 8);
    *p++ = 0;
    *p++ = 0;
    *p++ = 0x12;
    *p++ = '"';
    copy_padded(p, d64->name_raw, 16);
    p += 16;
    *p++ = '"';
    *p++ = ' ';
    copy_padded(p, d64->id_raw, 5);
    p += 5;
    *p++ = 0;

    for (size_t i = 0; i < d64->entry_count; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if (!((type < 0 || (int)e->type == type) &&
              mh_cbm_name_match(pattern, length, e->name_raw, e->name_length)))
            continue;
        addr += ENTRY_LINE;
        *p++ = (uint8_t)(addr & 0xff);
        *p++ = (uint8_t)(addr >> 8);
        *p++ = (uint8_t)(e->blocks & 0xff);
        *p++ = (uint8_t)(e->blocks >> 8);
        put_entry_text(p, e);
        p += 27;
        *p++ = 0;
    }

    /* blocks BLOCKS FREE. and the end of the program. */
    addr += FOOTER_LINE;
    unsigned free_blocks = d64->blocks_free > 0xffff ? 0xffff : d64->blocks_free;
    *p++ = (uint8_t)(addr & 0xff);
    *p++ = (uint8_t)(addr >> 8);
    *p++ = (uint8_t)(free_blocks & 0xff);
    *p++ = (uint8_t)(free_blocks >> 8);
    memcpy(p, "BLOCKS FREE.", 12);
    memset(p + 12, ' ', 13);
    p += 25;
    *p++ = 0;
    *p++ = 0;
    *p++ = 0;
    *program = out;
    *size = total;
    mh_media_i_ok(err);
    return MH_OK;
}

mh_status mh_d64_load(const mh_d64 *d64, const uint8_t *name, size_t length,
                      uint16_t dir_load_address, uint8_t **data, size_t *size,
                      const mh_d64_entry **entry, mh_media_error *err)
{
    if (entry) *entry = NULL;
    if (!d64 || !data || !size || (!name && length))
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no image, name or result pointer given");
    *data = NULL;
    *size = 0;
    if (length > 0 && name[0] == '$') {
        /* "$", "$0", "$:PATTERN", "$0:PATTERN=P" */
        size_t i = 1;
        while (i < length && name[i] >= '0' && name[i] <= '9') i++;
        if (i < length && name[i] == ':') i++;
        return mh_d64_directory(d64, dir_load_address, name + i, length - i, data, size, err);
    }
    /* A drive prefix: digits then ':' ("0:NAME", ":NAME"). */
    for (size_t i = 0; i < length; i++) {
        if (name[i] == ':') {
            name += i + 1;
            length -= i + 1;
            break;
        }
        if (name[i] < '0' || name[i] > '9') break;
    }
    /* ",P" ",S" ",U" ",R" choose the type; PRG by default. */
    int type = MH_CBM_PRG;
    for (size_t i = 0; i < length; i++) {
        if (name[i] != ',') continue;
        if (i + 1 < length && type_letter(name[i + 1]) > 0) type = type_letter(name[i + 1]);
        length = i;
        break;
    }
    if (length == 0)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "D64: no file name (34, SYNTAX ERROR)");
    char shown[40];
    size_t n = length < 32 ? length : 32;
    mh_media_i_render(shown, name, n);
    const mh_d64_entry *found = NULL;
    for (size_t i = 0; i < d64->entry_count && !found; i++) {
        const mh_d64_entry *e = &d64->entries[i];
        if ((int)e->type == type && mh_cbm_name_match(name, length, e->name_raw, e->name_length))
            found = e;
    }
    if (!found)
        return mh_media_i_fail(err, MH_ERR_NOT_FOUND,
                               "D64: no %s file matches \"%s\" (the drive answers 62, FILE NOT FOUND)",
                               mh_cbm_file_type_name((unsigned)type), shown);
    if (entry) *entry = found;
    char what[64];
    mh_media_i_d64_entry_label(found, what, sizeof what);
    if (!found->closed)
        return mh_media_i_fail(err, MH_ERR_STATE,
                               "D64: %s was never closed (a splat file, listed as *%s; the drive "
                               "answers 60, WRITE FILE OPEN)",
                               what, mh_cbm_file_type_name(found->type));
    mh_status st = mh_d64_read_file(d64, found, data, size, err);
    if (st == MH_OK && type == MH_CBM_PRG && *size < 2) {
        free(*data);
        *data = NULL;
        st = mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                             "D64: %s holds %zu byte%s, too short for a load address", what,
                             *size, *size == 1 ? "" : "s");
        *size = 0;
    }
    return st;
}
