/* td_search.c - memory_search: byte patterns with whole- and half-byte
 * wildcards, or ASCII text, over a range of a memory space (peeked once,
 * no side effects).
 *
 * Pattern syntax: tokens separated by spaces, tabs or commas. A token is
 * one byte: one or two hex digits ("8D", "$8D", "0x8D", "A"), "??", "?",
 * "*" or "**" for any byte, or two characters mixing hex digits and '?' for
 * half a byte ("A?" = $A0-$AF). A longer token without a prefix is read in
 * pairs ("A9??8D" = A9 ?? 8D). At most 256 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_memory.h"
#include "td_util.h"

#define MAX_PATTERN 256u

typedef struct pattern {
    uint8_t value[MAX_PATTERN];
    uint8_t mask[MAX_PATTERN];
    size_t length;
} pattern;

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* One pattern byte from 1 or 2 characters; 0 or -1. */
static int pattern_byte(const char *s, size_t n, uint8_t *value, uint8_t *mask)
{
    if (n == 1 && (*s == '?' || *s == '*')) {
        *value = *mask = 0;
        return 0;
    }
    if (n == 2 && s[0] == '*' && s[1] == '*') {
        *value = *mask = 0;
        return 0;
    }
    if (n == 1) {
        int d = hex_digit(*s);
        if (d < 0) return -1;
        *value = (uint8_t)d;
        *mask = 0xFF;
        return 0;
    }
    *value = *mask = 0;
    for (size_t i = 0; i < 2; i++) {
        int shift = i == 0 ? 4 : 0;
        if (s[i] == '?') continue;
        int d = hex_digit(s[i]);
        if (d < 0) return -1;
        *value = (uint8_t)(*value | d << shift);
        *mask = (uint8_t)(*mask | 0xF << shift);
    }
    return 0;
}

static int add_byte(td_call *c, pattern *p, const char *token, size_t n, size_t number)
{
    if (p->length == MAX_PATTERN)
        return td_fail(c, "pattern: longer than %u bytes; search for a shorter part", MAX_PATTERN);
    if (pattern_byte(token, n, &p->value[p->length], &p->mask[p->length]) != 0)
        return td_fail(c,
                       "pattern: token %zu \"%.*s\" is not a byte; write hex bytes separated by "
                       "spaces (\"A9 00 8D\"), \"??\" for any byte or \"A?\" for half a byte",
                       number, (int)(n > 16 ? 16 : n), token);
    p->length++;
    return 0;
}

static int parse_pattern(td_call *c, const char *text, pattern *p)
{
    p->length = 0;
    size_t number = 0;
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        const char *start = s;
        while (*s && *s != ' ' && *s != '\t' && *s != ',' && *s != '\n' && *s != '\r') s++;
        size_t n = (size_t)(s - start);
        number++;
        const char *digits = start;
        int prefixed = 0;
        if (*digits == '$') digits++, prefixed = 1;
        else if (n > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits += 2, prefixed = 1;
        size_t dn = (size_t)(s - digits);
        if (dn == 0 || (prefixed && dn > 2))
            return td_fail(c,
                           "pattern: token %zu \"%.*s\" is not a byte; a prefixed byte has one or "
                           "two hex digits (\"$8D\", \"0x8D\")",
                           number, (int)(n > 16 ? 16 : n), start);
        if (dn <= 2) {
            if (add_byte(c, p, digits, dn, number) != 0) return -1;
            continue;
        }
        if (dn % 2)
            return td_fail(c,
                           "pattern: token %zu \"%.*s\" has an odd number of digits; separate the "
                           "bytes with spaces (\"A9 0 8D\") or write two digits each",
                           number, (int)(n > 16 ? 16 : n), start);
        for (size_t i = 0; i < dn; i += 2)
            if (add_byte(c, p, digits + i, 2, number) != 0) return -1;
    }
    if (p->length == 0)
        return td_fail(c, "pattern: empty; give hex bytes such as \"A9 ?? 8D\"");
    return 0;
}

/* How `text` is stored in memory. Commodore machines keep text on the
 * screen as screen codes and in strings and files as PETSCII: both differ
 * from ASCII for letters and @[]^_. */
enum { ENC_ASCII, ENC_PETSCII, ENC_SCREEN };

/* text as pattern bytes in encoding. Letters of either case are the
 * Commodore letters of the upper-case set (PETSCII $41-$5A, screen codes
 * 1-26; in the lower/upper case set those show as lower case). Screen codes
 * match reverse video too (bit 7 masked off). -1 (answered) for a
 * character the encoding has no byte for. */
static int encode_text(td_call *c, const char *text, size_t n, int encoding, pattern *p)
{
    p->length = n;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)text[i];
        p->value[i] = ch;
        p->mask[i] = 0xFF;
        if (encoding == ENC_ASCII) continue;
        if (ch >= 'a' && ch <= 'z') ch = (unsigned char)(ch - 'a' + 'A');
        if (ch < 0x20 || ch > 0x5F)
            return td_fail(c,
                           "text: character %zu (\"%c\") has no %s byte; search for it with a hex "
                           "pattern instead",
                           i + 1, ch >= 0x20 && ch < 0x7F ? ch : '?',
                           encoding == ENC_SCREEN ? "screen code" : "PETSCII");
        if (encoding == ENC_PETSCII) {
            p->value[i] = ch; /* $20-$5F: PETSCII keeps ASCII's codes there */
        } else {
            p->value[i] = (uint8_t)(ch >= 0x40 ? ch - 0x40 : ch); /* @A-Z[£]^<- are 0-31 */
            p->mask[i] = 0x7F;
        }
    }
    return 0;
}

/* The pattern as text: "A9 ?? 8D A?". */
static void pattern_text(const pattern *p, td_buf *out)
{
    for (size_t i = 0; i < p->length; i++) {
        char t[3] = {td_hex_table[p->value[i]][0], td_hex_table[p->value[i]][1], 0};
        if (!(p->mask[i] & 0xF0)) t[0] = '?';
        if (!(p->mask[i] & 0x0F)) t[1] = '?';
        td_buf_printf(out, "%s%s", i ? " " : "", t);
    }
}

void td_memory_search(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    pattern p;
    uint8_t *bytes = NULL;
    td_buf shown = {0}, text = {0};
    if (td_begin(&c, user, call, "memory_search", TD_NEED_MEMORY) != 0) goto done;
    const char *pat = NULL, *ascii = NULL;
    size_t ascii_length = 0;
    mh_status s1 = mh_args_string(c.args, "pattern", &pat, NULL, c.err, sizeof c.err);
    if (s1 != MH_OK && s1 != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    mh_status s2 = mh_args_string(c.args, "text", &ascii, &ascii_length, c.err, sizeof c.err);
    if (s2 != MH_OK && s2 != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if ((pat != NULL) == (ascii != NULL)) {
        td_fail(&c, "give either pattern (hex bytes with wildcards, \"A9 ?? 8D\") or text (ASCII), "
                    "not %s",
                pat ? "both" : "neither");
        goto done;
    }
    if (pat) {
        if (parse_pattern(&c, pat, &p) != 0) goto done;
    } else {
        if (ascii_length == 0 || ascii_length > MAX_PATTERN) {
            td_fail(&c, "text: give 1 to %u characters", MAX_PATTERN);
            goto done;
        }
        static const char *const encodings[] = {"ascii", "petscii", "screen"};
        size_t encoding = ENC_ASCII;
        mh_status se = mh_args_choice(c.args, "encoding", encodings, 3, &encoding, c.err,
                                      sizeof c.err);
        if (se != MH_OK && se != MH_ERR_NOT_FOUND) {
            td_fail_arg(&c);
            goto done;
        }
        if (encode_text(&c, ascii, ascii_length, (int)encoding, &p) != 0) goto done;
    }
    int64_t limit = 100;
    mh_status status = mh_args_int(c.args, "limit", 1, 10000, &limit, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (td_range_arg(&c, 0, 0, 0, &r) != 0) goto done;
    bytes = malloc(r.length);
    if (!bytes || c.mem->peek(c.mem_ctx, r.space, r.offset, bytes, r.length) != MH_OK) {
        td_fail(&c, "memory_search: could not read %u bytes of \"%s\"", (unsigned)r.length,
                r.info->name);
        goto done;
    }
    pattern_text(&p, &shown);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "pattern");
    mh_json_write_string(w, shown.text ? shown.text : "");
    td_write_range(w, &r);
    mh_json_write_key(w, "matches");
    mh_json_write_array_begin(w);
    uint64_t count = 0;
    uint32_t first = r.offset + r.shown;
    td_buf list = {0};
    /* The first fixed byte of the pattern anchors the scan with memchr. */
    size_t anchor = 0;
    while (anchor < p.length && p.mask[anchor] != 0xFF) anchor++;
    if (p.length <= r.length) {
        size_t last = r.length - p.length;
        for (size_t i = 0; i <= last; i++) {
            if (anchor < p.length) {
                const uint8_t *hit = memchr(bytes + i + anchor, p.value[anchor], last - i + 1);
                if (!hit) break;
                i = (size_t)(hit - bytes) - anchor;
            }
            size_t k = 0;
            while (k < p.length && (bytes[i + k] & p.mask[k]) == p.value[k]) k++;
            if (k < p.length) continue;
            if (count < (uint64_t)limit) {
                mh_json_write_object_begin(w);
                mh_args_write_address(w, "address", first + (uint32_t)i);
                mh_json_write_object_end(w);
                td_buf_printf(&list, "%s$%04X", count ? " " : "", (unsigned)(first + i));
            }
            count++;
        }
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "count");
    mh_json_write_uint(w, count);
    mh_json_write_key(w, "truncated");
    mh_json_write_bool(w, count > (uint64_t)limit);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "%llu match%s of %s%s%s%s in %s $%04X-$%04X", (unsigned long long)count,
                  count == 1 ? "" : "es", shown.text ? shown.text : "", ascii ? " (\"" : "",
                  ascii ? ascii : "", ascii ? "\")" : "", r.info->name,
                  (unsigned)first, (unsigned)(first + r.length - 1));
    if (count) td_buf_printf(&text, ": %s", list.text ? list.text : "");
    if (count > (uint64_t)limit)
        td_buf_printf(&text, " ... (%llu more; raise limit or narrow the range)",
                      (unsigned long long)(count - (uint64_t)limit));
    td_result(&c, w, text.text);
    mh_json_writer_free(w);
    td_buf_free(&list);
done:
    free(bytes);
    td_buf_free(&shown);
    td_buf_free(&text);
    td_end(&c);
}
