/* asm6502_internal.h - the assembler's shared pieces: tokens of one line
 * (asm6502_lex.c), expression values (asm6502_expr.c), the assembler state
 * with symbols, per-statement decisions and output (asm6502.c), and the
 * statement parser (asm6502_parse.c). Internal header: not installed.
 */
#ifndef MH_ASM6502_INTERNAL_H
#define MH_ASM6502_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/asm6502.h"

/* --- Tokens ----------------------------------------------------------- */

typedef enum asm_tok_kind {
    T_END = 0,   /* end of the line (or start of a comment) */
    T_IDENT,     /* label, mnemonic, register */
    T_DIRECTIVE, /* .byte, .word ... (text includes the dot) */
    T_NUMBER,    /* value set; 'c' characters too */
    T_STRING,    /* "..." : text/length are the raw contents, escapes unresolved */
    T_PUNCT      /* one of # ( ) , + - * / < > = : */
} asm_tok_kind;

typedef struct asm_token {
    uint8_t kind;     /* asm_tok_kind */
    uint8_t wide;     /* number written with more digits than a byte needs */
    char punct;       /* T_PUNCT: the character */
    uint32_t column;  /* 1-based */
    uint32_t length;  /* characters in the source */
    const char *text; /* into the line */
    int32_t value;    /* T_NUMBER */
} asm_token;

#define ASM_MAX_TOKENS 256

typedef struct asm_line {
    const char *text;
    size_t length;
    uint32_t number; /* 1-based */
    asm_token tokens[ASM_MAX_TOKENS];
    int count; /* tokens, the T_END included */
} asm_line;

/* --- State ------------------------------------------------------------ */

typedef struct asm_symbol {
    char *name;
    size_t length;
    int32_t value;
    uint32_t line;
    uint8_t known;       /* value is final */
    uint8_t pass;        /* pass that last defined it */
    uint8_t is_constant; /* "name = expr" rather than a label */
} asm_symbol;

typedef struct asm_chunk_rec {
    uint16_t address;
    size_t offset; /* into bytes */
    size_t size;
} asm_chunk_rec;

typedef struct asm_state {
    int pass;          /* 1 or 2 */
    uint32_t pc;       /* next address */
    uint32_t stmt_pc;  /* address of the current statement ('*') */
    int chunk_open;    /* output continues the last chunk */

    asm_symbol *symbols;
    size_t symbol_count, symbol_cap;
    uint32_t *hash; /* index+1 into symbols, open addressing */
    size_t hash_cap;

    uint8_t *decisions; /* addressing mode chosen in pass 1, per instruction */
    size_t decision_count, decision_cap, decision_index;

    uint8_t *bytes;
    size_t byte_count, byte_cap;
    asm_chunk_rec *chunks;
    size_t chunk_count, chunk_cap;

    mh_asm6502_resolve_fn resolve;
    void *resolve_user;

    const asm_line *line; /* being assembled */
    int failed;           /* an error was reported */
    int out_of_memory;
    uint32_t error_line, error_column;
    char error[256];
} asm_state;

/* asm6502.c */
int asm_error(asm_state *st, uint32_t column, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
asm_symbol *asm_find_symbol(asm_state *st, const char *name, size_t length);
int asm_define_symbol(asm_state *st, const asm_token *name, int32_t value, int known,
                      int is_constant);
int asm_emit(asm_state *st, uint8_t byte, uint32_t column);
int asm_set_origin(asm_state *st, int32_t value, uint32_t column);
int asm_record_decision(asm_state *st, uint8_t mode); /* pass 1 */
int asm_next_decision(asm_state *st);                 /* pass 2: -1 if none */

/* asm6502_lex.c: splits one line into tokens; -1 after reporting an error. */
int asm_lex_line(asm_state *st, asm_line *line);
int asm_ident_equals(const asm_token *t, const char *word); /* case-insensitive */
/* Decodes the escapes (\\ \" \n \r \t \0) of a T_STRING token into out (at
 * most out_size bytes); returns the decoded length. */
size_t asm_string_bytes(const asm_token *t, uint8_t *out, size_t out_size);

/* asm6502_expr.c */
typedef struct asm_value {
    int32_t value;
    uint8_t known; /* every symbol in it is defined (always 1 in pass 2) */
    uint8_t wide;  /* it has a literal written as 16-bit */
} asm_value;

/* Parses an expression starting at *pos; -1 after reporting an error. */
int asm_expr(asm_state *st, const asm_line *line, int *pos, asm_value *out);

/* asm6502_parse.c: one statement (the line's tokens); -1 on error. */
int asm_statement(asm_state *st, const asm_line *line);

#endif
