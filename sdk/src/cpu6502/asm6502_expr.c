/* asm6502_expr.c - expressions: + - * / by precedence (a table), unary -
 * and +, < (low byte) and > (high byte) applying to everything after them,
 * parentheses, numbers, symbols and * (the statement's address). */
#include <stdint.h>

#include "asm6502_internal.h"

typedef struct binary_op {
    char op;
    int precedence;
} binary_op;

static const binary_op binary_ops[] = {{'+', 1}, {'-', 1}, {'*', 2}, {'/', 2}};

static const binary_op *find_binary(const asm_token *t)
{
    if (t->kind != T_PUNCT) return NULL;
    for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
        if (binary_ops[i].op == t->punct) return &binary_ops[i];
    return NULL;
}

static int is_punct(const asm_token *t, char c)
{
    return t->kind == T_PUNCT && t->punct == c;
}

static int set_result(asm_state *st, const asm_token *at, int64_t value, asm_value *out)
{
    if (value < INT32_MIN || value > INT32_MAX)
        return asm_error(st, at->column, "value out of range");
    out->value = (int32_t)value;
    return 0;
}

static int parse_symbol(asm_state *st, const asm_token *t, asm_value *out)
{
    out->wide = 0;
    asm_symbol *sym = asm_find_symbol(st, t->text, t->length);
    if (sym && sym->known) {
        out->value = sym->value;
        out->known = 1;
        return 0;
    }
    int32_t value = 0;
    if (st->resolve && st->resolve(st->resolve_user, t->text, t->length, &value)) {
        out->value = value;
        out->known = 1;
        return 0;
    }
    if (st->pass == 1) { /* a forward reference: known in pass 2 */
        out->value = 0;
        out->known = 0;
        return 0;
    }
    if (sym)
        return asm_error(st, t->column, "the value of '%.*s' is not known here", (int)t->length,
                         t->text);
    return asm_error(st, t->column, "undefined label '%.*s'", (int)t->length, t->text);
}

static int parse_binary(asm_state *st, const asm_line *line, int *pos, int min_precedence,
                        asm_value *out);

static int parse_unary(asm_state *st, const asm_line *line, int *pos, asm_value *out)
{
    const asm_token *t = &line->tokens[*pos];
    if (is_punct(t, '-') || is_punct(t, '+')) {
        (*pos)++;
        if (parse_unary(st, line, pos, out) < 0) return -1;
        if (t->punct == '-') return set_result(st, t, -(int64_t)out->value, out);
        return 0;
    }
    if (is_punct(t, '<') || is_punct(t, '>')) {
        (*pos)++;
        if (parse_binary(st, line, pos, 1, out) < 0) return -1;
        out->value = t->punct == '<' ? (out->value & 0xFF) : ((out->value >> 8) & 0xFF);
        out->wide = 0;
        return 0;
    }
    (*pos)++;
    switch (t->kind) {
    case T_NUMBER:
        out->value = t->value;
        out->known = 1;
        out->wide = t->wide;
        return 0;
    case T_IDENT:
        return parse_symbol(st, t, out);
    case T_PUNCT:
        if (t->punct == '*') {
            out->value = (int32_t)st->stmt_pc;
            out->known = 1;
            out->wide = 0;
            return 0;
        }
        if (t->punct == '(') {
            if (parse_binary(st, line, pos, 1, out) < 0) return -1;
            const asm_token *close = &line->tokens[*pos];
            if (!is_punct(close, ')')) return asm_error(st, close->column, "expected ')'");
            (*pos)++;
            return 0;
        }
        break;
    default:
        break;
    }
    if (t->kind == T_END) return asm_error(st, t->column, "expected a number or label");
    return asm_error(st, t->column, "expected a number or label, not '%.*s'", (int)t->length,
                     t->text);
}

static int parse_binary(asm_state *st, const asm_line *line, int *pos, int min_precedence,
                        asm_value *out)
{
    if (parse_unary(st, line, pos, out) < 0) return -1;
    for (;;) {
        const asm_token *t = &line->tokens[*pos];
        const binary_op *op = find_binary(t);
        if (!op || op->precedence < min_precedence) return 0;
        (*pos)++;
        asm_value rhs;
        if (parse_binary(st, line, pos, op->precedence + 1, &rhs) < 0) return -1;
        int64_t a = out->value, b = rhs.value, r = 0;
        switch (op->op) {
        case '+': r = a + b; break;
        case '-': r = a - b; break;
        case '*': r = a * b; break;
        default:
            if (b == 0) {
                if (rhs.known) return asm_error(st, t->column, "division by zero");
                r = 0;
            } else {
                r = a / b;
            }
            break;
        }
        out->known = (uint8_t)(out->known && rhs.known);
        out->wide = (uint8_t)(out->wide || rhs.wide);
        if (!out->known) r = 0;
        if (set_result(st, t, r, out) < 0) return -1;
    }
}

int asm_expr(asm_state *st, const asm_line *line, int *pos, asm_value *out)
{
    out->value = 0;
    out->known = 1;
    out->wide = 0;
    return parse_binary(st, line, pos, 1, out);
}
