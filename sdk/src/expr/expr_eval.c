/* expr_eval.c - mh_expr_eval(): runs a compiled program on a fixed-size
 * stack on the C stack (no allocation); plus mh_expr_text/mh_expr_free and
 * the operator semantics shared with the compiler's constant folding. */
#include <stdlib.h>
#include "expr_internal.h"

static inline int64_t shift_right(int64_t a, int64_t count)
{
    unsigned n = (unsigned)((uint64_t)count & 63u);
    /* Sign-extending, without relying on implementation-defined >>. */
    return a < 0 ? ~(int64_t)(~(uint64_t)a >> n) : (int64_t)((uint64_t)a >> n);
}

static inline int64_t apply(int op, int64_t a, int64_t b)
{
    switch (op) {
    case EXPR_BOR: return a | b;
    case EXPR_XOR: return a ^ b;
    case EXPR_BAND: return a & b;
    case EXPR_EQ: return a == b;
    case EXPR_NE: return a != b;
    case EXPR_LT: return a < b;
    case EXPR_LE: return a <= b;
    case EXPR_GT: return a > b;
    case EXPR_GE: return a >= b;
    case EXPR_SHL: return (int64_t)((uint64_t)a << ((uint64_t)b & 63u));
    case EXPR_SHR: return shift_right(a, b);
    case EXPR_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case EXPR_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case EXPR_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case EXPR_DIV:
        if (b == 0)
            return 0;
        if (b == -1) /* INT64_MIN / -1 wraps to INT64_MIN */
            return (int64_t)(0 - (uint64_t)a);
        return a / b;
    case EXPR_MOD:
        if (b == 0 || b == -1)
            return 0;
        return a % b;
    default: return 0;
    }
}

int64_t expr_apply(int op, int64_t a, int64_t b)
{
    return apply(op, a, b);
}

static int64_t fetch_nothing(void *user, int32_t id, int64_t index)
{
    (void)user;
    (void)id;
    (void)index;
    return 0;
}

int64_t mh_expr_eval(const mh_expr *expr, mh_expr_fetch_fn fetch, void *fetch_user)
{
    if (!expr)
        return 0;
    if (!fetch)
        fetch = fetch_nothing;
    int64_t stack[EXPR_STACK_MAX + 1];
    int64_t *sp = stack; /* next free slot */
    const expr_insn *code = expr->code;
    uint32_t count = expr->count;
    for (uint32_t pc = 0; pc < count; pc++) {
        const expr_insn *in = &code[pc];
        switch (in->op) {
        case EXPR_CONST: *sp++ = in->value; break;
        case EXPR_FETCH: *sp++ = fetch(fetch_user, in->arg, 0); break;
        case EXPR_FETCH_IDX: sp[-1] = fetch(fetch_user, in->arg, sp[-1]); break;
        case EXPR_NEG: sp[-1] = (int64_t)(0 - (uint64_t)sp[-1]); break;
        case EXPR_NOT: sp[-1] = sp[-1] == 0; break;
        case EXPR_BNOT: sp[-1] = ~sp[-1]; break;
        case EXPR_BOOL: sp[-1] = sp[-1] != 0; break;
        case EXPR_AND_JZ:
            if (sp[-1] == 0)
                pc = (uint32_t)in->arg - 1;
            else
                sp--;
            break;
        case EXPR_OR_JNZ:
            if (sp[-1] != 0) {
                sp[-1] = 1;
                pc = (uint32_t)in->arg - 1;
            } else {
                sp--;
            }
            break;
        case EXPR_EQ_K: sp[-1] = sp[-1] == in->value; break;
        case EXPR_NE_K: sp[-1] = sp[-1] != in->value; break;
        case EXPR_BAND_K: sp[-1] = sp[-1] & in->value; break;
        default:
            if (in->op >= EXPR_BOR_K) {
                sp[-1] = apply(in->op - EXPR_K_OFFSET, sp[-1], in->value);
            } else {
                sp--;
                sp[-1] = apply(in->op, sp[-1], sp[0]);
            }
            break;
        }
    }
    return sp > stack ? sp[-1] : 0;
}

const char *mh_expr_text(const mh_expr *expr)
{
    return expr ? expr->text : NULL;
}

void mh_expr_free(mh_expr *expr)
{
    free(expr);
}
