/* td_annot.c - finding @mcp annotations in source text (td_annot.h). */
#include "td_annot.h"

#include <string.h>

static int type_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

/* Whether a comment starts before position at in the line. */
static int in_comment(const char *line, size_t at)
{
    for (size_t i = 0; i < at; i++) {
        if (line[i] == ';' || line[i] == '*') return 1;
        if (line[i] == '/' && i + 1 < at && (line[i + 1] == '/' || line[i + 1] == '*')) return 1;
    }
    return 0;
}

static const char *find(const char *s, size_t n, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, what, k) == 0) return s + i;
    return NULL;
}

size_t td_annot_scan(const char *text, size_t size, td_annot_fn fn, void *user)
{
    size_t count = 0;
    uint32_t line_no = 0;
    const char *pos = text, *end = text + size;
    while (pos < end) {
        const char *nl = memchr(pos, '\n', (size_t)(end - pos));
        size_t n = nl ? (size_t)(nl - pos) : (size_t)(end - pos);
        const char *line = pos;
        pos = nl ? nl + 1 : end;
        line_no++;
        const char *at = find(line, n, "@mcp-");
        if (!at || !in_comment(line, (size_t)(at - line))) continue;
        const char *type = at + 5, *stop = line + n;
        size_t type_length = 0;
        while (type + type_length < stop && type_char(type[type_length])) type_length++;
        if (type_length == 0 || type_length > TD_ANNOT_MAX_TYPE || type + type_length >= stop ||
            type[type_length] != ':')
            continue;
        const char *desc = type + type_length + 1;
        const char *close = find(desc, (size_t)(stop - desc), "*/");
        if (close) stop = close;
        while (desc < stop && (*desc == ' ' || *desc == '\t')) desc++;
        while (stop > desc && (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r')) stop--;
        size_t desc_length = (size_t)(stop - desc);
        if (desc_length > TD_ANNOT_MAX_TEXT) desc_length = TD_ANNOT_MAX_TEXT;
        if (memchr(desc, '\0', desc_length) || memchr(type, '\0', type_length)) continue;
        count++;
        if (fn && fn(user, line_no, type, type_length, desc, desc_length)) break;
    }
    return count;
}

int td_annot_line_label(const char *line, size_t length, const char **name, size_t *name_length)
{
    if (length == 0) return 0;
    char c = line[0];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '@'))
        return 0;
    size_t n = 1;
    while (n < length && (type_char(line[n]) || line[n] == '.' || line[n] == '@') && line[n] != '-') n++;
    if (n > 128) return 0;
    *name = line;
    *name_length = n;
    return 1;
}

/* ---- the session's list (td_annotations.h), freed here so the store
 * needs nothing else of the tools ---- */

#include <stdlib.h>

#include "td_annotations.h"

void td_annots_clear(td_annots *annots)
{
    for (size_t i = 0; i < annots->count; i++) {
        free(annots->items[i].text);
        free(annots->items[i].file);
    }
    free(annots->items);
    annots->items = NULL;
    annots->count = 0;
}
