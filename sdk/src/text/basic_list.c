/* basic_list.c - a tokenised BASIC program in memory back to text
 * (mcphost/basic.h), following the line links with care: a program in
 * memory is whatever the machine holds, so a broken chain is reported,
 * never followed around in circles. */
#include <stdio.h>
#include <string.h>

#include "basic_internal.h"

typedef struct text_buffer {
    char text[MH_BASIC_LINE_MAX * 10 + 16]; /* the longest expansion: 10 per byte */
    size_t length;
} text_buffer;

static void put(text_buffer *b, const char *s)
{
    size_t n = strlen(s);
    if (b->length + n >= sizeof b->text) n = sizeof b->text - 1 - b->length;
    memcpy(b->text + b->length, s, n);
    b->length += n;
    b->text[b->length] = '\0';
}

/* A byte as a character: what basic_tokenize reads back as that byte. */
static void put_char(text_buffer *b, uint8_t byte, int in_statement, unsigned flags)
{
    char one[12];
    const char *name, *special = mh_basic_special_utf8(byte);
    int petcat = (flags & MH_BASIC_PETCAT_CASE) != 0;
    if (byte >= 0x41 && byte <= 0x5A) {
        snprintf(one, sizeof one, "%c", (petcat ? 'a' : 'A') + (byte - 0x41));
    } else if (byte >= 0xC1 && byte <= 0xDA) {
        if (petcat) snprintf(one, sizeof one, "%c", 'A' + (byte - 0xC1));
        else snprintf(one, sizeof one, "{SHIFT-%c}", 'A' + (byte - 0xC1));
    } else if (byte >= 0x20 && byte <= 0x40 && !(in_statement && byte == '?')) {
        snprintf(one, sizeof one, "%c", byte);
    } else if (byte == 0x5B || byte == 0x5D) {
        snprintf(one, sizeof one, "%c", byte);
    } else if (special && !(in_statement && byte == 0x5E)) {
        /* pound, arrows, pi; outside strings an up arrow byte would read
         * back as the power keyword, so it is written {$5e} */
        snprintf(one, sizeof one, "%s", special);
    } else if ((name = mh_basic_code_name(byte)) != NULL) {
        snprintf(one, sizeof one, "{");
        put(b, one);
        put(b, name);
        snprintf(one, sizeof one, "}");
    } else {
        snprintf(one, sizeof one, "{$%02x}", byte);
    }
    put(b, one);
}

/* A keyword as the listing writes it: upper case, or petcat's lower case. */
static void put_keyword(text_buffer *b, const char *keyword, unsigned flags)
{
    char word[16];
    size_t n = 0;
    for (; keyword[n] && n + 1 < sizeof word; n++)
        word[n] = (flags & MH_BASIC_PETCAT_CASE) || keyword[n] < 'a' || keyword[n] > 'z'
                      ? keyword[n]
                      : (char)(keyword[n] - 'a' + 'A');
    word[n] = '\0';
    put(b, word);
}

/* The text of the statements from p to the line's 0. */
static void list_statements(mh_basic_dialect dialect, unsigned flags, const uint8_t *p,
                            text_buffer *b)
{
    int quoted = 0, rem = 0, data = 0;
    for (; *p; p++) {
        uint8_t byte = *p;
        const char *keyword = mh_basic_keyword(dialect, byte);
        int literal = quoted || rem || data;
        if (!literal && keyword) {
            put_keyword(b, keyword, flags);
            rem = byte == MH_BASIC_TOKEN_REM;
            data = byte == MH_BASIC_TOKEN_DATA;
            continue;
        }
        put_char(b, byte, !literal, flags);
        if (byte == '"') quoted = !quoted;
        if (byte == ':' && !quoted) data = 0;
    }
}

mh_status mh_basic_list(mh_basic_dialect dialect, unsigned flags, const uint8_t memory[65536],
                        uint16_t start, mh_basic_line_fn fn, void *user,
                        mh_basic_listing *result)
{
    if (!memory || !fn || !result) return MH_ERR_INVALID_ARGUMENT;
    memset(result, 0, sizeof *result);
    uint32_t address = start;
    for (;;) {
        if (address > 0xFFFEu) {
            result->broken = 1;
            snprintf(result->problem, sizeof result->problem,
                     "the link chain runs past $FFFF after %u lines", (unsigned)result->lines);
            return MH_OK;
        }
        uint16_t link = (uint16_t)(memory[address] | memory[address + 1] << 8);
        if (link == 0) {
            result->end = (uint16_t)(address + 2);
            return MH_OK;
        }
        if (address + 4 > 0xFFFFu) {
            result->broken = 1;
            snprintf(result->problem, sizeof result->problem,
                     "the line at $%04X runs past $FFFF", (unsigned)address);
            return MH_OK;
        }
        uint16_t number = (uint16_t)(memory[address + 2] | memory[address + 3] << 8);
        uint32_t text = address + 4, limit = text + MH_BASIC_LINE_MAX + 1;
        if (limit > 0x10000u) limit = 0x10000u;
        uint32_t zero = text;
        while (zero < limit && memory[zero]) zero++;
        const char *damage = NULL;
        if (link <= address)
            damage = "links back to";
        else if (zero >= limit)
            damage = "has no end within its 250 bytes; its link is";
        else if (link < zero + 1)
            damage = "links into its own text, to";
        if (damage) {
            result->broken = 1;
            snprintf(result->problem, sizeof result->problem, "line %u at $%04X %s $%04X",
                     (unsigned)number, (unsigned)address, damage, (unsigned)link);
            return MH_OK;
        }
        text_buffer b = {{0}, 0};
        char head[8];
        snprintf(head, sizeof head, "%u ", (unsigned)number);
        put(&b, head);
        list_statements(dialect, flags, memory + text, &b);
        mh_basic_line line = {(uint16_t)address, link, number, b.text};
        result->lines++;
        if (fn(user, &line)) return MH_OK;
        address = link;
    }
}
