/* td_symfmt_labels.c - label files of one symbol a line (td_symfile.h):
 * VICE .vs/.lbl, ACME --labeldump/--vicelabels, 64tass --labels/
 * --vice-labels and ld65 -Ln all write "al C:1000 .name" or "name = $1000". */
#include "td_symfmt.h"
#include "td_symfile.h"

/* Sure when most of the first lines are symbol lines. */
static int detect(const char *text, size_t size)
{
    size_t good = 0, bad = 0;
    td_symfile_line line;
    const char *pos = text, *end = text + size;
    for (int i = 0; i < 64 && td_symfile_next(&pos, end, &line); i++) {
        if (line.kind == TD_SYMFILE_SYMBOL) good++;
        else if (line.kind == TD_SYMFILE_BAD) bad++;
    }
    return good && good >= bad ? 10 : good ? 1 : 0;
}

static void parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    td_symfile_line line;
    uint32_t line_no = 0;
    for (const char *pos = text; td_symfile_next(&pos, text + size, &line);) {
        line_no++;
        if (line.kind == TD_SYMFILE_BAD) sink->bad(sink->user, line_no, line.why);
        else if (line.kind == TD_SYMFILE_SYMBOL &&
                 sink->symbol(sink->user, line.name, line.name_length, line.value))
            return;
    }
}

const td_symfmt td_symfmt_labels = {"labels", detect, parse};
