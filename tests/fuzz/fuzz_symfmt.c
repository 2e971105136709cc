/* fuzz_symfmt.c - libFuzzer target for the symbol and debug-info file
 * formats of symbols_load (plugins/tools-debug/td_symfmt*.c) and the source
 * line table they fill (td_lines.c).
 *
 * The first byte picks the format (byte % (formats + 1); the last value
 * detects it from the content, as symbols_load does); the rest is the
 * file. Invariants, each aborting on violation (ASan/UBSan catch memory
 * and undefined-behaviour bugs, also reads past the text):
 *   1. every symbol has a 1-TD_MAX_SYMBOL_NAME byte name and a value of
 *      0-$FFFF; every file name is 1-TD_SYMFMT_MAX_PATH bytes (names
 *      without NUL bytes); every line
 *      range has start <= end <= $FFFF and a line of 1-TD_SYMFMT_MAX_LINE;
 *      every unread line has a number from 1 and a message;
 *   2. the @mcp annotation scanner (td_annot.c) reads the same text: every
 *      annotation has a line from 1, a 1-TD_ANNOT_MAX_TYPE byte type and a
 *      text of at most TD_ANNOT_MAX_TEXT bytes, all inside the text;
 *   3. the line ranges go into a td_lines table; each range's start is
 *      then found (a range holding it, no wider than the one added) and
 *      file:line lookups give only ranges of that line.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_symfmt
 *   run:   build-fuzz/tests/fuzz/fuzz_symfmt -max_total_time=60 -max_len=4096 CORPUS_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "td_annot.h"
#include "td_lines.h"
#include "td_store.h"
#include "td_symfmt.h"
#include "fuzz_check.h"

typedef struct state {
    td_lines lines;
    uint32_t file_index[8]; /* the table's index of format file ids 0-7 */
    int has_file[8];
} state;

static int on_symbol(void *user, const char *name, size_t length, uint32_t value)
{
    (void)user;
    CHECK(name != NULL && length >= 1 && length <= TD_MAX_SYMBOL_NAME && !memchr(name, 0, length));
    CHECK(value <= 0xFFFF);
    return 0;
}

static int on_file(void *user, uint32_t id, const char *name, size_t length)
{
    state *s = user;
    CHECK(name != NULL && length >= 1 && length <= TD_SYMFMT_MAX_PATH && !memchr(name, 0, length));
    if (id < 8 && !s->has_file[id] &&
        td_lines_add_file(&s->lines, name, length, "/base", &s->file_index[id]) == MH_OK)
        s->has_file[id] = 1;
    return 0;
}

static int on_line(void *user, uint32_t file, uint32_t line, uint32_t start, uint32_t end)
{
    state *s = user;
    CHECK(line >= 1 && line <= TD_SYMFMT_MAX_LINE);
    CHECK(start <= end && end <= 0xFFFF);
    if (file < 8 && s->has_file[file]) td_lines_add(&s->lines, s->file_index[file], line, start, end);
    return 0;
}

static void on_bad(void *user, uint32_t line_no, const char *why)
{
    (void)user;
    CHECK(line_no >= 1 && why != NULL && why[0] != '\0');
}

typedef struct span_check {
    const char *text;
    size_t size;
} span_check;

static int on_note(void *user, uint32_t line_no, const char *type, size_t type_length,
                   const char *text, size_t text_length)
{
    span_check *s = user;
    CHECK(line_no >= 1);
    CHECK(type_length >= 1 && type_length <= TD_ANNOT_MAX_TYPE && text_length <= TD_ANNOT_MAX_TEXT);
    CHECK(type >= s->text && type + type_length <= s->text + s->size);
    CHECK(text >= s->text && text + text_length <= s->text + s->size);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    size_t count = td_symfmt_count();
    size_t pick = data[0] % (count + 1);
    size_t n = size - 1;
    /* an exact-size copy: a read past the end is caught */
    char *text = malloc(n ? n : 1);
    if (!text) return 0;
    memcpy(text, data + 1, n);
    span_check spans = {text, n};
    td_annot_scan(text, n, on_note, &spans);
    const td_symfmt *format = pick < count ? td_symfmt_at(pick) : td_symfmt_detect(text, n);
    if (format) {
        state s;
        memset(&s, 0, sizeof s);
        td_symfmt_sink sink = {&s, on_symbol, on_file, on_line, on_bad};
        format->parse(text, n, &sink);
        for (size_t i = 0; i < s.lines.count && i < 256; i++) {
            td_line added = s.lines.items[i];
            const td_line *found = td_lines_at(&s.lines, added.start);
            CHECK(found != NULL && found->start <= added.start && found->end >= added.start);
            CHECK(found->end - found->start <= added.end - added.start);
            const td_line *same[4];
            size_t k = td_lines_find(&s.lines, s.lines.files[added.file].name, added.line, same, 4);
            CHECK(k >= 1);
            for (size_t j = 0; j < k && j < 4; j++) CHECK(same[j]->line == added.line);
        }
        td_lines_clear(&s.lines);
    }
    free(text);
    return 0;
}
