/* asm6502.c - the assembler's driver: two passes over the lines, the
 * symbol table (open-addressing hash), the pass-1 addressing decisions,
 * output chunks, errors, and the public API of mcphost/asm6502.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm6502_internal.h"

/* --- Errors ------------------------------------------------------------ */

int asm_error(asm_state *st, uint32_t column, const char *format, ...)
{
    if (st->failed) return -1;
    st->failed = 1;
    char message[200];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    st->error_line = st->line ? st->line->number : 0;
    st->error_column = column;
    snprintf(st->error, sizeof st->error, "line %u, column %u: %s", (unsigned)st->error_line,
             (unsigned)column, message);
    return -1;
}

static int no_memory(asm_state *st)
{
    st->out_of_memory = 1;
    return asm_error(st, 1, "out of memory");
}

/* Grows *array (elements of `size` bytes) to hold at least `need`. */
static int grow(asm_state *st, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need) n *= 2;
    void *p = realloc(*array, n * size);
    if (!p) return no_memory(st);
    *array = p;
    *cap = n;
    return 0;
}

/* --- Symbols ----------------------------------------------------------- */

static uint32_t hash_name(const char *name, size_t length)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < length; i++) h = (h ^ (uint8_t)name[i]) * 16777619u;
    return h;
}

static int rehash(asm_state *st, size_t cap)
{
    uint32_t *table = calloc(cap, sizeof *table);
    if (!table) return no_memory(st);
    for (size_t i = 0; i < st->symbol_count; i++) {
        size_t slot = hash_name(st->symbols[i].name, st->symbols[i].length) & (cap - 1);
        while (table[slot]) slot = (slot + 1) & (cap - 1);
        table[slot] = (uint32_t)i + 1;
    }
    free(st->hash);
    st->hash = table;
    st->hash_cap = cap;
    return 0;
}

asm_symbol *asm_find_symbol(asm_state *st, const char *name, size_t length)
{
    if (!st->hash_cap) return NULL;
    size_t slot = hash_name(name, length) & (st->hash_cap - 1);
    while (st->hash[slot]) {
        asm_symbol *sym = &st->symbols[st->hash[slot] - 1];
        if (sym->length == length && memcmp(sym->name, name, length) == 0) return sym;
        slot = (slot + 1) & (st->hash_cap - 1);
    }
    return NULL;
}

int asm_define_symbol(asm_state *st, const asm_token *name, int32_t value, int known,
                      int is_constant)
{
    asm_symbol *sym = asm_find_symbol(st, name->text, name->length);
    if (sym) {
        if (sym->pass == st->pass)
            return asm_error(st, name->column, "'%.*s' is already defined on line %u",
                             (int)name->length, name->text, (unsigned)sym->line);
        if (!is_constant && sym->known && sym->value != value)
            return asm_error(st, name->column, "internal error: label '%.*s' moved between passes",
                             (int)name->length, name->text);
        sym->pass = (uint8_t)st->pass;
        sym->value = value;
        sym->known = (uint8_t)known;
        return 0;
    }
    if (grow(st, (void **)&st->symbols, &st->symbol_cap, st->symbol_count + 1, sizeof *st->symbols) < 0)
        return -1;
    if ((st->symbol_count + 1) * 2 > st->hash_cap &&
        rehash(st, st->hash_cap ? st->hash_cap * 2 : 64) < 0)
        return -1;
    char *copy = malloc(name->length + 1);
    if (!copy) return no_memory(st);
    memcpy(copy, name->text, name->length);
    copy[name->length] = '\0';
    asm_symbol *s = &st->symbols[st->symbol_count];
    s->name = copy;
    s->length = name->length;
    s->value = value;
    s->line = st->line ? st->line->number : 0;
    s->known = (uint8_t)known;
    s->pass = (uint8_t)st->pass;
    s->is_constant = (uint8_t)is_constant;
    size_t slot = hash_name(copy, name->length) & (st->hash_cap - 1);
    while (st->hash[slot]) slot = (slot + 1) & (st->hash_cap - 1);
    st->hash[slot] = (uint32_t)++st->symbol_count;
    return 0;
}

/* --- Decisions and output ---------------------------------------------- */

int asm_record_decision(asm_state *st, uint8_t mode)
{
    if (grow(st, (void **)&st->decisions, &st->decision_cap, st->decision_count + 1, 1) < 0)
        return -1;
    st->decisions[st->decision_count++] = mode;
    return 0;
}

int asm_next_decision(asm_state *st)
{
    if (st->decision_index >= st->decision_count) return -1;
    return st->decisions[st->decision_index++];
}

int asm_set_origin(asm_state *st, int32_t value, uint32_t column)
{
    if (value < 0 || value > 0xFFFF)
        return asm_error(st, column, "origin %ld is outside $0000-$FFFF", (long)value);
    st->pc = (uint32_t)value;
    st->chunk_open = 0;
    return 0;
}

int asm_emit(asm_state *st, uint8_t byte, uint32_t column)
{
    if (st->pc > 0xFFFFu) return asm_error(st, column, "code runs past $FFFF");
    if (st->pass == 2) {
        if (!st->chunk_open) {
            if (grow(st, (void **)&st->chunks, &st->chunk_cap, st->chunk_count + 1,
                     sizeof *st->chunks) < 0)
                return -1;
            asm_chunk_rec *c = &st->chunks[st->chunk_count++];
            c->address = (uint16_t)st->pc;
            c->offset = st->byte_count;
            c->size = 0;
            st->chunk_open = 1;
        }
        if (grow(st, (void **)&st->bytes, &st->byte_cap, st->byte_count + 1, 1) < 0) return -1;
        st->bytes[st->byte_count++] = byte;
        st->chunks[st->chunk_count - 1].size++;
    }
    st->pc++;
    return 0;
}

/* --- Passes ------------------------------------------------------------ */

static int run_pass(asm_state *st, asm_line *line, const char *source, size_t length, int pass,
                    uint32_t origin)
{
    st->pass = pass;
    st->pc = origin;
    st->chunk_open = 0;
    st->decision_index = 0;
    size_t at = 0;
    uint32_t number = 0;
    while (at < length && source[at] != '\0') {
        size_t end = at;
        while (end < length && source[end] != '\n' && source[end] != '\0') end++;
        size_t line_length = end - at;
        if (line_length && source[at + line_length - 1] == '\r') line_length--;
        line->text = source + at;
        line->length = line_length;
        line->number = ++number;
        st->line = line;
        st->stmt_pc = st->pc;
        if (asm_lex_line(st, line) < 0 || asm_statement(st, line) < 0) return -1;
        at = end < length && source[end] == '\n' ? end + 1 : end;
    }
    return 0;
}

typedef struct asm_storage {
    uint8_t *bytes;
    mh_asm6502_chunk *chunks;
    mh_asm6502_symbol *symbols;
    char **names;
    size_t name_count;
} asm_storage;

static void free_state(asm_state *st)
{
    for (size_t i = 0; i < st->symbol_count; i++) free(st->symbols[i].name);
    free(st->symbols);
    free(st->hash);
    free(st->decisions);
    free(st->bytes);
    free(st->chunks);
}

/* Moves the output of a finished assembly into the result. */
static mh_status build_result(asm_state *st, mh_asm6502_result *result)
{
    asm_storage *storage = calloc(1, sizeof *storage);
    if (!storage) return MH_ERR_NO_MEMORY;
    result->storage = storage;
    storage->chunks = calloc(st->chunk_count ? st->chunk_count : 1, sizeof *storage->chunks);
    storage->symbols = calloc(st->symbol_count ? st->symbol_count : 1, sizeof *storage->symbols);
    storage->names = calloc(st->symbol_count ? st->symbol_count : 1, sizeof *storage->names);
    if (!storage->chunks || !storage->symbols || !storage->names) return MH_ERR_NO_MEMORY;
    storage->bytes = st->bytes;
    st->bytes = NULL;
    for (size_t i = 0; i < st->chunk_count; i++) {
        storage->chunks[i].address = st->chunks[i].address;
        storage->chunks[i].size = (uint32_t)st->chunks[i].size;
        storage->chunks[i].bytes = storage->bytes + st->chunks[i].offset;
    }
    for (size_t i = 0; i < st->symbol_count; i++) {
        storage->names[i] = st->symbols[i].name; /* ownership moves */
        st->symbols[i].name = NULL;
        storage->symbols[i].name = storage->names[i];
        storage->symbols[i].value = st->symbols[i].value;
        storage->symbols[i].line = st->symbols[i].line;
    }
    storage->name_count = st->symbol_count;
    result->chunks = storage->chunks;
    result->chunk_count = st->chunk_count;
    result->symbols = storage->symbols;
    result->symbol_count = st->symbol_count;
    result->byte_count = st->byte_count;
    return MH_OK;
}

mh_status mh_asm6502_assemble(const char *source, size_t length, const mh_asm6502_options *options,
                              mh_asm6502_result *result)
{
    if (!result) return MH_ERR_INVALID_ARGUMENT;
    memset(result, 0, sizeof *result);
    if (!source && length) return MH_ERR_INVALID_ARGUMENT;
    uint32_t origin = options ? options->origin : 0;
    if (origin > 0xFFFFu) {
        snprintf(result->error, sizeof result->error, "origin %lu is outside $0000-$FFFF",
                 (unsigned long)origin);
        return MH_ERR_INVALID_ARGUMENT;
    }

    asm_state st;
    memset(&st, 0, sizeof st);
    if (options) {
        st.resolve = options->resolve;
        st.resolve_user = options->resolve_user;
    }
    asm_line *line = malloc(sizeof *line);
    if (!line) return MH_ERR_NO_MEMORY;

    mh_status status = MH_OK;
    if (run_pass(&st, line, source ? source : "", length, 1, origin) < 0 ||
        run_pass(&st, line, source ? source : "", length, 2, origin) < 0) {
        status = st.out_of_memory ? MH_ERR_NO_MEMORY : MH_ERR_INVALID_ARGUMENT;
        result->error_line = st.error_line;
        result->error_column = st.error_column;
        memcpy(result->error, st.error, sizeof result->error);
    } else {
        status = build_result(&st, result);
    }
    free(line);
    free_state(&st);
    return status;
}

void mh_asm6502_result_free(mh_asm6502_result *result)
{
    if (!result) return;
    asm_storage *storage = result->storage;
    if (storage) {
        for (size_t i = 0; i < storage->name_count; i++) free(storage->names[i]);
        free(storage->names);
        free(storage->symbols);
        free(storage->chunks);
        free(storage->bytes);
        free(storage);
    }
    result->storage = NULL;
    result->chunks = NULL;
    result->symbols = NULL;
    result->chunk_count = result->symbol_count = result->byte_count = 0;
}

void mh_asm6502_to_image(const mh_asm6502_result *result, uint8_t *image, uint8_t *written)
{
    if (written) memset(written, 0, 8192);
    for (size_t i = 0; i < result->chunk_count; i++) {
        const mh_asm6502_chunk *c = &result->chunks[i];
        for (uint32_t j = 0; j < c->size; j++) {
            uint16_t addr = (uint16_t)(c->address + j);
            image[addr] = c->bytes[j];
            if (written) written[addr >> 3] = (uint8_t)(written[addr >> 3] | (1u << (addr & 7u)));
        }
    }
}

int mh_asm6502_line(const char *line, uint16_t pc, uint8_t *out, size_t out_size, char *error,
                    size_t error_size)
{
    mh_asm6502_options options;
    memset(&options, 0, sizeof options);
    options.origin = pc;
    mh_asm6502_result result;
    mh_status status = mh_asm6502_assemble(line, line ? strlen(line) : 0, &options, &result);
    int count = -1;
    if (status == MH_OK && result.byte_count > out_size) {
        snprintf(result.error, sizeof result.error,
                 "the line assembles to %zu bytes, more than the %zu that fit", result.byte_count,
                 out_size);
    } else if (status == MH_OK) {
        size_t n = 0;
        for (size_t i = 0; i < result.chunk_count; i++) {
            memcpy(out + n, result.chunks[i].bytes, result.chunks[i].size);
            n += result.chunks[i].size;
        }
        count = (int)n;
    } else if (!result.error[0]) {
        snprintf(result.error, sizeof result.error, "%s", mh_status_name(status));
    }
    if (count < 0 && error && error_size) snprintf(error, error_size, "%s", result.error);
    mh_asm6502_result_free(&result);
    return count;
}
