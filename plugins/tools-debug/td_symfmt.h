/* td_symfmt.h - the symbol and debug-info file formats symbols_load reads,
 * as a table: each format has a name, a detect function that scores how
 * much a text looks like it, and a parser that hands what it finds to a
 * sink (symbols; source files and the address ranges of their lines).
 *
 *   labels       VICE .vs/.lbl ("al C:1000 .name"), ACME --labeldump and
 *                --vicelabels, 64tass --labels and --vice-labels, ld65 -Ln
 *                (td_symfile.h's lines)
 *   ca65-dbg     ld65 --dbgfile: files, lines, spans, segments, scopes, symbols
 *   kickass-sym  KickAssembler .sym (".label name=$1000", namespaces)
 *   kickass-dbg  KickAssembler -debugdump .dbg (<C64debugger> XML)
 *   dasm         dasm -s symbol list
 *   xa65         xa -l label list ("name, 0x1000, 1, 0x0000")
 *
 * The text is outside input: the parsers never read past text + size (no
 * NUL needed), bound every number, name and id, and report lines they
 * cannot read through sink->bad. Values above $FFFF are reported as bad;
 * names and file names never hold a NUL byte.
 * Pure parsing, no state; [thread-safe]. Kept apart from the tool so the
 * fuzz target (tests/fuzz/fuzz_symbols.c) runs every parser.
 */
#ifndef TD_SYMFMT_H
#define TD_SYMFMT_H

#include <stddef.h>
#include <stdint.h>

#define TD_SYMFMT_MAX_LINE 10000000u /* highest source line number taken */
#define TD_SYMFMT_MAX_PATH 1024u     /* longest source file name taken */

/* Where a parser puts what it finds. Callbacks return 0 to go on, nonzero
 * to stop the parse (a limit was reached). file ids are the format's own;
 * a line callback names a file id given to file() before or after. */
typedef struct td_symfmt_sink {
    void *user;
    int (*symbol)(void *user, const char *name, size_t length, uint32_t value);
    int (*file)(void *user, uint32_t id, const char *name, size_t length);
    int (*line)(void *user, uint32_t file_id, uint32_t line, uint32_t start, uint32_t end);
    /* A line of the input that was not understood (line_no from 1). */
    void (*bad)(void *user, uint32_t line_no, const char *why);
} td_symfmt_sink;

typedef struct td_symfmt {
    const char *name;
    /* 0: not this format; higher: more sure (the best score wins). */
    int (*detect)(const char *text, size_t size);
    void (*parse)(const char *text, size_t size, const td_symfmt_sink *sink);
} td_symfmt;

size_t td_symfmt_count(void);
const td_symfmt *td_symfmt_at(size_t index);
/* By name, or NULL. */
const td_symfmt *td_symfmt_named(const char *name);
/* The best-scoring format, or NULL when none scores above 0. */
const td_symfmt *td_symfmt_detect(const char *text, size_t size);

/* ---- helpers the parsers share (td_symfmt.c) ---- */

typedef struct td_sf_text {
    const char *s;
    size_t n;
} td_sf_text;

/* The next line at *pos (without '\n' or a trailing '\r'); 0 at end. */
int td_sf_next_line(const char **pos, const char *end, td_sf_text *line);
/* Leading and trailing blanks removed. */
td_sf_text td_sf_trim(td_sf_text t);
/* Splits t at the first sep: *head before it, t after it (empty when none).
 * Returns 0 when t was already empty. */
int td_sf_split(td_sf_text *t, char sep, td_sf_text *head);
/* A number: "$hex", "0xhex", "%bin", decimal, or bare hex when base16 is
 * 1; at most max. Returns 0 on success. */
int td_sf_number(td_sf_text t, int base16, uint64_t max, uint64_t *out);
int td_sf_equals(td_sf_text t, const char *word);
int td_sf_starts(td_sf_text t, const char *prefix);

#endif
