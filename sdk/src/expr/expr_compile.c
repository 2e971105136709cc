/* expr_compile.c - mh_expr_compile(): a precedence-climbing parser that
 * emits the flat stack program of expr_internal.h directly, checks the
 * limits (text length, nesting depth, node count) and reports the first
 * error with its position. Constants are folded where no jump lands
 * between them, and a binary operator whose right operand is a constant
 * becomes one _K instruction. */
#include <stdlib.h>
#include <string.h>
#include "expr_internal.h"

/* Worst case: every node an operator or operand (1 instruction each), every
 * && / || one more jump and one BOOL. */
#define CODE_CAPACITY (3 * MH_EXPR_MAX_NODES + 4)

typedef struct compiler {
    expr_lexer lx;
    expr_diag diag;
    expr_token tok;
    mh_expr_resolve_fn resolve;
    void *resolve_user;
    mh_expr_constant_fn constant;
    void *constant_user;
    expr_insn *code;
    uint32_t count;
    uint32_t barrier; /* no folding across a jump target before this index */
    uint32_t depth;   /* stack depth after the code so far */
    uint32_t max_stack;
    unsigned nesting;
    unsigned nodes;
} compiler;

static int failed(const compiler *c)
{
    return c->diag.set;
}

static void next(compiler *c, int operand)
{
    expr_lex_next(&c->lx, operand, &c->tok);
}

static int count_node(compiler *c, size_t position)
{
    if (++c->nodes > MH_EXPR_MAX_NODES) {
        expr_fail(&c->diag, position,
                  "too many operands and operators at position %zu (at most %d)", position,
                  MH_EXPR_MAX_NODES);
        return -1;
    }
    return 0;
}

static int enter(compiler *c, size_t position)
{
    if (++c->nesting > MH_EXPR_MAX_DEPTH) {
        expr_fail(&c->diag, position,
                  "nesting too deep at position %zu (at most %d parentheses, indexes and unary "
                  "operators inside each other)",
                  position, MH_EXPR_MAX_DEPTH);
        return -1;
    }
    return 0;
}

static void emit(compiler *c, int op, int32_t arg, int64_t value, int stack_change)
{
    expr_insn *in = &c->code[c->count++];
    in->op = (uint8_t)op;
    in->arg = arg;
    in->value = value;
    c->depth = (uint32_t)((int)c->depth + stack_change);
    if (c->depth > c->max_stack)
        c->max_stack = c->depth;
}

/* The last instruction if it is a constant no jump lands after, else NULL. */
static expr_insn *last_const(compiler *c, uint32_t back)
{
    if (c->count < back || c->count - back < c->barrier)
        return NULL;
    expr_insn *in = &c->code[c->count - back];
    return in->op == EXPR_CONST ? in : NULL;
}

static void emit_unary(compiler *c, int op)
{
    expr_insn *k = last_const(c, 1);
    if (k) {
        k->value = op == EXPR_NEG    ? (int64_t)(0 - (uint64_t)k->value)
                   : op == EXPR_NOT  ? (int64_t)(k->value == 0)
                   : op == EXPR_BOOL ? (int64_t)(k->value != 0)
                                     : ~k->value;
        return;
    }
    emit(c, op, 0, 0, 0);
}

static void emit_binary(compiler *c, int op)
{
    expr_insn *b = last_const(c, 1);
    expr_insn *a = last_const(c, 2);
    if (a && b) {
        a->value = expr_apply(op, a->value, b->value);
        c->count--;
        c->depth--;
        return;
    }
    if (b) {
        b->op = (uint8_t)(op + EXPR_K_OFFSET);
        c->depth--;
        return;
    }
    emit(c, op, 0, 0, -1);
}

static int parse_binary(compiler *c, int min_precedence);

static int expect_close(compiler *c, expr_token_kind kind, const char *close, size_t open_at,
                        const char *open)
{
    if (c->tok.kind == kind)
        return 0;
    if (c->tok.kind != TOK_ERROR) {
        char found[64];
        expr_token_describe(&c->lx, &c->tok, found, sizeof found);
        expr_fail(&c->diag, c->tok.start,
                  "expected an operator or \"%s\" at position %zu (to close \"%s\" at position "
                  "%zu), found %s",
                  close, c->tok.start, open, open_at, found);
    }
    return -1;
}

static int parse_name(compiler *c)
{
    expr_token name = c->tok;
    const char *s = c->lx.text + name.start;
    int shown = (int)(name.length > 32 ? 32 : name.length);
    const char *cut = name.length > 32 ? "..." : "";
    int32_t id = 0;
    int indexed = 0;
    if (!c->resolve || !c->resolve(c->resolve_user, s, name.length, &id, &indexed)) {
        /* Not one of the caller's names: maybe a constant (a label). */
        int64_t value = 0;
        char why[160] = "";
        if (c->constant && c->constant(c->constant_user, s, name.length, &value, why, sizeof why)) {
            emit(c, EXPR_CONST, 0, value, 1);
            next(c, 0);
            return 0;
        }
        expr_fail(&c->diag, name.start, "unknown name \"%.*s%s\" at position %zu%s%s", shown, s,
                  cut, name.start, why[0] ? ": " : "", why);
        return -1;
    }
    next(c, 0);
    if (!indexed) {
        if (c->tok.kind == TOK_LBRACKET) {
            expr_fail(&c->diag, c->tok.start,
                      "\"%.*s%s\" takes no index, but \"[\" follows at position %zu", shown, s,
                      cut, c->tok.start);
            return -1;
        }
        emit(c, EXPR_FETCH, id, 0, 1);
        return 0;
    }
    if (c->tok.kind != TOK_LBRACKET) {
        expr_fail(&c->diag, c->tok.start,
                  "\"%.*s%s\" needs an index in brackets, e.g. %.*s%s[$D020], at position %zu",
                  shown, s, cut, shown, s, cut, c->tok.start);
        return -1;
    }
    size_t open_at = c->tok.start;
    if (enter(c, open_at) < 0)
        return -1;
    next(c, 1);
    if (parse_binary(c, 1) < 0 || expect_close(c, TOK_RBRACKET, "]", open_at, "[") < 0)
        return -1;
    c->nesting--;
    emit(c, EXPR_FETCH_IDX, id, 0, 0);
    next(c, 0);
    return 0;
}

static int parse_operand(compiler *c)
{
    expr_token t = c->tok;
    if (t.kind == TOK_ERROR)
        return -1;
    if (t.kind == TOK_OP && t.unary >= 0) {
        if (count_node(c, t.start) < 0 || enter(c, t.start) < 0)
            return -1;
        next(c, 1);
        if (parse_operand(c) < 0)
            return -1;
        c->nesting--;
        emit_unary(c, t.unary);
        return 0;
    }
    if (t.kind == TOK_NUMBER) {
        if (count_node(c, t.start) < 0)
            return -1;
        emit(c, EXPR_CONST, 0, t.value, 1);
        next(c, 0);
        return 0;
    }
    if (t.kind == TOK_NAME) {
        if (count_node(c, t.start) < 0)
            return -1;
        return parse_name(c);
    }
    if (t.kind == TOK_LPAREN) {
        if (enter(c, t.start) < 0)
            return -1;
        next(c, 1);
        if (parse_binary(c, 1) < 0 || expect_close(c, TOK_RPAREN, ")", t.start, "(") < 0)
            return -1;
        c->nesting--;
        next(c, 0);
        return 0;
    }
    char found[64];
    expr_token_describe(&c->lx, &t, found, sizeof found);
    expr_fail(&c->diag, t.start, "expected a number, a name or \"(\" at position %zu, found %s",
              t.start, found);
    return -1;
}

static void patch_jump(compiler *c, uint32_t at)
{
    c->code[at].arg = (int32_t)c->count;
    c->barrier = c->count;
}

static int parse_binary(compiler *c, int min_precedence)
{
    if (parse_operand(c) < 0)
        return -1;
    while (c->tok.kind == TOK_OP && c->tok.op >= 0 && c->tok.precedence >= min_precedence) {
        expr_token t = c->tok;
        if (count_node(c, t.start) < 0)
            return -1;
        next(c, 1);
        if (t.op == EXPR_LOGAND || t.op == EXPR_LOGOR) {
            uint32_t jump = c->count;
            emit(c, t.op == EXPR_LOGAND ? EXPR_AND_JZ : EXPR_OR_JNZ, 0, 0, -1);
            if (parse_binary(c, t.precedence + 1) < 0)
                return -1;
            emit_unary(c, EXPR_BOOL);
            patch_jump(c, jump);
            continue;
        }
        if (parse_binary(c, t.precedence + 1) < 0)
            return -1;
        emit_binary(c, t.op);
    }
    return 0;
}

static size_t text_length(const char *text)
{
    size_t n = 0;
    while (n <= MH_EXPR_MAX_TEXT && text[n])
        n++;
    return n;
}

static mh_status finish_error(compiler *c, size_t *error_position, char *error, size_t size)
{
    if (error_position)
        *error_position = c->diag.position;
    if (error && size) {
        size_t n = strlen(c->diag.message);
        if (n >= size)
            n = size - 1;
        memcpy(error, c->diag.message, n);
        error[n] = '\0';
    }
    return MH_ERR_INVALID_ARGUMENT;
}

static mh_status out_of_memory(compiler *c, size_t *error_position, char *error, size_t size)
{
    expr_fail(&c->diag, 0, "out of memory while compiling (at position 0)");
    finish_error(c, error_position, error, size);
    return MH_ERR_NO_MEMORY;
}

static mh_expr *build(const compiler *c, const char *text, size_t length)
{
    size_t code_bytes = sizeof(expr_insn) * c->count;
    mh_expr *e = malloc(sizeof *e + code_bytes + length + 1);
    if (!e)
        return NULL;
    e->count = c->count;
    e->max_stack = c->max_stack;
    memcpy(e->code, c->code, code_bytes);
    char *copy = (char *)e->code + code_bytes;
    memcpy(copy, text, length);
    copy[length] = '\0';
    e->text = copy;
    return e;
}

mh_status mh_expr_compile(const char *text, mh_expr_resolve_fn resolve, void *resolve_user,
                          mh_expr **out, size_t *error_position, char *error,
                          size_t error_size)
{
    return mh_expr_compile_with(text, resolve, resolve_user, NULL, NULL, out, error_position,
                                error, error_size);
}

mh_status mh_expr_compile_with(const char *text, mh_expr_resolve_fn resolve, void *resolve_user,
                               mh_expr_constant_fn constant, void *constant_user, mh_expr **out,
                               size_t *error_position, char *error, size_t error_size)
{
    compiler c;
    memset(&c, 0, sizeof c);
    if (out)
        *out = NULL;
    if (!text || !out) {
        expr_fail(&c.diag, 0, "no expression text at position 0");
        return finish_error(&c, error_position, error, error_size);
    }
    size_t length = text_length(text);
    if (length > MH_EXPR_MAX_TEXT) {
        expr_fail(&c.diag, MH_EXPR_MAX_TEXT,
                  "expression too long: more than %d characters at position %d",
                  MH_EXPR_MAX_TEXT, MH_EXPR_MAX_TEXT);
        return finish_error(&c, error_position, error, error_size);
    }
    c.lx.text = text;
    c.lx.length = length;
    c.lx.diag = &c.diag;
    c.resolve = resolve;
    c.resolve_user = resolve_user;
    c.constant = constant;
    c.constant_user = constant_user;
    next(&c, 1);
    if (c.tok.kind == TOK_END) {
        expr_fail(&c.diag, c.tok.start,
                  "empty expression: expected a number, a name or \"(\" at position %zu",
                  c.tok.start);
        return finish_error(&c, error_position, error, error_size);
    }
    c.code = malloc(sizeof(expr_insn) * CODE_CAPACITY);
    if (!c.code)
        return out_of_memory(&c, error_position, error, error_size);
    if (parse_binary(&c, 1) == 0 && c.tok.kind != TOK_END && c.tok.kind != TOK_ERROR) {
        char found[64];
        expr_token_describe(&c.lx, &c.tok, found, sizeof found);
        if (c.tok.kind == TOK_RPAREN || c.tok.kind == TOK_RBRACKET)
            expr_fail(&c.diag, c.tok.start, "unbalanced %s at position %zu: nothing is open",
                      found, c.tok.start);
        else
            expr_fail(&c.diag, c.tok.start,
                      "expected an operator or end of text at position %zu, found %s",
                      c.tok.start, found);
    }
    if (failed(&c)) {
        free(c.code);
        return finish_error(&c, error_position, error, error_size);
    }
    *out = build(&c, text, length);
    free(c.code);
    if (!*out)
        return out_of_memory(&c, error_position, error, error_size);
    return MH_OK;
}
