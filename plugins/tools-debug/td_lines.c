/* td_lines.c - a session's source line table (td_lines.h). */
#include "td_lines.h"

#include <stdlib.h>
#include <string.h>

static char *copy(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

mh_status td_lines_add_file(td_lines *lines, const char *name, size_t length,
                            const char *base_dir, uint32_t *index)
{
    if (lines->file_count >= TD_MAX_SOURCE_FILES) return MH_ERR_LIMIT;
    td_src_file *files = realloc(lines->files, (lines->file_count + 1) * sizeof *files);
    if (!files) return MH_ERR_NO_MEMORY;
    lines->files = files;
    td_src_file *f = &files[lines->file_count];
    f->name = copy(name, length);
    if (f->name && base_dir && *base_dir && name[0] != '/') {
        size_t b = strlen(base_dir);
        f->path = malloc(b + length + 2);
        if (f->path) {
            memcpy(f->path, base_dir, b);
            f->path[b] = '/';
            memcpy(f->path + b + 1, name, length);
            f->path[b + 1 + length] = '\0';
        }
    } else {
        f->path = copy(name, length);
    }
    if (!f->name || !f->path) {
        free(f->name);
        free(f->path);
        return MH_ERR_NO_MEMORY;
    }
    *index = (uint32_t)lines->file_count++;
    return MH_OK;
}

mh_status td_lines_add(td_lines *lines, uint32_t file, uint32_t line, uint32_t start,
                       uint32_t end)
{
    if (lines->count >= TD_MAX_LINES) return MH_ERR_LIMIT;
    if (lines->count == lines->capacity) {
        size_t cap = lines->capacity ? lines->capacity * 2 : 256;
        td_line *items = realloc(lines->items, cap * sizeof *items);
        if (!items) return MH_ERR_NO_MEMORY;
        lines->items = items;
        lines->capacity = cap;
    }
    lines->items[lines->count++] = (td_line){start, end, file, line};
    if (end - start > lines->longest) lines->longest = end - start;
    lines->sorted = 0;
    return MH_OK;
}

void td_lines_clear(td_lines *lines)
{
    for (size_t i = 0; i < lines->file_count; i++) {
        free(lines->files[i].name);
        free(lines->files[i].path);
    }
    free(lines->files);
    free(lines->items);
    memset(lines, 0, sizeof *lines);
}

static int by_start(const void *a, const void *b)
{
    const td_line *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static void sort(td_lines *lines)
{
    if (lines->sorted) return;
    if (lines->count) qsort(lines->items, lines->count, sizeof *lines->items, by_start);
    lines->sorted = 1;
}

const td_line *td_lines_at(td_lines *lines, uint32_t address)
{
    sort(lines);
    /* the first range starting above address */
    size_t lo = 0, hi = lines->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (lines->items[mid].start <= address) lo = mid + 1;
        else hi = mid;
    }
    const td_line *best = NULL;
    for (size_t i = lo; i-- > 0;) {
        const td_line *l = &lines->items[i];
        if ((uint64_t)l->start + lines->longest < address) break;
        if (l->end >= address && (!best || l->end - l->start < best->end - best->start)) best = l;
    }
    return best;
}

/* Whether tail is name's last components (a whole component boundary). */
static int ends_with_path(const char *name, const char *tail)
{
    size_t n = strlen(name), t = strlen(tail);
    if (t == 0 || t > n || strcmp(name + n - t, tail) != 0) return 0;
    return t == n || name[n - t - 1] == '/' || name[n - t - 1] == '\\';
}

int td_lines_file_matches(const td_src_file *file, const char *query)
{
    return ends_with_path(file->name, query) || ends_with_path(file->path, query) ||
           ends_with_path(query, file->name);
}

size_t td_lines_find(td_lines *lines, const char *file, uint32_t line, const td_line **out,
                     size_t max)
{
    sort(lines);
    size_t found = 0;
    for (size_t i = 0; i < lines->count; i++) {
        const td_line *l = &lines->items[i];
        if (l->line != line || l->file >= lines->file_count ||
            !td_lines_file_matches(&lines->files[l->file], file))
            continue;
        if (found < max) out[found] = l;
        found++;
    }
    return found;
}
