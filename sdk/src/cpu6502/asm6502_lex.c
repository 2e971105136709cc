/* asm6502_lex.c - splits one source line into tokens: identifiers,
 * directives, numbers ($hex, 0xhex, %binary, decimal, 'c'), strings and
 * punctuation. A ';' starts a comment. */
#include <ctype.h>
#include <string.h>

#include "asm6502_internal.h"

#define MAX_LITERAL 0xFFFFu

static int is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static int digit_value(char c, int base)
{
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return -1;
    return d < base ? d : -1;
}

int asm_ident_equals(const asm_token *t, const char *word)
{
    size_t n = strlen(word);
    if ((t->kind != T_IDENT && t->kind != T_DIRECTIVE) || t->length != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != tolower((unsigned char)word[i])) return 0;
    return 1;
}

/* Reads digits in `base` from text[*i]; returns -1 after an error. */
static int read_digits(asm_state *st, const asm_line *line, size_t *i, int base, asm_token *t,
                       const char *what)
{
    uint32_t value = 0;
    size_t start = *i, digits = 0;
    while (*i < line->length && digit_value(line->text[*i], base) >= 0) {
        value = value * (uint32_t)base + (uint32_t)digit_value(line->text[*i], base);
        if (value > MAX_LITERAL)
            return asm_error(st, t->column, "number %.*s is larger than $FFFF",
                             (int)(*i + 1 - (t->column - 1)), t->text);
        (*i)++;
        digits++;
    }
    if (digits == 0) return asm_error(st, (uint32_t)start + 1, "expected %s", what);
    if (*i < line->length && is_ident_char(line->text[*i]))
        return asm_error(st, (uint32_t)*i + 1, "unexpected '%c' in a number", line->text[*i]);
    t->value = (int32_t)value;
    t->wide = (uint8_t)((base == 16 && digits > 2) || (base == 2 && digits > 8));
    return 0;
}

/* Skips a quoted literal starting at text[*i] (the quote); -1 on error. */
static int skip_quoted(asm_state *st, const asm_line *line, size_t *i, char quote)
{
    size_t start = *i;
    (*i)++;
    while (*i < line->length && line->text[*i] != quote) {
        if (line->text[*i] == '\\' && *i + 1 < line->length) (*i)++;
        (*i)++;
    }
    if (*i >= line->length)
        return asm_error(st, (uint32_t)start + 1, quote == '"' ? "unterminated string"
                                                               : "unterminated character constant");
    (*i)++;
    return 0;
}

static int escape_char(char c)
{
    switch (c) {
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '0': return 0;
    default: return (unsigned char)c;
    }
}

int asm_lex_line(asm_state *st, asm_line *line)
{
    size_t i = 0;
    line->count = 0;
    for (;;) {
        while (i < line->length && (line->text[i] == ' ' || line->text[i] == '\t')) i++;
        asm_token *t = &line->tokens[line->count];
        memset(t, 0, sizeof *t);
        t->column = (uint32_t)i + 1;
        t->text = line->text + i;
        if (i >= line->length || line->text[i] == ';') {
            t->kind = T_END;
            line->count++;
            return 0;
        }
        if (line->count == ASM_MAX_TOKENS - 1)
            return asm_error(st, t->column, "line has more than %d tokens", ASM_MAX_TOKENS - 1);
        char c = line->text[i];
        size_t start = i;
        if (is_ident_start(c)) {
            while (i < line->length && is_ident_char(line->text[i])) i++;
            t->kind = T_IDENT;
        } else if (c == '.' && i + 1 < line->length && is_ident_start(line->text[i + 1])) {
            i++;
            while (i < line->length && is_ident_char(line->text[i])) i++;
            t->kind = T_DIRECTIVE;
        } else if (c == '$') {
            i++;
            t->kind = T_NUMBER;
            if (read_digits(st, line, &i, 16, t, "hex digits after '$'") < 0) return -1;
        } else if (c == '%') {
            i++;
            t->kind = T_NUMBER;
            if (read_digits(st, line, &i, 2, t, "binary digits after '%'") < 0) return -1;
        } else if (c == '0' && i + 1 < line->length && (line->text[i + 1] == 'x' || line->text[i + 1] == 'X')) {
            i += 2;
            t->kind = T_NUMBER;
            if (read_digits(st, line, &i, 16, t, "hex digits after '0x'") < 0) return -1;
        } else if (isdigit((unsigned char)c)) {
            t->kind = T_NUMBER;
            if (read_digits(st, line, &i, 10, t, "a number") < 0) return -1;
        } else if (c == '\'') {
            if (skip_quoted(st, line, &i, '\'') < 0) return -1;
            size_t inner = i - start - 2;
            const char *p = line->text + start + 1;
            if (inner == 1 && p[0] != '\\') t->value = (unsigned char)p[0];
            else if (inner == 2 && p[0] == '\\') t->value = escape_char(p[1]);
            else return asm_error(st, t->column, "a character constant holds exactly one character");
            t->kind = T_NUMBER;
        } else if (c == '"') {
            if (skip_quoted(st, line, &i, '"') < 0) return -1;
            t->kind = T_STRING;
            t->text = line->text + start + 1;
            t->length = (uint32_t)(i - start - 2);
            line->count++;
            continue;
        } else if (strchr("#(),+-*/<>=:", c)) {
            i++;
            t->kind = T_PUNCT;
            t->punct = c;
        } else {
            return asm_error(st, t->column, "unexpected character '%c'", c);
        }
        t->length = (uint32_t)(i - start);
        line->count++;
    }
}

size_t asm_string_bytes(const asm_token *t, uint8_t *out, size_t out_size)
{
    size_t n = 0;
    for (uint32_t i = 0; i < t->length; i++) {
        int c = (unsigned char)t->text[i];
        if (c == '\\' && i + 1 < t->length) c = escape_char(t->text[++i]);
        if (n < out_size) out[n] = (uint8_t)c;
        n++;
    }
    return n;
}
