/* args_format.c - addresses in results: "$C000" text, and the number +
 * text pair every result uses ("pc": 49152, "pc_hex": "$C000"); the
 * plain key + value fields the chip decoders write. */
#include "args_internal.h"
#include "json_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mh_args_format_address(char *buf, size_t size, uint32_t address)
{
    /* Every result has a few of these: by hand, snprintf's way (at least
     * 4 digits, truncated to size with a NUL, the full length returned). */
    static const char digits[] = "0123456789ABCDEF";
    char text[12];
    int n = 4;
    while (n < 8 && (address >> (4 * n)) != 0) n++;
    text[0] = '$';
    for (int i = 0; i < n; i++) text[1 + i] = digits[(address >> (4 * (n - 1 - i))) & 15];
    int length = n + 1;
    if (size) {
        size_t copy = (size_t)length < size ? (size_t)length : size - 1;
        memcpy(buf, text, copy);
        buf[copy] = '\0';
    }
    return length;
}

/* Writes `key`: value and `key`_hex: text. */
static void write_number_and_hex(mh_json_writer *writer, const char *key, uint32_t value,
                                 const char *text)
{
    static const char suffix[] = "_hex";
    char small[64];
    if (!key) {
        mh_json_write_key(writer, NULL); /* records the misuse */
        return;
    }
    size_t n = strlen(key);
    char *hex_key = n + sizeof suffix <= sizeof small ? small : malloc(n + sizeof suffix);
    if (!hex_key) {
        mh_json_i_writer_fail(writer, MH_ERR_NO_MEMORY, "out of memory");
        return;
    }
    memcpy(hex_key, key, n);
    memcpy(hex_key + n, suffix, sizeof suffix);
    mh_json_write_keyn(writer, key, n);
    mh_json_write_uint(writer, value);
    mh_json_write_keyn(writer, hex_key, n + sizeof suffix - 1);
    mh_json_write_string(writer, text);
    if (hex_key != small) free(hex_key);
}

void mh_args_write_address(mh_json_writer *writer, const char *key, uint32_t address)
{
    char text[16];
    mh_args_format_address(text, sizeof text, address);
    write_number_and_hex(writer, key, address, text);
}

void mh_args_write_byte(mh_json_writer *writer, const char *key, uint8_t value)
{
    static const char digits[] = "0123456789ABCDEF";
    char text[4] = {'$', digits[value >> 4], digits[value & 15], '\0'};
    write_number_and_hex(writer, key, value, text);
}

void mh_args_write_uint(mh_json_writer *writer, const char *key, uint64_t value)
{
    mh_json_write_key(writer, key);
    mh_json_write_uint(writer, value);
}

void mh_args_write_bool(mh_json_writer *writer, const char *key, int value)
{
    mh_json_write_key(writer, key);
    mh_json_write_bool(writer, value != 0);
}

void mh_args_write_string(mh_json_writer *writer, const char *key, const char *value)
{
    mh_json_write_key(writer, key);
    mh_json_write_string(writer, value ? value : "");
}

void mh_args_write_bit_names(mh_json_writer *writer, const char *key, unsigned bits,
                             unsigned count, const char *(*name)(unsigned bit))
{
    mh_json_write_key(writer, key);
    mh_json_write_array_begin(writer);
    for (unsigned i = 0; i < count; i++)
        if ((bits & (1u << i)) && name(i)) mh_json_write_string(writer, name(i));
    mh_json_write_array_end(writer);
}
