/* basic_tokenize.c - program text to a tokenised BASIC program
 * (mcphost/basic.h), the way the KERNAL's cruncher reads a typed line. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "basic_internal.h"

/* The PETSCII byte of the character at p (ASCII, or a pound, arrow or pi),
 * its length in *used; -1 when it has none. */
static int petscii_of(const char *p, unsigned flags, size_t *used)
{
    unsigned char c = (unsigned char)*p;
    *used = 1;
    if (c >= 0x20 && c <= 0x40) return c;
    if (c >= 'a' && c <= 'z') return 0x41 + (c - 'a');
    if (c >= 'A' && c <= 'Z') return ((flags & MH_BASIC_PETCAT_CASE) ? 0xC1 : 0x41) + (c - 'A');
    if (c == '[' || c == ']' || c == '^' || c == '_') return c;
    if (c == '\\') return 0x5C;
    return mh_basic_special_byte(p, used);
}

/* The token whose keyword starts the text at p (first in token order, as
 * the cruncher scans), its length in *used; -1 for none. */
static int keyword_at(mh_basic_dialect dialect, unsigned flags, const char *p, size_t *used)
{
    /* Upper-case letters are keywords too, unless they are petcat's
     * shifted letters. */
    int (*compare)(const char *, const char *, size_t) =
        (flags & MH_BASIC_PETCAT_CASE) ? strncmp : strncasecmp;
    for (unsigned t = MH_BASIC_TOKEN_FIRST; t <= mh_basic_last_token(dialect); t++) {
        const char *k = mh_basic_keyword(dialect, (uint8_t)t);
        size_t n = strlen(k);
        if (compare(p, k, n) == 0) {
            *used = n;
            return (int)t;
        }
        if (k[0] == '^' && strncmp(p, "\xE2\x86\x91", 3) == 0) { /* the arrow itself */
            *used = 3;
            return (int)t;
        }
    }
    return -1;
}

typedef struct line_state {
    unsigned text_line;   /* 1-based, for messages */
    uint8_t bytes[MH_BASIC_LINE_MAX];
    size_t count;
    char *error;
    size_t error_size;
} line_state;

static int emit(line_state *s, uint8_t byte)
{
    if (s->count >= MH_BASIC_LINE_MAX) {
        snprintf(s->error, s->error_size, "line %u of the text: longer than %u bytes tokenised",
                 s->text_line, MH_BASIC_LINE_MAX);
        return -1;
    }
    s->bytes[s->count++] = byte;
    return 0;
}

/* A {code} at p (p[0] == '{'): its byte, and its length in *used. */
static int brace_code(line_state *s, const char *p, const char *end, size_t *used)
{
    const char *close = memchr(p, '}', (size_t)(end - p));
    if (!close) {
        snprintf(s->error, s->error_size, "line %u of the text: \"{\" without \"}\"", s->text_line);
        return -1;
    }
    const char *name = p + 1;
    size_t length = (size_t)(close - name);
    *used = length + 2;
    if (length == 3 && name[0] == '$') {
        unsigned value;
        char hex[3] = {name[1], name[2], 0};
        if (sscanf(hex, "%2x", &value) == 1 && strspn(hex, "0123456789abcdefABCDEF") == 2)
            return (int)value;
    }
    int byte = mh_basic_code_byte(name, length);
    if (byte < 0)
        snprintf(s->error, s->error_size,
                 "line %u of the text: unknown code {%.*s} (see mcphost/basic.h, or write {$hh})",
                 s->text_line, (int)(length > 20 ? 20 : length), name);
    return byte;
}

/* Crunches the statements of one line (after its number). */
static int crunch(mh_basic_dialect dialect, unsigned flags, line_state *s, const char *p,
                  const char *end)
{
    int quoted = 0, rem = 0, data = 0;
    while (p < end) {
        size_t used = 1;
        int byte;
        if (*p == '{') {
            byte = brace_code(s, p, end, &used);
            if (byte < 0) return -1;
        } else if (!quoted && !rem && !data && *p == '?') {
            byte = MH_BASIC_TOKEN_PRINT; /* the cruncher's short PRINT */
        } else if (!quoted && !rem && !data && (byte = keyword_at(dialect, flags, p, &used)) >= 0) {
            rem = byte == MH_BASIC_TOKEN_REM;
            data = byte == MH_BASIC_TOKEN_DATA;
        } else if ((byte = petscii_of(p, flags, &used)) < 0) {
            snprintf(s->error, s->error_size,
                     "line %u of the text: the character 0x%02X has no PETSCII byte (write {$hh})",
                     s->text_line, (unsigned)(unsigned char)*p);
            return -1;
        }
        if (byte == '"') quoted = !quoted;
        if (byte == ':' && !quoted) data = 0;
        if (emit(s, (uint8_t)byte) < 0) return -1;
        p += used;
    }
    return 0;
}

mh_status mh_basic_tokenize(mh_basic_dialect dialect, unsigned flags, const char *text,
                            uint16_t start, uint8_t *out, size_t out_size, size_t *length,
                            char *error, size_t error_size)
{
    if (error_size) error[0] = '\0';
    if (!text || !length || (!out && out_size)) return MH_ERR_INVALID_ARGUMENT;
    *length = 0;
    size_t room = 0x10000u - start, used = 0, needed = 0;
    long last_number = -1;
    line_state s = {0, {0}, 0, error, error_size};
    for (const char *line = text; *line;) {
        const char *end = line + strcspn(line, "\n");
        const char *next = *end ? end + 1 : end;
        if (end > line && end[-1] == '\r') end--;
        s.text_line++;
        const char *p = line + strspn(line, " \t");
        line = next;
        if (p >= end) continue; /* a blank line */
        long number = 0;
        const char *digits = p;
        while (p < end && *p >= '0' && *p <= '9' && number <= 63999) number = number * 10 + (*p++ - '0');
        if (p == digits || number > 63999) {
            snprintf(error, error_size, "line %u of the text: %s", s.text_line,
                     p == digits ? "no line number at its start" : "line numbers end at 63999");
            return MH_ERR_INVALID_ARGUMENT;
        }
        if (number <= last_number) {
            snprintf(error, error_size,
                     "line %u of the text: line number %ld after %ld (they must rise)", s.text_line,
                     number, last_number);
            return MH_ERR_INVALID_ARGUMENT;
        }
        last_number = number;
        while (p < end && *p == ' ') p++;
        if (p == end) {
            snprintf(error, error_size, "line %u of the text: line %ld has no statements",
                     s.text_line, number);
            return MH_ERR_INVALID_ARGUMENT;
        }
        s.count = 0;
        if (crunch(dialect, flags, &s, p, end) < 0) return MH_ERR_INVALID_ARGUMENT;
        size_t size = 4 + s.count + 1;
        needed += size;
        if (needed + 2 > room) {
            snprintf(error, error_size, "the program does not fit below $FFFF from $%04X",
                     (unsigned)start);
            return MH_ERR_INVALID_ARGUMENT;
        }
        if (needed + 2 <= out_size) {
            uint16_t link = (uint16_t)(start + used + size);
            uint8_t *o = out + used;
            o[0] = (uint8_t)link;
            o[1] = (uint8_t)(link >> 8);
            o[2] = (uint8_t)number;
            o[3] = (uint8_t)(number >> 8);
            memcpy(o + 4, s.bytes, s.count);
            o[4 + s.count] = 0;
        }
        used += size;
    }
    needed += 2;
    if (needed > out_size) {
        snprintf(error, error_size, "the program needs %zu bytes, the buffer has %zu", needed,
                 out_size);
        return MH_ERR_NO_MEMORY;
    }
    out[used] = 0;
    out[used + 1] = 0;
    *length = needed;
    return MH_OK;
}
