/* mh_asm_tool.c - mh-asm: command line, joining the sources, mapping the
 * assembler's line numbers back to files, range and overlap checks, and
 * the binary and C outputs (mh_asm_tool.h). */
#include "mh_asm_tool.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/asm6502.h"
#include "mcphost/file_write.h"

#define MAX_DEFINES 64
#define MAX_FILES 64

/* Where one input's lines sit in the joined text. */
typedef struct source_part {
    const char *name; /* file name, or the -D text */
    uint32_t first_line; /* 1-based line in the joined text */
    uint32_t line_count;
} source_part;

typedef struct tool_args {
    const char *defines[MAX_DEFINES];
    size_t define_count;
    const char *files[MAX_FILES];
    size_t file_count;
    const char *output;
    const char *c_symbol, *c_output;
    uint32_t start, end, fill;
    int have_range;
} tool_args;

typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

static int append(text_buffer *b, const char *text, size_t length)
{
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (b->length + length + 1 > capacity) capacity *= 2;
        char *data = realloc(b->data, capacity);
        if (!data) return 0;
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, text, length);
    b->length += length;
    b->data[b->length] = '\0';
    return 1;
}

/* "$E000", "0xE000" or "57344" into *value (at most max). */
static int parse_number(const char *text, size_t length, uint32_t max, uint32_t *value)
{
    int base = 10;
    if (length > 1 && text[0] == '$') text++, length--, base = 16;
    else if (length > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text += 2, length -= 2, base = 16;
    if (length == 0 || length > 8) return 0;
    uint32_t v = 0;
    for (size_t i = 0; i < length; i++) {
        int c = (unsigned char)text[i], digit;
        if (isdigit(c)) digit = c - '0';
        else if (base == 16 && isxdigit(c)) digit = tolower(c) - 'a' + 10;
        else return 0;
        v = v * (uint32_t)base + (uint32_t)digit;
    }
    if (v > max) return 0;
    *value = v;
    return 1;
}

static int parse_range(const char *text, tool_args *a)
{
    const char *dash = strchr(text, '-');
    if (!dash) return 0;
    if (!parse_number(text, (size_t)(dash - text), 0xFFFF, &a->start) ||
        !parse_number(dash + 1, strlen(dash + 1), 0xFFFF, &a->end) || a->end < a->start)
        return 0;
    return a->have_range = 1;
}

static int is_identifier(const char *text, size_t length)
{
    if (length == 0 || !(isalpha((unsigned char)text[0]) || text[0] == '_')) return 0;
    for (size_t i = 1; i < length; i++)
        if (!(isalnum((unsigned char)text[i]) || text[i] == '_')) return 0;
    return 1;
}

static int usage(FILE *err, const char *problem)
{
    fprintf(err,
            "mh-asm: %s\n"
            "usage: mh-asm [-D NAME=VALUE]... --range START-END [--fill BYTE] -o OUT.bin\n"
            "              [--c-array SYMBOL OUT.c] FILE...\n",
            problem);
    return 2;
}

/* Fills a from argv; returns 0 or the usage exit status. */
static int parse_args(int argc, char **argv, tool_args *a, FILE *err)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strncmp(arg, "-D", 2) == 0) {
            const char *def = arg[2] ? arg + 2 : value;
            if (!arg[2]) i++;
            if (!def) return usage(err, "-D needs NAME=VALUE");
            const char *eq = strchr(def, '=');
            if (!eq || !is_identifier(def, (size_t)(eq - def)) || !eq[1]) {
                fprintf(err, "mh-asm: -D %s: expected NAME=VALUE with NAME a label name\n", def);
                return 2;
            }
            if (a->define_count == MAX_DEFINES) return usage(err, "too many -D options");
            a->defines[a->define_count++] = def;
        } else if (strcmp(arg, "--range") == 0) {
            if (!value || !parse_range(value, a))
                return usage(err, "--range needs START-END within $0000-$FFFF, e.g. $E000-$FFFF");
            i++;
        } else if (strcmp(arg, "--fill") == 0) {
            if (!value || !parse_number(value, strlen(value), 0xFF, &a->fill))
                return usage(err, "--fill needs a byte value, e.g. $FF");
            i++;
        } else if (strcmp(arg, "-o") == 0) {
            if (!value) return usage(err, "-o needs a file name");
            a->output = value;
            i++;
        } else if (strcmp(arg, "--c-array") == 0) {
            if (i + 2 >= argc) return usage(err, "--c-array needs SYMBOL and OUT.c");
            a->c_symbol = argv[i + 1];
            a->c_output = argv[i + 2];
            if (!is_identifier(a->c_symbol, strlen(a->c_symbol)))
                return usage(err, "--c-array: the symbol must be a C identifier");
            i += 2;
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(err, "mh-asm: unknown option %s\n", arg);
            return 2;
        } else {
            if (a->file_count == MAX_FILES) return usage(err, "too many source files");
            a->files[a->file_count++] = arg;
        }
    }
    if (!a->have_range) return usage(err, "--range is required");
    if (!a->output) return usage(err, "-o is required");
    if (a->file_count == 0) return usage(err, "no source files");
    return 0;
}

static uint32_t count_lines(const char *text, size_t length)
{
    uint32_t lines = 0;
    for (size_t i = 0; i < length; i++) lines += text[i] == '\n';
    return lines;
}

/* Reads a whole file and appends it, ending with a newline. */
static int append_file(text_buffer *b, const char *path, FILE *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(err, "%s: cannot open: %s\n", path, strerror(errno));
        return 0;
    }
    char chunk[8192];
    size_t n, start = b->length;
    int ok = 1;
    while (ok && (n = fread(chunk, 1, sizeof chunk, f)) > 0) ok = append(b, chunk, n);
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        fprintf(err, "%s: read error\n", path);
        return 0;
    }
    if (ok && b->length > start && memchr(b->data + start, '\0', b->length - start)) {
        fprintf(err, "%s: contains a NUL byte (not a source text)\n", path);
        return 0;
    }
    if (ok && b->length > start && b->data[b->length - 1] != '\n') ok = append(b, "\n", 1);
    if (!ok) fprintf(err, "mh-asm: out of memory\n");
    return ok;
}

static const source_part *part_of_line(const source_part *parts, size_t count, uint32_t line)
{
    for (size_t i = 0; i < count; i++)
        if (line >= parts[i].first_line && line < parts[i].first_line + parts[i].line_count)
            return &parts[i];
    return NULL;
}

/* "file:line" of a joined-text line into out. */
static void locate(const source_part *parts, size_t count, uint32_t line, char *out, size_t size)
{
    const source_part *p = part_of_line(parts, count, line);
    if (p) snprintf(out, size, "%s:%u", p->name, (unsigned)(line - p->first_line + 1));
    else snprintf(out, size, "line %u", (unsigned)line);
}

/* The label closest below address (the code that wrote it), as "file:line
 * (after 'label')"; "" when there is none. */
static void near_label(const mh_asm6502_result *r, const source_part *parts, size_t count,
                       uint32_t address, char *out, size_t size)
{
    const mh_asm6502_symbol *best = NULL;
    for (size_t i = 0; i < r->symbol_count; i++) {
        const mh_asm6502_symbol *s = &r->symbols[i];
        if (s->value < 0 || (uint32_t)s->value > address) continue;
        if (!best || s->value > best->value) best = s;
    }
    if (!best) {
        snprintf(out, size, "mh-asm");
        return;
    }
    char where[300];
    locate(parts, count, best->line, where, sizeof where);
    snprintf(out, size, "%s (after '%s')", where, best->name);
}

/* Checks every chunk against the range and the others; 1 when clean. */
static int check_layout(const mh_asm6502_result *r, const tool_args *a, const source_part *parts,
                        size_t count, uint8_t *written, FILE *err)
{
    memset(written, 0, 8192);
    for (size_t c = 0; c < r->chunk_count; c++) {
        const mh_asm6502_chunk *ch = &r->chunks[c];
        for (uint32_t i = 0; i < ch->size; i++) {
            uint32_t address = (uint32_t)ch->address + i;
            char where[400];
            if (address < a->start || address > a->end) {
                near_label(r, parts, count, address, where, sizeof where);
                fprintf(err, "%s: byte at $%04X is outside the range $%04X-$%04X\n", where,
                        (unsigned)address, (unsigned)a->start, (unsigned)a->end);
                return 0;
            }
            if (written[address >> 3] & (1u << (address & 7))) {
                near_label(r, parts, count, address, where, sizeof where);
                fprintf(err, "%s: $%04X is written twice (two pieces of code overlap)\n", where,
                        (unsigned)address);
                return 0;
            }
            written[address >> 3] |= (uint8_t)(1u << (address & 7));
        }
    }
    return 1;
}

/* Outputs go through the SDK's file writer (mcphost/file_write.h): a
 * build stopped half-way never leaves a half-written image behind. */
static int write_output(const char *path, const void *bytes, size_t size, FILE *err)
{
    char why[512];
    if (mh_file_write(path, bytes, size, MH_FILE_OVERWRITE, why, sizeof why) == MH_OK) return 1;
    fprintf(err, "%s: %s\n", path, why);
    return 0;
}

static int write_c_array(const char *path, const char *symbol, const uint8_t *bytes, size_t size,
                         FILE *err)
{
    text_buffer b = {0};
    char line[1024];
    if (strlen(symbol) > 200) {
        fprintf(err, "%s: the array name is longer than 200 characters\n", path);
        return 0;
    }
    int ok = 1;
    snprintf(line, sizeof line,
             "/* Generated by mh-asm: do not edit. */\n#include <stddef.h>\n#include <stdint.h>\n\n"
             "extern const uint8_t %s[%zu];\nextern const size_t %s_size;\n"
             "const uint8_t %s[%zu] = {",
             symbol, size, symbol, symbol, size);
    ok &= append(&b, line, strlen(line));
    for (size_t i = 0; i < size && ok; i++) {
        int n = snprintf(line, sizeof line, "%s0x%02X,", i % 16 ? " " : "\n    ", (unsigned)bytes[i]);
        ok &= append(&b, line, (size_t)n);
    }
    snprintf(line, sizeof line, "\n};\nconst size_t %s_size = %zu;\n", symbol, size);
    ok &= append(&b, line, strlen(line));
    if (!ok) fprintf(err, "%s: out of memory\n", path);
    ok = ok && write_output(path, b.data, b.length, err);
    free(b.data);
    return ok;
}

/* The assembler's "line N, column M: text" as "file:N':M: text" (or
 * "-D NAME=VALUE: text" for an error in a definition). */
static void report_error(const mh_asm6502_result *r, const source_part *parts, size_t count,
                         FILE *err)
{
    const char *text = r->error;
    const char *colon = strstr(text, ": ");
    const source_part *p = r->error_line ? part_of_line(parts, count, r->error_line) : NULL;
    if (!p) {
        fprintf(err, "mh-asm: %s\n", text);
        return;
    }
    if (colon) text = colon + 2;
    if (strncmp(p->name, "-D ", 3) == 0) fprintf(err, "%s: %s\n", p->name, text);
    else
        fprintf(err, "%s:%u:%u: %s\n", p->name, (unsigned)(r->error_line - p->first_line + 1),
                (unsigned)r->error_column, text);
}

int mh_asm_tool_run(int argc, char **argv, FILE *err)
{
    tool_args a;
    memset(&a, 0, sizeof a);
    int status = parse_args(argc, argv, &a, err);
    if (status) return status;

    source_part parts[MAX_DEFINES + MAX_FILES];
    char define_names[MAX_DEFINES][96];
    size_t part_count = 0;
    text_buffer text = {NULL, 0, 0};
    uint32_t line = 1;
    int ok = 1;
    for (size_t i = 0; ok && i < a.define_count; i++) {
        const char *eq = strchr(a.defines[i], '=');
        snprintf(define_names[i], sizeof define_names[i], "-D %s", a.defines[i]);
        parts[part_count++] = (source_part){define_names[i], line, 1};
        ok = append(&text, a.defines[i], (size_t)(eq - a.defines[i])) && append(&text, " = ", 3) &&
             append(&text, eq + 1, strlen(eq + 1)) && append(&text, "\n", 1);
        if (ok && count_lines(eq + 1, strlen(eq + 1))) {
            fprintf(err, "mh-asm: -D %s: the value must be one line\n", a.defines[i]);
            free(text.data);
            return 2;
        }
        line++;
    }
    for (size_t i = 0; ok && i < a.file_count; i++) {
        size_t before = text.length;
        if (!append_file(&text, a.files[i], err)) {
            free(text.data);
            return 1;
        }
        uint32_t lines = count_lines(text.data + before, text.length - before);
        parts[part_count++] = (source_part){a.files[i], line, lines};
        line += lines;
    }
    if (!ok) {
        free(text.data);
        fprintf(err, "mh-asm: out of memory\n");
        return 1;
    }

    mh_asm6502_options options = {a.start, NULL, NULL};
    mh_asm6502_result r;
    mh_status st = mh_asm6502_assemble(text.data ? text.data : "", text.length, &options, &r);
    free(text.data);
    uint8_t *image = malloc(65536), *written = malloc(8192);
    int result = 1;
    if (!image || !written) fprintf(err, "mh-asm: out of memory\n");
    else if (st != MH_OK) report_error(&r, parts, part_count, err);
    else if (check_layout(&r, &a, parts, part_count, written, err)) {
        memset(image, (int)a.fill, 65536);
        for (size_t c = 0; c < r.chunk_count; c++)
            memcpy(image + r.chunks[c].address, r.chunks[c].bytes, r.chunks[c].size);
        size_t size = (size_t)(a.end - a.start + 1);
        if (write_output(a.output, image + a.start, size, err) &&
            (!a.c_symbol || write_c_array(a.c_output, a.c_symbol, image + a.start, size, err)))
            result = 0;
    }
    if (result != 0 && a.output) remove(a.output);
    if (result != 0 && a.c_output) remove(a.c_output);
    free(image);
    free(written);
    mh_asm6502_result_free(&r);
    return result;
}
