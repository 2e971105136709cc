/* expr_lex.c - the tokenizer of the condition expression language: numbers
 * ($hex, 0xhex, %binary, decimal), names, operators, brackets; and the
 * error recorder shared by the compiler. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "expr_internal.h"

void expr_fail(expr_diag *diag, size_t position, const char *format, ...)
{
    if (diag->set)
        return;
    diag->set = 1;
    diag->position = position;
    va_list ap;
    va_start(ap, format);
    vsnprintf(diag->message, sizeof diag->message, format, ap);
    va_end(ap);
}

/* Operators, longest spelling first so "<<" wins over "<". */
typedef struct op_spelling {
    const char *text;
    int op;
    int unary;
    int precedence;
} op_spelling;

static const op_spelling op_table[] = {
    {"||", EXPR_LOGOR, -1, 1},  {"&&", EXPR_LOGAND, -1, 2}, {"==", EXPR_EQ, -1, 6},
    {"!=", EXPR_NE, -1, 6},     {"<=", EXPR_LE, -1, 7},     {">=", EXPR_GE, -1, 7},
    {"<<", EXPR_SHL, -1, 8},    {">>", EXPR_SHR, -1, 8},    {"|", EXPR_BOR, -1, 3},
    {"^", EXPR_XOR, -1, 4},     {"&", EXPR_BAND, -1, 5},    {"<", EXPR_LT, -1, 7},
    {">", EXPR_GT, -1, 7},      {"+", EXPR_ADD, -1, 9},     {"-", EXPR_SUB, EXPR_NEG, 9},
    {"*", EXPR_MUL, -1, 10},    {"/", EXPR_DIV, -1, 10},    {"%", EXPR_MOD, -1, 10},
    {"!", -1, EXPR_NOT, 0},     {"~", -1, EXPR_BNOT, 0},
};

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int digit_value(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char peek(const expr_lexer *lx, size_t at)
{
    return at < lx->length ? lx->text[at] : '\0';
}

static void lex_error(expr_lexer *lx, expr_token *t)
{
    t->kind = TOK_ERROR;
    t->length = lx->pos > t->start ? lx->pos - t->start : 0;
}

/* Reads digits of one base starting at lx->pos (the prefix already
 * skipped); name is the form for messages ("hex", "binary", "decimal"). */
static void lex_digits(expr_lexer *lx, expr_token *t, unsigned base, const char *prefix,
                       const char *name)
{
    uint64_t v = 0;
    size_t first = lx->pos;
    int overflow = 0;
    while (lx->pos < lx->length) {
        char c = lx->text[lx->pos];
        int d = digit_value(c);
        if (d >= (int)base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = 1;
        v = v * base + (uint64_t)d;
        lx->pos++;
    }
    if (lx->pos == first) {
        expr_fail(lx->diag, lx->pos, "expected %s digits after \"%s\" at position %zu", name,
                  prefix, lx->pos);
        lex_error(lx, t);
        return;
    }
    char c = peek(lx, lx->pos);
    if (is_alpha(c) || is_digit(c)) {
        if (base == 10 && lx->pos - first == 1 && lx->text[first] == '0' && (c == 'b' || c == 'B'))
            expr_fail(lx->diag, lx->pos,
                      "invalid digit \"%c\" in number at position %zu; write binary as %%101",
                      c, lx->pos);
        else
            expr_fail(lx->diag, lx->pos, "invalid %s digit \"%c\" in number at position %zu",
                      name, c, lx->pos);
        lex_error(lx, t);
        return;
    }
    if (overflow) {
        int shown = (int)(lx->pos - t->start > 40 ? 40 : lx->pos - t->start);
        expr_fail(lx->diag, t->start,
                  "number \"%.*s%s\" at position %zu does not fit in 64 bits", shown,
                  lx->text + t->start, lx->pos - t->start > 40 ? "..." : "", t->start);
        lex_error(lx, t);
        return;
    }
    t->kind = TOK_NUMBER;
    /* Two's complement: $FFFFFFFFFFFFFFFF is -1. */
    t->value = (int64_t)v;
    t->length = lx->pos - t->start;
}

static void lex_number(expr_lexer *lx, expr_token *t)
{
    char c = lx->text[lx->pos];
    if (c == '$') {
        lx->pos++;
        lex_digits(lx, t, 16, "$", "hex");
    } else if (c == '%') {
        lx->pos++;
        lex_digits(lx, t, 2, "%", "binary");
    } else if (c == '0' && (peek(lx, lx->pos + 1) == 'x' || peek(lx, lx->pos + 1) == 'X')) {
        lx->pos += 2;
        lex_digits(lx, t, 16, "0x", "hex");
    } else {
        lex_digits(lx, t, 10, "", "decimal");
    }
}

static void lex_operator(expr_lexer *lx, expr_token *t)
{
    const char *s = lx->text + lx->pos;
    size_t left = lx->length - lx->pos;
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++) {
        size_t n = strlen(op_table[i].text);
        if (n <= left && memcmp(s, op_table[i].text, n) == 0) {
            t->kind = TOK_OP;
            t->op = op_table[i].op;
            t->unary = op_table[i].unary;
            t->precedence = op_table[i].precedence;
            t->length = n;
            lx->pos += n;
            return;
        }
    }
    unsigned char c = (unsigned char)*s;
    if (c == '=')
        expr_fail(lx->diag, lx->pos,
                  "\"=\" at position %zu is not an operator; write \"==\" to compare", lx->pos);
    else if (c >= 0x80)
        expr_fail(lx->diag, lx->pos,
                  "unexpected byte 0x%02X at position %zu; only ASCII text is allowed", c,
                  lx->pos);
    else if (c < 0x20 || c == 0x7F)
        expr_fail(lx->diag, lx->pos, "unexpected control character 0x%02X at position %zu", c,
                  lx->pos);
    else
        expr_fail(lx->diag, lx->pos, "unexpected character \"%c\" at position %zu", (char)c,
                  lx->pos);
    lex_error(lx, t);
}

void expr_lex_next(expr_lexer *lx, int operand, expr_token *t)
{
    while (lx->pos < lx->length && is_space(lx->text[lx->pos]))
        lx->pos++;
    memset(t, 0, sizeof *t);
    t->start = lx->pos;
    t->op = -1;
    t->unary = -1;
    if (lx->pos >= lx->length) {
        t->kind = TOK_END;
        return;
    }
    char c = lx->text[lx->pos];
    static const struct {
        char c;
        expr_token_kind kind;
    } single[] = {{'(', TOK_LPAREN}, {')', TOK_RPAREN}, {'[', TOK_LBRACKET}, {']', TOK_RBRACKET}};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++) {
        if (c == single[i].c) {
            t->kind = single[i].kind;
            t->length = 1;
            lx->pos++;
            return;
        }
    }
    if (is_alpha(c)) {
        while (lx->pos < lx->length &&
               (is_alpha(lx->text[lx->pos]) || is_digit(lx->text[lx->pos])))
            lx->pos++;
        t->kind = TOK_NAME;
        t->length = lx->pos - t->start;
        return;
    }
    if (is_digit(c) || c == '$' || (c == '%' && operand)) {
        lex_number(lx, t);
        return;
    }
    lex_operator(lx, t);
}

void expr_token_describe(const expr_lexer *lx, const expr_token *t, char *buf, size_t size)
{
    if (t->kind == TOK_END) {
        snprintf(buf, size, "end of text");
        return;
    }
    size_t n = t->length ? t->length : 1;
    if (t->start + n > lx->length)
        n = lx->length - t->start;
    int cut = n > 24;
    snprintf(buf, size, "\"%.*s%s\"", (int)(cut ? 24 : n), lx->text + t->start, cut ? "..." : "");
}
