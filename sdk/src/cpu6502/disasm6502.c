/* disasm6502.c - one instruction to text (see mcphost/disasm6502.h).
 * The operand layout of each addressing mode is a table row: a prefix, a
 * number of hex digits (or a relative target) and a suffix. */
#include <stdio.h>
#include <string.h>

#include "mcphost/disasm6502.h"

typedef struct text_buf {
    char *out;
    size_t size;
    size_t len;
} text_buf;

static void put_char(text_buf *b, char c)
{
    if (b->size && b->len + 1 < b->size) b->out[b->len] = c;
    b->len++;
}

static void put_str(text_buf *b, const char *s, int lower)
{
    for (; *s; s++) {
        char c = *s;
        if (lower && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        put_char(b, c);
    }
}

static void finish(text_buf *b)
{
    if (!b->size) return;
    b->out[b->len < b->size ? b->len : b->size - 1] = '\0';
}

static void put_hex(text_buf *b, unsigned value, int digits, uint32_t flags)
{
    const char *hex = (flags & MH_DISASM6502_LOWERCASE) ? "0123456789abcdef" : "0123456789ABCDEF";
    put_str(b, (flags & MH_DISASM6502_HEX_0X) ? "0x" : "$", 0);
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) put_char(b, hex[(value >> shift) & 15u]);
}

/* A number that is an address: the label's name if the callback has one. */
static void put_address(text_buf *b, const mh_disasm6502_options *opt, unsigned addr, int digits)
{
    const char *name = opt && opt->label ? opt->label(opt->label_user, (uint16_t)addr) : NULL;
    if (name && *name) put_str(b, name, 0);
    else put_hex(b, addr, digits, opt ? opt->flags : 0);
}

/* Operand layout per addressing mode. digits: 0 none, 2 or 4 hex digits,
 * -1 relative branch target. */
typedef struct mode_format {
    const char *prefix;
    int digits;
    int is_address;
    const char *suffix;
} mode_format;

static const mode_format formats[MH_AM6502_COUNT] = {
    [MH_AM6502_IMP] = {"", 0, 0, ""},
    [MH_AM6502_ACC] = {"A", 0, 0, ""},
    [MH_AM6502_IMM] = {"#", 2, 0, ""},
    [MH_AM6502_ZP] = {"", 2, 1, ""},
    [MH_AM6502_ZPX] = {"", 2, 1, ",X"},
    [MH_AM6502_ZPY] = {"", 2, 1, ",Y"},
    [MH_AM6502_ABS] = {"", 4, 1, ""},
    [MH_AM6502_ABSX] = {"", 4, 1, ",X"},
    [MH_AM6502_ABSY] = {"", 4, 1, ",Y"},
    [MH_AM6502_IND] = {"(", 4, 1, ")"},
    [MH_AM6502_IZX] = {"(", 2, 1, ",X)"},
    [MH_AM6502_IZY] = {"(", 2, 1, "),Y"},
    [MH_AM6502_REL] = {"", -1, 1, ""},
};

/* Formats an instruction whose bytes are known; returns its length. */
static int format_insn(const mh_disasm6502_options *opt, const uint8_t bytes[3], uint16_t pc,
                       text_buf *b)
{
    const mh_op6502_info *info = mh_op6502_get(bytes[0]);
    uint32_t flags = opt ? opt->flags : 0;
    int lower = (flags & MH_DISASM6502_LOWERCASE) != 0;
    const mode_format *f = &formats[info->mode];

    put_str(b, info->mnemonic, lower);
    if (info->mode == MH_AM6502_IMP) return info->length;
    put_char(b, ' ');
    put_str(b, f->prefix, lower);
    unsigned operand = info->length == 3 ? (unsigned)(bytes[1] | bytes[2] << 8) : bytes[1];
    if (f->digits < 0) {
        unsigned target = (pc + 2u + operand - ((operand & 0x80u) << 1)) & 0xFFFFu;
        put_address(b, opt, target, 4);
    } else if (f->digits > 0) {
        if (f->is_address) put_address(b, opt, operand, f->digits);
        else put_hex(b, operand, f->digits, flags);
    }
    put_str(b, f->suffix, lower);
    return info->length;
}

int mh_disasm6502(const mh_disasm6502_options *options, mh_disasm6502_read_fn read,
                  void *read_user, uint16_t pc, char *out, size_t out_size)
{
    uint8_t bytes[3];
    bytes[0] = read(read_user, pc);
    int length = mh_op6502_get(bytes[0])->length;
    for (int i = 1; i < length; i++) bytes[i] = read(read_user, (uint16_t)(pc + i));
    for (int i = length; i < 3; i++) bytes[i] = 0;
    text_buf b = {out, out_size, 0};
    format_insn(options, bytes, pc, &b);
    finish(&b);
    return length;
}

int mh_disasm6502_buffer(const mh_disasm6502_options *options, const uint8_t *bytes,
                         size_t count, uint16_t pc, char *out, size_t out_size)
{
    text_buf b = {out, out_size, 0};
    if (count == 0 || !bytes) {
        finish(&b);
        return 0;
    }
    int length = mh_op6502_get(bytes[0])->length;
    if ((size_t)length > count) {
        uint32_t flags = options ? options->flags : 0;
        put_str(&b, ".BYTE ", (flags & MH_DISASM6502_LOWERCASE) != 0);
        put_hex(&b, bytes[0], 2, flags);
        finish(&b);
        return 1;
    }
    uint8_t insn[3] = {bytes[0], length > 1 ? bytes[1] : 0, length > 2 ? bytes[2] : 0};
    format_insn(options, insn, pc, &b);
    finish(&b);
    return length;
}

int mh_disasm6502_line(const mh_disasm6502_options *options, mh_disasm6502_read_fn read,
                       void *read_user, uint16_t pc, char *out, size_t out_size)
{
    uint8_t bytes[3];
    bytes[0] = read(read_user, pc);
    int length = mh_op6502_get(bytes[0])->length;
    for (int i = 1; i < length; i++) bytes[i] = read(read_user, (uint16_t)(pc + i));
    for (int i = length; i < 3; i++) bytes[i] = 0;

    uint32_t flags = options ? options->flags : 0;
    const char *hex = (flags & MH_DISASM6502_LOWERCASE) ? "0123456789abcdef" : "0123456789ABCDEF";
    text_buf b = {out, out_size, 0};
    for (int shift = 12; shift >= 0; shift -= 4) put_char(&b, hex[(pc >> shift) & 15u]);
    put_str(&b, "  ", 0);
    for (int i = 0; i < 3; i++) {
        if (i < length) {
            put_char(&b, hex[bytes[i] >> 4]);
            put_char(&b, hex[bytes[i] & 15u]);
        } else {
            put_str(&b, "  ", 0);
        }
        put_char(&b, ' ');
    }
    put_char(&b, ' ');
    format_insn(options, bytes, pc, &b);
    finish(&b);
    return length;
}
