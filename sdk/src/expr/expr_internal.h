/* expr_internal.h - shared by the expression lexer, compiler and evaluator
 * (mh_expr, mcphost/expr.h). Not installed.
 *
 * A compiled expression is a flat program of instructions for a stack
 * machine (reverse Polish order plus two short-circuit jumps for && and ||);
 * the evaluator runs it with a fixed array on the C stack. Ownership: a
 * mh_expr is one allocation (program, then the source text). Thread: the
 * lexer and compiler work on caller-owned state only; programs are
 * immutable once built.
 */
#ifndef MH_EXPR_INTERNAL_H
#define MH_EXPR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/expr.h"

/* Instructions. Binary operators pop two values and push one; the _K forms
 * take their right operand from the instruction (a constant folded in by
 * the compiler) and so replace the top of the stack. */
typedef enum expr_op {
    EXPR_CONST,      /* push value */
    EXPR_FETCH,      /* push fetch(id, 0) */
    EXPR_FETCH_IDX,  /* top = fetch(id, top) */
    EXPR_NEG,
    EXPR_NOT,
    EXPR_BNOT,
    EXPR_BOOL,       /* top = top != 0 */
    EXPR_AND_JZ,     /* top == 0: keep 0, jump to target; else pop */
    EXPR_OR_JNZ,     /* top != 0: top = 1, jump to target; else pop */
    /* binary operators, in the same order as their _K forms below */
    EXPR_BOR,
    EXPR_XOR,
    EXPR_BAND,
    EXPR_EQ,
    EXPR_NE,
    EXPR_LT,
    EXPR_LE,
    EXPR_GT,
    EXPR_GE,
    EXPR_SHL,
    EXPR_SHR,
    EXPR_ADD,
    EXPR_SUB,
    EXPR_MUL,
    EXPR_DIV,
    EXPR_MOD,
    EXPR_BOR_K,
    EXPR_XOR_K,
    EXPR_BAND_K,
    EXPR_EQ_K,
    EXPR_NE_K,
    EXPR_LT_K,
    EXPR_LE_K,
    EXPR_GT_K,
    EXPR_GE_K,
    EXPR_SHL_K,
    EXPR_SHR_K,
    EXPR_ADD_K,
    EXPR_SUB_K,
    EXPR_MUL_K,
    EXPR_DIV_K,
    EXPR_MOD_K,
    /* pseudo operators of the compiler (never emitted) */
    EXPR_LOGOR,
    EXPR_LOGAND
} expr_op;

#define EXPR_K_OFFSET (EXPR_BOR_K - EXPR_BOR)

typedef struct expr_insn {
    int64_t value;  /* EXPR_CONST and _K forms */
    int32_t arg;    /* name id for FETCH*, target index for jumps */
    uint8_t op;     /* expr_op */
} expr_insn;

struct mh_expr {
    uint32_t count;      /* instructions in code[] */
    uint32_t max_stack;  /* deepest stack the program reaches */
    const char *text;    /* the source, stored after code[] */
    expr_insn code[];
};

/* Stack values never exceed the number of operands, so this bounds every
 * program; the evaluator's array has this size. */
#define EXPR_STACK_MAX MH_EXPR_MAX_NODES

/* One binary operator (EXPR_BOR..EXPR_MOD) on two values, with the
 * language's rules: wrap-around arithmetic, x/0 = x%0 = 0, shift counts
 * modulo 64, >> sign-extending, comparisons 0 or 1. The compiler folds
 * constants with it. */
int64_t expr_apply(int op, int64_t a, int64_t b);

/* The first error of a compile: position and message. */
typedef struct expr_diag {
    size_t position;
    int set;
    char message[256];
} expr_diag;

/* Records the first error only; the message must contain the position. */
void expr_fail(expr_diag *diag, size_t position, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Lexer. */
typedef enum expr_token_kind {
    TOK_END,
    TOK_NUMBER,
    TOK_NAME,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_LBRACKET,
    TOK_RBRACKET,
    TOK_OP,   /* an operator: op is its binary expr_op (or EXPR_LOGOR/LOGAND);
                 unary is set for ! ~ - */
    TOK_ERROR /* the lexer wrote diag */
} expr_token_kind;

typedef struct expr_token {
    expr_token_kind kind;
    size_t start;
    size_t length;
    int64_t value;  /* TOK_NUMBER */
    int op;         /* TOK_OP: binary operator, -1 when it has no binary form (!, ~) */
    int unary;      /* TOK_OP: EXPR_NEG/NOT/BNOT when it can be unary, else -1 */
    int precedence; /* TOK_OP with a binary form: 1 (||) .. 10 (* / %) */
} expr_token;

typedef struct expr_lexer {
    const char *text;
    size_t length;
    size_t pos;
    expr_diag *diag;
} expr_lexer;

/* Reads the next token. operand: the parser expects an operand here, which
 * makes '%' followed by 0 or 1 a binary number instead of the remainder. */
void expr_lex_next(expr_lexer *lexer, int operand, expr_token *token);

/* Writes a short quoted description of a token ("end of text" or the
 * token's text in quotes, cut when long) into buf. */
void expr_token_describe(const expr_lexer *lexer, const expr_token *token, char *buf,
                         size_t size);

#endif
