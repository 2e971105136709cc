/* mcphost/expr.h - the condition expression language of breakpoints and
 * watchpoints (static library mh_expr, link target mcphost::expr).
 *
 * Offers: mh_expr_compile() turns a text such as
 *     A == $10 && (X > 5 || !(P & %00000010)) && mem[$D012] >= 100
 * into a compiled program; mh_expr_eval() runs it against whatever the
 * caller's fetch callback returns for each name. The language:
 *   numbers    $C000, 0xC000, %1010 (binary), 49152 (decimal);
 *   names      letters, digits and _, not starting with a digit, case-
 *              insensitive; what a name means is the caller's: the
 *              resolve callback maps it to an id (and says whether it
 *              takes an index, written name[expr], e.g. mem[$D020]);
 *              a name it does not know may still be a constant, such as
 *              a program's label, through mh_expr_compile_with()'s
 *              constant callback (pc == fill_screen);
 *   operators  by C precedence, lowest first: || , && , | , ^ , & ,
 *              == != , < <= > >= , << >> , + - , * / % , and the unary
 *              ! ~ - ; parentheses. Comparisons and ! give 0 or 1.
 *   values     64-bit signed; division or remainder by zero gives 0;
 *              shifts use the count modulo 64 (>> sign-extends); + - *
 *              wrap around; a number is read as 64-bit two's complement
 *              ($FFFFFFFFFFFFFFFF is -1) and must fit in 64 bits. && and
 *              || do not evaluate (fetch) their right side when the left
 *              decides. After an operand, % is the remainder.
 * Limits: at most MH_EXPR_MAX_TEXT characters, MH_EXPR_MAX_DEPTH nested
 * parentheses/indexes/unary operators, MH_EXPR_MAX_NODES operands and
 * operators. Anything else is a compile error with the 0-based character
 * position where it went wrong and a message, e.g.
 *     "unknown name \"foo\" at position 5"
 *     "expected a number, a name or \"(\" at position 9, found \")\""
 *
 * Ownership: the caller owns the mh_expr from mh_expr_compile() and frees
 * it with mh_expr_free(). Nothing is global; compiled programs are
 * immutable, so one may be evaluated from several threads at once.
 * Evaluation does not allocate.
 */
#ifndef MCPHOST_EXPR_H
#define MCPHOST_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_EXPR_MAX_TEXT 1024
#define MH_EXPR_MAX_DEPTH 64
#define MH_EXPR_MAX_NODES 512

typedef struct mh_expr mh_expr;

/* Maps a name (not NUL-terminated: name[0..length-1], as written; compare
 * it case-insensitively) to the caller's id; called only while compiling.
 * Returns 1 and sets *id and *indexed (1: the name must be followed by
 * [index]; 0: it must not) when the name is known, 0 when not. */
typedef int (*mh_expr_resolve_fn)(void *user, const char *name, size_t length, int32_t *id,
                                  int *indexed);

/* The value of name `id` now (index: the evaluated [index], 0 for a plain
 * name). Must not fail; return 0 for what has no value. */
typedef int64_t (*mh_expr_fetch_fn)(void *user, int32_t id, int64_t index);

/* Maps a name the resolve callback did not know to a constant (a label's
 * address); called only while compiling. Returns 1 and sets *value when it
 * is one; 0 when not, and then may write why (why_size bytes) into the
 * "unknown name" message, e.g. the closest known names. */
typedef int (*mh_expr_constant_fn)(void *user, const char *name, size_t length, int64_t *value,
                                   char *why, size_t why_size);

/* Compiles text. On success returns MH_OK and *out; on failure
 * MH_ERR_INVALID_ARGUMENT (or MH_ERR_NO_MEMORY), *out NULL, *error_position
 * the 0-based position of the fault (may be NULL) and a message in error
 * that names the position. resolve may be NULL (every name unknown);
 * error may be NULL or short (the message is cut, always terminated).
 * Users' documentation: docs/expressions.md. */
mh_status mh_expr_compile(const char *text, mh_expr_resolve_fn resolve, void *resolve_user,
                          mh_expr **out, size_t *error_position, char *error,
                          size_t error_size);

/* mh_expr_compile() with a constant callback for the names resolve does
 * not know (constant may be NULL: then it is mh_expr_compile()). A constant
 * is compiled in as its value, so evaluation never asks for it. */
mh_status mh_expr_compile_with(const char *text, mh_expr_resolve_fn resolve, void *resolve_user,
                               mh_expr_constant_fn constant, void *constant_user, mh_expr **out,
                               size_t *error_position, char *error, size_t error_size);

/* Evaluates a compiled expression: no allocation, no recursion; a fixed
 * stack on the C stack. fetch NULL reads every name as 0; expr NULL gives 0. */
int64_t mh_expr_eval(const mh_expr *expr, mh_expr_fetch_fn fetch, void *fetch_user);

/* The text it was compiled from. */
const char *mh_expr_text(const mh_expr *expr);

void mh_expr_free(mh_expr *expr);

#ifdef __cplusplus
}
#endif
#endif
