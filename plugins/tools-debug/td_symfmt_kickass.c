/* td_symfmt_kickass.c - KickAssembler's symbol files.
 *   .sym (-symbolfile):  ".label start=$0810", ".const SCREEN=$0400",
 *       ".namespace music {" ... "}" (names inside become "music.name")
 *   .dbg (-debugdump):   the <C64debugger version="1.0"> XML of C64 Debugger:
 *       <Sources values="INDEX,FILE">  "1,/path/main.asm"
 *       <Segment ...> [<Block ...>]    "$0810,$0812,1,12,9,12,14"
 *                                      (START,END,FILE_IDX,LINE1,COL1,LINE2,COL2)
 *       <Labels values="SEGMENT,ADDRESS,NAME,...">  "Default,$0810,start,..."
 *   Elements are read line by line: a line starting with '<' opens or
 *   closes a section; the lines between are its comma-separated records.
 */
#include <string.h>

#include "td_store.h"
#include "td_symfmt.h"

#define MAX_NAMESPACE_DEPTH 16

/* ---- .sym ---- */

static int sym_detect(const char *text, size_t size)
{
    td_sf_text line;
    const char *pos = text;
    for (int i = 0; i < 32 && td_sf_next_line(&pos, text + size, &line); i++) {
        line = td_sf_trim(line);
        if (td_sf_starts(line, ".label ") || td_sf_starts(line, ".const ") ||
            td_sf_starts(line, ".namespace "))
            return 40;
    }
    return 0;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_name(td_sf_text t)
{
    if (t.n == 0 || (t.s[0] >= '0' && t.s[0] <= '9')) return 0;
    for (size_t i = 0; i < t.n; i++)
        if (!name_char(t.s[i])) return 0;
    return 1;
}

static void sym_parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    char prefix[TD_MAX_SYMBOL_NAME + 1];
    size_t depth_len[MAX_NAMESPACE_DEPTH + 1];
    size_t depth = 0, used = 0;
    uint32_t no = 0;
    td_sf_text line;
    depth_len[0] = 0;
    for (const char *pos = text; td_sf_next_line(&pos, text + size, &line);) {
        no++;
        line = td_sf_trim(line);
        if (line.n == 0 || td_sf_starts(line, "//")) continue;
        if (td_sf_equals(line, "}")) {
            if (depth == 0) sink->bad(sink->user, no, "\"}\" without a namespace");
            else used = depth_len[--depth];
            continue;
        }
        if (td_sf_starts(line, ".namespace ")) {
            td_sf_text name = {line.s + 11, line.n - 11}, brace;
            td_sf_split(&name, '{', &brace);
            brace = td_sf_trim(brace);
            if (!is_name(brace) || depth == MAX_NAMESPACE_DEPTH ||
                used + brace.n + 1 > TD_MAX_SYMBOL_NAME) {
                sink->bad(sink->user, no, "a namespace that is not a name, or nested too deep");
                continue;
            }
            memcpy(prefix + used, brace.s, brace.n);
            used += brace.n;
            prefix[used++] = '.';
            depth_len[++depth] = used;
            depth_len[depth - 1] = used - brace.n - 1;
            continue;
        }
        td_sf_text rest;
        if (td_sf_starts(line, ".label ") || td_sf_starts(line, ".const "))
            rest = (td_sf_text){line.s + 7, line.n - 7};
        else {
            sink->bad(sink->user, no, "expected \".label name=$1000\"");
            continue;
        }
        td_sf_text name;
        td_sf_split(&rest, '=', &name);
        name = td_sf_trim(name);
        uint64_t v = 0;
        if (!is_name(name) || used + name.n > TD_MAX_SYMBOL_NAME) {
            sink->bad(sink->user, no, "the label is not a name");
            continue;
        }
        if (td_sf_number(rest, 0, 0xFFFF, &v) != 0) {
            /* .const of a string or a float: not an address, not an error */
            if (td_sf_starts(line, ".label "))
                sink->bad(sink->user, no, "the value is not a number from 0 to $FFFF");
            continue;
        }
        char full[TD_MAX_SYMBOL_NAME + 1];
        memcpy(full, prefix, used);
        memcpy(full + used, name.s, name.n);
        if (sink->symbol(sink->user, full, used + name.n, (uint32_t)v)) return;
    }
}

const td_symfmt td_symfmt_kickass_sym = {"kickass-sym", sym_detect, sym_parse};

/* ---- .dbg ---- */

static int dbg_detect(const char *text, size_t size)
{
    size_t n = size < 512 ? size : 512;
    for (size_t i = 0; i + 12 <= n; i++)
        if (memcmp(text + i, "<C64debugger", 12) == 0) return 60;
    return 0;
}

enum section { NONE, SOURCES, LINES, LABELS };

static enum section section_of(td_sf_text tag)
{
    static const struct {
        const char *name;
        enum section section;
    } names[] = {{"<Sources", SOURCES}, {"<Segment", LINES}, {"<Block", LINES}, {"<Labels", LABELS}};
    if (td_sf_starts(tag, "</") || (tag.n >= 2 && tag.s[tag.n - 2] == '/' && tag.s[tag.n - 1] == '>'))
        return NONE;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t k = strlen(names[i].name);
        if (td_sf_starts(tag, names[i].name) && (tag.n == k || tag.s[k] == ' ' || tag.s[k] == '>'))
            return names[i].section;
    }
    return NONE;
}

/* "$0810,$0812,1,12,9,12,14": a range and its first line. */
static int dbg_line(td_sf_text rec, const td_symfmt_sink *sink, uint32_t no, int *stop)
{
    td_sf_text f[4];
    uint64_t start, end, file, line;
    for (int i = 0; i < 4; i++) td_sf_split(&rec, ',', &f[i]);
    if (td_sf_number(f[0], 0, 0xFFFF, &start) || td_sf_number(f[1], 0, 0xFFFF, &end) ||
        td_sf_number(f[2], 0, 0xFFFF, &file) || td_sf_number(f[3], 0, TD_SYMFMT_MAX_LINE, &line) ||
        end < start || line == 0) {
        sink->bad(sink->user, no, "expected \"$START,$END,FILE_IDX,LINE1,...\"");
        return 0;
    }
    *stop = sink->line(sink->user, (uint32_t)file, (uint32_t)line, (uint32_t)start, (uint32_t)end);
    return 1;
}

static void dbg_parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    enum section section = NONE, outer = NONE;
    uint32_t no = 0;
    td_sf_text line;
    int stop = 0;
    for (const char *pos = text; !stop && td_sf_next_line(&pos, text + size, &line);) {
        no++;
        line = td_sf_trim(line);
        if (line.n == 0) continue;
        if (line.s[0] == '<') {
            enum section s = section_of(line);
            /* </Block> goes back to its segment; other closes end it. */
            if (s == NONE && td_sf_starts(line, "</Block")) s = outer;
            else if (s == LINES && td_sf_starts(line, "<Segment")) outer = LINES;
            else if (s == NONE) outer = NONE;
            section = s;
            continue;
        }
        td_sf_text rec = line, a, b;
        uint64_t v = 0;
        switch (section) {
        case SOURCES:
            td_sf_split(&rec, ',', &a);
            if (td_sf_number(a, 0, 0xFFFF, &v) || rec.n == 0 || rec.n > TD_SYMFMT_MAX_PATH ||
                memchr(rec.s, 0, rec.n))
                sink->bad(sink->user, no, "expected \"INDEX,FILE\"");
            else
                stop = sink->file(sink->user, (uint32_t)v, rec.s, rec.n);
            break;
        case LINES:
            dbg_line(rec, sink, no, &stop);
            break;
        case LABELS:
            td_sf_split(&rec, ',', &a); /* the segment */
            td_sf_split(&rec, ',', &a);
            td_sf_split(&rec, ',', &b);
            b = td_sf_trim(b);
            if (td_sf_number(a, 0, 0xFFFF, &v) || !is_name(b) || b.n > TD_MAX_SYMBOL_NAME)
                sink->bad(sink->user, no, "expected \"SEGMENT,$ADDRESS,NAME\"");
            else
                stop = sink->symbol(sink->user, b.s, b.n, (uint32_t)v);
            break;
        case NONE:
            break;
        }
    }
}

const td_symfmt td_symfmt_kickass_dbg = {"kickass-dbg", dbg_detect, dbg_parse};
