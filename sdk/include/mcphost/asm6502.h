/* mcphost/asm6502.h - a small two-pass 6502 assembler (static library
 * mh_cpu6502), what the `assemble` tool and a monitor's "a" command use.
 *
 * Offers: mh_asm6502_assemble() for a whole source text (output as chunks
 * of consecutive bytes, plus the symbol table), mh_asm6502_to_image() to
 * lay the chunks into a 64 KiB image with a map of written bytes, and
 * mh_asm6502_line() for one line at a given address.
 *
 * Syntax (case-insensitive mnemonics, directives and register names):
 *   label:  LDA #$01      ; comment      labels end with ':' or start in
 *   loop    DEX                          column 1; forward references work
 *           BNE loop
 *   name = expr                          a constant
 *   *= $C000  (or .org $C000)            set the program counter
 *   .byte 1, $02, 'c', "text"            bytes (.db); strings give their bytes
 *   .word $1234, label                   little-endian words (.dw)
 *   .text "hello"                        the string's bytes, as written
 * Operands: #imm, zp, zp,X, zp,Y, abs, abs,X, abs,Y, (ind), (zp,X), (zp),Y,
 * A (accumulator; a bare "ASL" works too), branch targets as addresses.
 * Expressions: + - * / with the usual precedence, parentheses, unary -,
 * < (low byte), > (high byte); numbers $1F, 0x1F, %1010, 31, 'c'; * is the
 * address of the current statement.
 * Zero page or absolute: zero page when the value is known in the first
 * pass, is $00-$FF and the instruction has that mode; a hex literal with
 * more than two digits ($0012, 0x0012) or a binary one with more than eight
 * forces absolute (so the disassembler's output re-assembles to the same
 * bytes). Undocumented opcodes use the disassembler's names (SLO RLA SRE
 * RRA SAX LAX DCP ISC ANC ALR ARR SBX LAS SHA SHX SHY TAS ANE LXA JAM; NOP
 * with operands); common aliases are accepted (ISB DCM ASR AXS XAA LAR SHS
 * AHX KIL HLT). Where several opcodes share a mnemonic and mode (NOP, SBC #,
 * ANC #, JAM) the canonical one of mh_op6502_find() is emitted.
 * Errors: assembly stops at the first error; the message names line,
 * column and what was expected, e.g.
 *   "line 3, column 9: expected an operand after LDA".
 * Not implemented: macros, conditional assembly, local/anonymous labels,
 * include files, PETSCII/screen-code conversion of strings.
 *
 * Ownership: the caller owns the source and the result struct;
 * mh_asm6502_assemble() allocates the arrays in the result, freed by
 * mh_asm6502_result_free() (also after a failure).
 * Threading: [thread-safe]: no global mutable state.
 */
#ifndef MCPHOST_ASM6502_H
#define MCPHOST_ASM6502_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Consecutive output bytes starting at address. */
typedef struct mh_asm6502_chunk {
    uint16_t address;
    uint16_t reserved;
    uint32_t size;
    const uint8_t *bytes; /* owned by the result */
} mh_asm6502_chunk;

typedef struct mh_asm6502_symbol {
    const char *name; /* owned by the result */
    int32_t value;
    uint32_t line; /* where it was defined */
} mh_asm6502_symbol;

/* Resolves a symbol the source uses but does not define (e.g. labels the
 * debugger knows). Return 1 and set *value, or 0 if unknown.
 * [same thread as the caller] */
typedef int (*mh_asm6502_resolve_fn)(void *user, const char *name, size_t length,
                                     int32_t *value);

typedef struct mh_asm6502_options {
    uint32_t origin;               /* address before any "*=", 0..$FFFF */
    mh_asm6502_resolve_fn resolve; /* optional */
    void *resolve_user;
} mh_asm6502_options;

typedef struct mh_asm6502_result {
    mh_asm6502_chunk *chunks; /* in source order */
    size_t chunk_count;
    mh_asm6502_symbol *symbols; /* labels and constants, in definition order */
    size_t symbol_count;
    size_t byte_count;        /* sum of the chunk sizes */
    uint32_t error_line;      /* 1-based; 0 when there is no error */
    uint32_t error_column;    /* 1-based */
    char error[256];          /* full message with line and column, "" on success */
    void *storage;            /* internal */
} mh_asm6502_result;

/* Assembles `length` bytes of source (lines end with \n or \r\n; a NUL
 * also ends the source). options may be NULL (origin 0). Returns MH_OK, or
 * MH_ERR_INVALID_ARGUMENT with result->error set for a source error,
 * MH_ERR_NO_MEMORY when an allocation failed. Always call
 * mh_asm6502_result_free() afterwards. */
mh_status mh_asm6502_assemble(const char *source, size_t length, const mh_asm6502_options *options,
                              mh_asm6502_result *result);

void mh_asm6502_result_free(mh_asm6502_result *result);

/* Copies every chunk into image (65536 bytes; later chunks win where they
 * overlap). written, if not NULL, is a 8192-byte bitmap (bit n%8 of byte
 * n/8 set for each written address), cleared first. */
void mh_asm6502_to_image(const mh_asm6502_result *result, uint8_t *image, uint8_t *written);

/* Assembles one line at pc into out. Returns the number of bytes, or -1
 * with the message in error (may be NULL). Labels defined on the line are
 * allowed but only resolve within it. */
int mh_asm6502_line(const char *line, uint16_t pc, uint8_t *out, size_t out_size, char *error,
                    size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
