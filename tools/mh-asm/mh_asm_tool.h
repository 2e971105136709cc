/* tools/mh-asm/mh_asm_tool.h - the build-time 6502 assembler tool mh-asm
 * (static library mh_asm_tool; the executable is a thin main around it).
 *
 * Offers: mh_asm_tool_run(), the whole command line of
 *   mh-asm [-D NAME=VALUE]... --range START-END [--fill BYTE] -o OUT.bin
 *          [--c-array SYMBOL OUT.c] FILE...
 * The files are assembled as one text, in the order given (a shared file
 * can come first), after one "NAME = VALUE" line per -D. The bytes from
 * START to END (inclusive; $hex, 0xhex or decimal) are written to OUT.bin,
 * unwritten ones as BYTE (default 0); --c-array also writes a C file with
 * `const uint8_t SYMBOL[]` and `const size_t SYMBOL_size`.
 * Fails (exit status 1, nothing written) with "file:line:column: message"
 * for an assembler error, and when a byte falls outside the range or two
 * pieces of code write the same address; status 2 for a usage error.
 *
 * Ownership: argv is borrowed; err is the caller's stream for messages.
 * Threading: no global state; any thread.
 */
#ifndef MH_ASM_TOOL_H
#define MH_ASM_TOOL_H

#include <stdio.h>

/* Runs mh-asm with argv[1..argc-1]. Returns the exit status: 0 success,
 * 1 an assembly or output error, 2 a usage error. */
int mh_asm_tool_run(int argc, char **argv, FILE *err);

#endif
