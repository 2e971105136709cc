/* asm6502_parse.c - one statement: labels and constants, directives (a
 * table), instructions: operand syntax -> form -> addressing mode (zero
 * page or absolute decided in pass 1 and kept in pass 2) -> bytes. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "asm6502_internal.h"
#include "mcphost/disasm6502.h"

static int is_punct(const asm_token *t, char c)
{
    return t->kind == T_PUNCT && t->punct == c;
}

static int unexpected(asm_state *st, const asm_token *t, const char *after)
{
    return asm_error(st, t->column, "unexpected '%.*s' after %s", (int)t->length, t->text, after);
}

/* --- Mnemonics ------------------------------------------------------- */

typedef struct mnemonic_alias {
    const char *name;
    mh_mn6502 mn;
} mnemonic_alias;

static const mnemonic_alias aliases[] = {
    {"ISB", MH_MN6502_ISC}, {"INS", MH_MN6502_ISC}, {"DCM", MH_MN6502_DCP},
    {"ASR", MH_MN6502_ALR}, {"AXS", MH_MN6502_SBX}, {"XAA", MH_MN6502_ANE},
    {"LAR", MH_MN6502_LAS}, {"SHS", MH_MN6502_TAS}, {"AHX", MH_MN6502_SHA},
    {"AXA", MH_MN6502_SHA}, {"KIL", MH_MN6502_JAM}, {"HLT", MH_MN6502_JAM},
    {"ASO", MH_MN6502_SLO}, {"LSE", MH_MN6502_SRE}, {"SXA", MH_MN6502_SHX},
    {"SYA", MH_MN6502_SHY}, {"ATX", MH_MN6502_LXA},
};

/* Returns the mnemonic of an identifier token, or -1. */
static int find_mnemonic(const asm_token *t)
{
    if (t->kind != T_IDENT || t->length != 3) return -1;
    for (int mn = 0; mn < MH_MN6502_COUNT; mn++)
        if (asm_ident_equals(t, mh_mn6502_name((mh_mn6502)mn))) return mn;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (asm_ident_equals(t, aliases[i].name)) return (int)aliases[i].mn;
    return -1;
}

static const char *const mode_names[MH_AM6502_COUNT] = {
    "implied", "accumulator", "immediate", "zero page", "zero page,X", "zero page,Y",
    "absolute", "absolute,X", "absolute,Y", "(indirect)", "(zero page,X)", "(zero page),Y",
    "relative",
};

static int has_mode(int mn, mh_am6502 mode)
{
    return mh_op6502_find((mh_mn6502)mn, mode) >= 0;
}

/* --- Operands -------------------------------------------------------- */

typedef enum asm_form {
    F_NONE, F_ACC, F_IMM, F_ADDR, F_ADDR_X, F_ADDR_Y, F_IND, F_IZX, F_IZY
} asm_form;

/* Token at *pos must be the register `reg` (X or Y). */
static int expect_register(asm_state *st, const asm_line *line, int *pos, const char *reg,
                           const char *context)
{
    const asm_token *t = &line->tokens[*pos];
    if (!asm_ident_equals(t, reg))
        return asm_error(st, t->column, "expected %s %s", reg, context);
    (*pos)++;
    return 0;
}

static int parse_operand(asm_state *st, const asm_line *line, int *pos, int mn, asm_form *form,
                         asm_value *value, uint32_t *value_column, uint32_t *form_column)
{
    const asm_token *t = &line->tokens[*pos];
    *form_column = t->column;
    value->value = 0;
    value->known = 1;
    value->wide = 0;
    *value_column = t->column;
    if (t->kind == T_END) {
        *form = F_NONE;
        return 0;
    }
    if (asm_ident_equals(t, "A") && line->tokens[*pos + 1].kind == T_END &&
        has_mode(mn, MH_AM6502_ACC)) {
        (*pos)++;
        *form = F_ACC;
        return 0;
    }
    if (is_punct(t, '#')) {
        (*pos)++;
        *value_column = line->tokens[*pos].column;
        *form = F_IMM;
        return asm_expr(st, line, pos, value);
    }
    if (is_punct(t, '(')) {
        int start = *pos;
        (*pos)++;
        *value_column = line->tokens[*pos].column;
        if (asm_expr(st, line, pos, value) < 0) return -1;
        const asm_token *next = &line->tokens[*pos];
        if (is_punct(next, ',')) {
            (*pos)++;
            if (expect_register(st, line, pos, "X", "after ',' in (zp,X)") < 0) return -1;
            if (!is_punct(&line->tokens[*pos], ')'))
                return asm_error(st, line->tokens[*pos].column, "expected ')' after ',X'");
            (*pos)++;
            *form = F_IZX;
            return 0;
        }
        if (is_punct(next, ')')) {
            (*pos)++;
            const asm_token *after = &line->tokens[*pos];
            if (is_punct(after, ',')) {
                (*pos)++;
                if (expect_register(st, line, pos, "Y", "after '),' in (zp),Y") < 0) return -1;
                *form = F_IZY;
                return 0;
            }
            if (after->kind == T_END && has_mode(mn, MH_AM6502_IND)) {
                *form = F_IND;
                return 0;
            }
        }
        *pos = start; /* a parenthesised expression, e.g. (base+1)*2 */
        *value_column = t->column;
    }
    if (asm_expr(st, line, pos, value) < 0) return -1;
    if (is_punct(&line->tokens[*pos], ',')) {
        (*pos)++;
        const asm_token *reg = &line->tokens[*pos];
        if (asm_ident_equals(reg, "X")) *form = F_ADDR_X;
        else if (asm_ident_equals(reg, "Y")) *form = F_ADDR_Y;
        else return asm_error(st, reg->column, "expected X or Y after ','");
        (*pos)++;
        return 0;
    }
    *form = F_ADDR;
    return 0;
}

/* Zero page or absolute: decided in pass 1, replayed in pass 2. */
static int choose_size(asm_state *st, int mn, mh_am6502 zp, mh_am6502 abs, const asm_value *v,
                       uint32_t column, const asm_token *mn_tok, mh_am6502 *mode)
{
    int has_zp = has_mode(mn, zp), has_abs = has_mode(mn, abs);
    if (!has_zp && !has_abs)
        return asm_error(st, column, "%.*s has no %s or %s addressing mode", (int)mn_tok->length,
                         mn_tok->text, mode_names[zp], mode_names[abs]);
    if (st->pass == 1) {
        int fits = v->known && !v->wide && v->value >= 0 && v->value <= 0xFF;
        *mode = has_zp && (fits || !has_abs) ? zp : abs;
        return asm_record_decision(st, (uint8_t)*mode);
    }
    int decided = asm_next_decision(st);
    if (decided < 0) return asm_error(st, column, "internal error: statements differ between passes");
    *mode = (mh_am6502)decided;
    return 0;
}

static int choose_mode(asm_state *st, int mn, asm_form form, const asm_value *v, uint32_t column,
                       const asm_token *mn_tok, mh_am6502 *mode)
{
    int len = (int)mn_tok->length;
    const char *name = mn_tok->text;
    switch (form) {
    case F_NONE:
        if (has_mode(mn, MH_AM6502_ACC)) *mode = MH_AM6502_ACC;
        else if (has_mode(mn, MH_AM6502_IMP)) *mode = MH_AM6502_IMP;
        else return asm_error(st, column, "expected an operand after %.*s", len, name);
        return 0;
    case F_ACC: *mode = MH_AM6502_ACC; return 0;
    case F_IMM: *mode = MH_AM6502_IMM; break;
    case F_ADDR:
        if (has_mode(mn, MH_AM6502_REL)) {
            *mode = MH_AM6502_REL;
            return 0;
        }
        return choose_size(st, mn, MH_AM6502_ZP, MH_AM6502_ABS, v, column, mn_tok, mode);
    case F_ADDR_X: return choose_size(st, mn, MH_AM6502_ZPX, MH_AM6502_ABSX, v, column, mn_tok, mode);
    case F_ADDR_Y: return choose_size(st, mn, MH_AM6502_ZPY, MH_AM6502_ABSY, v, column, mn_tok, mode);
    case F_IND: *mode = MH_AM6502_IND; break;
    case F_IZX: *mode = MH_AM6502_IZX; break;
    case F_IZY: *mode = MH_AM6502_IZY; break;
    }
    if (!has_mode(mn, *mode))
        return asm_error(st, column, "%.*s has no %s addressing mode", len, name, mode_names[*mode]);
    return 0;
}

/* Emits the operand bytes of an instruction (range checks in pass 2). */
static int emit_operand(asm_state *st, mh_am6502 mode, const asm_value *v, uint32_t column,
                        const asm_token *mn_tok)
{
    int32_t value = v->value;
    int check = st->pass == 2;
    switch (mode) {
    case MH_AM6502_IMP:
    case MH_AM6502_ACC:
        return 0;
    case MH_AM6502_IMM:
        if (check && (value < -128 || value > 255))
            return asm_error(st, column, "immediate value %ld does not fit in a byte", (long)value);
        return asm_emit(st, (uint8_t)value, column);
    case MH_AM6502_REL: {
        /* the CPU's PC wraps at $FFFF, so the distance does too */
        int32_t offset = (int32_t)(((uint32_t)value - (st->stmt_pc + 2u)) & 0xFFFFu);
        if (offset >= 0x8000) offset -= 0x10000;
        if (check && (value < 0 || value > 0xFFFF))
            return asm_error(st, column, "branch target %ld is outside $0000-$FFFF", (long)value);
        if (check && (offset < -128 || offset > 127))
            return asm_error(st, column,
                             "branch target $%04lX is out of range (%ld bytes away; a branch "
                             "reaches -128..+127)",
                             (unsigned long)value, (long)offset);
        return asm_emit(st, (uint8_t)offset, column);
    }
    case MH_AM6502_IZX:
    case MH_AM6502_IZY:
        if (check && (value < 0 || value > 0xFF))
            return asm_error(st, column, "the pointer of %s must be in zero page, not $%lX",
                             mode_names[mode], (unsigned long)(uint32_t)value);
        return asm_emit(st, (uint8_t)value, column);
    case MH_AM6502_ZP: /* only chosen for a large value when there is no absolute form */
    case MH_AM6502_ZPX:
    case MH_AM6502_ZPY:
        if (check && (value < 0 || value > 0xFF))
            return asm_error(st, column, "%.*s has no %s addressing mode and $%lX is not in zero page",
                             (int)mn_tok->length, mn_tok->text, mode_names[mode + (MH_AM6502_ABS - MH_AM6502_ZP)],
                             (unsigned long)(uint32_t)value);
        return asm_emit(st, (uint8_t)value, column);
    default:
        if (check && (value < 0 || value > 0xFFFF))
            return asm_error(st, column, "address %ld is outside $0000-$FFFF", (long)value);
        if (asm_emit(st, (uint8_t)(value & 0xFF), column) < 0) return -1;
        return asm_emit(st, (uint8_t)((value >> 8) & 0xFF), column);
    }
}

static int instruction(asm_state *st, const asm_line *line, int pos, int mn)
{
    const asm_token *mn_tok = &line->tokens[pos++];
    asm_form form;
    asm_value value;
    uint32_t column, form_column;
    if (parse_operand(st, line, &pos, mn, &form, &value, &column, &form_column) < 0) return -1;
    const asm_token *rest = &line->tokens[pos];
    if (rest->kind != T_END) return unexpected(st, rest, "the operand");
    if (form == F_NONE) form_column = mn_tok->column + mn_tok->length;
    mh_am6502 mode;
    if (choose_mode(st, mn, form, &value, form_column, mn_tok, &mode) < 0) return -1;
    int opcode = mh_op6502_find((mh_mn6502)mn, mode);
    if (opcode < 0)
        return asm_error(st, form_column, "%.*s has no %s addressing mode", (int)mn_tok->length,
                         mn_tok->text, mode_names[mode]);
    if (asm_emit(st, (uint8_t)opcode, mn_tok->column) < 0) return -1;
    return emit_operand(st, mode, &value, column, mn_tok);
}

/* --- Directives ------------------------------------------------------ */

typedef int (*directive_fn)(asm_state *st, const asm_line *line, int pos);

/* Comma-separated values of `size` bytes (strings allowed when size 1). */
static int data_list(asm_state *st, const asm_line *line, int pos, int size, int strings_only)
{
    const asm_token *dir = &line->tokens[pos++];
    int items = 0;
    for (;;) {
        const asm_token *t = &line->tokens[pos];
        if (t->kind == T_END) {
            if (items == 0)
                return asm_error(st, t->column, "expected %s after %.*s",
                                 strings_only ? "a string" : "a value", (int)dir->length, dir->text);
            return asm_error(st, t->column, "expected a value after ','");
        }
        if (t->kind == T_STRING && size == 1) {
            uint8_t buf[256];
            size_t n = asm_string_bytes(t, buf, sizeof buf);
            if (n > sizeof buf) return asm_error(st, t->column, "string longer than 256 bytes");
            for (size_t i = 0; i < n; i++)
                if (asm_emit(st, buf[i], t->column) < 0) return -1;
            pos++;
        } else if (strings_only) {
            return asm_error(st, t->column, "expected a string after %.*s", (int)dir->length,
                             dir->text);
        } else {
            asm_value v;
            if (asm_expr(st, line, &pos, &v) < 0) return -1;
            int32_t lo = size == 1 ? -128 : -32768, hi = size == 1 ? 255 : 65535;
            if (st->pass == 2 && (v.value < lo || v.value > hi))
                return asm_error(st, t->column, "value %ld does not fit in a %s", (long)v.value,
                                 size == 1 ? "byte" : "word");
            if (asm_emit(st, (uint8_t)(v.value & 0xFF), t->column) < 0) return -1;
            if (size == 2 && asm_emit(st, (uint8_t)((v.value >> 8) & 0xFF), t->column) < 0)
                return -1;
        }
        items++;
        const asm_token *sep = &line->tokens[pos];
        if (sep->kind == T_END) return 0;
        if (!is_punct(sep, ',')) return unexpected(st, sep, "a value (expected ',')");
        pos++;
    }
}

static int dir_byte(asm_state *st, const asm_line *line, int pos)
{
    return data_list(st, line, pos, 1, 0);
}

static int dir_word(asm_state *st, const asm_line *line, int pos)
{
    return data_list(st, line, pos, 2, 0);
}

static int dir_text(asm_state *st, const asm_line *line, int pos)
{
    return data_list(st, line, pos, 1, 1);
}

/* Origin: the expression after `pos` must be known in pass 1. */
static int origin(asm_state *st, const asm_line *line, int pos)
{
    const asm_token *t = &line->tokens[pos];
    if (t->kind == T_END) return asm_error(st, t->column, "expected an address for the origin");
    asm_value v;
    if (asm_expr(st, line, &pos, &v) < 0) return -1;
    if (!v.known)
        return asm_error(st, t->column, "the origin must not use labels defined further down");
    const asm_token *rest = &line->tokens[pos];
    if (rest->kind != T_END) return unexpected(st, rest, "the origin");
    return asm_set_origin(st, v.value, t->column);
}

static int dir_org(asm_state *st, const asm_line *line, int pos)
{
    return origin(st, line, pos + 1);
}

typedef struct directive {
    const char *name;
    directive_fn run;
} directive;

static const directive directives[] = {
    {".byte", dir_byte}, {".db", dir_byte}, {".word", dir_word}, {".dw", dir_word},
    {".text", dir_text}, {".org", dir_org},
};

/* --- Statements ------------------------------------------------------ */

static int constant(asm_state *st, const asm_line *line, int pos)
{
    const asm_token *name = &line->tokens[pos];
    pos += 2; /* name = */
    const asm_token *t = &line->tokens[pos];
    if (t->kind == T_END)
        return asm_error(st, t->column, "expected a value after '%.*s ='", (int)name->length,
                         name->text);
    asm_value v;
    if (asm_expr(st, line, &pos, &v) < 0) return -1;
    const asm_token *rest = &line->tokens[pos];
    if (rest->kind != T_END) return unexpected(st, rest, "the value");
    return asm_define_symbol(st, name, v.value, v.known, 1);
}

int asm_statement(asm_state *st, const asm_line *line)
{
    int pos = 0;
    const asm_token *t = &line->tokens[0];
    if (t->kind == T_END) return 0;

    /* Labels and constants. */
    if (t->kind == T_IDENT) {
        const asm_token *next = &line->tokens[1];
        if (is_punct(next, '=')) return constant(st, line, 0);
        if (is_punct(next, ':') || (t->column == 1 && find_mnemonic(t) < 0)) {
            if (asm_define_symbol(st, t, (int32_t)st->pc, 1, 0) < 0) return -1;
            pos = is_punct(next, ':') ? 2 : 1;
            t = &line->tokens[pos];
        }
    }
    if (t->kind == T_END) return 0;

    if (is_punct(t, '*')) {
        if (!is_punct(&line->tokens[pos + 1], '='))
            return asm_error(st, line->tokens[pos + 1].column, "expected '=' after '*'");
        return origin(st, line, pos + 2);
    }
    if (t->kind == T_DIRECTIVE) {
        for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
            if (asm_ident_equals(t, directives[i].name)) return directives[i].run(st, line, pos);
        return asm_error(st, t->column, "unknown directive '%.*s'", (int)t->length, t->text);
    }
    if (t->kind == T_IDENT) {
        int mn = find_mnemonic(t);
        if (mn >= 0) return instruction(st, line, pos, mn);
        if (is_punct(&line->tokens[pos + 1], ':') || pos > 0)
            return asm_error(st, t->column, "unknown mnemonic '%.*s'", (int)t->length, t->text);
        return asm_error(st, t->column,
                         "unknown mnemonic '%.*s' (a label must start in column 1 or end with ':')",
                         (int)t->length, t->text);
    }
    if (t->kind == T_STRING)
        return asm_error(st, t->column, "expected a label, mnemonic or directive, not a string");
    return asm_error(st, t->column, "expected a label, mnemonic or directive, not '%.*s'",
                     (int)t->length, t->text);
}
