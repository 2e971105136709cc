/* td_symfile.c - symbol file lines (see td_symfile.h). */
#include "td_symfile.h"

#include <string.h>
#include <strings.h>

#include "td_store.h"

typedef struct span {
    const char *s;
    size_t n;
} span;

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

static int name_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '.' || ch == '@';
}

static int name_char(char ch) { return name_start(ch) || (ch >= '0' && ch <= '9'); }

/* Splits the line (comment removed) into at most 4 tokens; returns the count
 * (5 when there are more). '=' is a token of its own. */
static int tokens(const char *line, size_t n, span out[4])
{
    int count = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(line[i])) i++;
        if (i >= n) break;
        size_t start = i;
        if (line[i] == '=') i++;
        else
            while (i < n && !is_space(line[i]) && line[i] != '=') i++;
        if (count == 4) return 5;
        out[count++] = (span){line + start, i - start};
    }
    return count;
}

static int parse_value(span t, uint32_t *out)
{
    const char *s = t.s;
    size_t n = t.n;
    int base = 10;
    if (n && *s == '$') s++, n--, base = 16;
    else if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, n -= 2, base = 16;
    else if (n && *s == '%') s++, n--, base = 2;
    if (n == 0 || n > 16) return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = -1;
        char ch = s[i];
        if (ch >= '0' && ch <= '9') d = ch - '0';
        else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
        if (d < 0 || d >= base) return -1;
        v = v * (uint32_t)base + (uint32_t)d;
        if (v > 0xFFFF) return -1;
    }
    *out = v;
    return 0;
}

static int valid_name(span t)
{
    if (t.n == 0 || t.n > TD_MAX_SYMBOL_NAME || !name_start(t.s[0])) return 0;
    for (size_t i = 1; i < t.n; i++)
        if (!name_char(t.s[i])) return 0;
    return 1;
}

/* One line: 1 symbol (name, value), 0 nothing (blank/comment), -1 bad
 * (why: a static message). */
static int parse_line(const char *line, size_t n, span *name, uint32_t *value, const char **why)
{
    size_t i = 0;
    while (i < n && is_space(line[i])) i++;
    if (i == n || line[i] == ';' || line[i] == '#' || (n - i >= 2 && line[i] == '/' && line[i + 1] == '/'))
        return 0;
    const char *semi = memchr(line, ';', n);
    if (semi) n = (size_t)(semi - line);
    span t[4];
    int count = tokens(line, n, t);
    if (count >= 3 && t[0].n == 2 && strncasecmp(t[0].s, "al", 2) == 0) {
        if (count != 3) return *why = "expected \"al C:1000 .name\"", -1;
        span a = t[1];
        if (a.n > 2 && a.s[1] == ':') a.s += 2, a.n -= 2;
        span v = {0};
        char hex[20];
        if (a.n >= sizeof hex - 1) return *why = "the address is not hex", -1;
        hex[0] = '$';
        memcpy(hex + 1, a.s, a.n);
        v.s = hex;
        v.n = a.n + 1;
        if (a.n > 0 && a.s[0] == '$') v = a;
        if (parse_value(v, value) != 0) return *why = "the address is not hex from 0 to FFFF", -1;
        span nm = t[2];
        if (nm.n > 1 && nm.s[0] == '.') nm.s++, nm.n--;
        if (!valid_name(nm)) return *why = "the label is not a name", -1;
        *name = nm;
        return 1;
    }
    if (count == 3 && ((t[1].n == 1 && t[1].s[0] == '=') || (t[1].n == 3 && strncasecmp(t[1].s, "equ", 3) == 0))) {
        span nm = t[0];
        if (nm.n > 1 && nm.s[nm.n - 1] == ':') nm.n--;
        if (!valid_name(nm)) return *why = "the left side is not a name", -1;
        if (parse_value(t[2], value) != 0)
            return *why = "the value is not a number from 0 to $FFFF ($1000, 0x1000, 4096)", -1;
        *name = nm;
        return 1;
    }
    return *why = "expected \"al C:1000 .name\" or \"name = $1000\"", -1;
}

int td_symfile_next(const char **pos, const char *end, td_symfile_line *line)
{
    const char *s = *pos;
    if (s >= end) return 0;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
    *pos = nl ? nl + 1 : end;
    span name = {0};
    *line = (td_symfile_line){TD_SYMFILE_NOTHING, NULL, 0, 0, NULL};
    if (memchr(s, '\0', n)) {
        line->kind = TD_SYMFILE_BAD;
        line->why = "a NUL byte (is this a binary file?)";
        return 1;
    }
    line->kind = (td_symfile_kind)parse_line(s, n, &name, &line->value, &line->why);
    line->name = name.s;
    line->name_length = name.n;
    return 1;
}
