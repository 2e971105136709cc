/* test_c64_common.h - helpers the c64.* suites share: assembling the test
 * programs of tests/c64 into .prg files, reading the screen as text, and
 * running the real mcphost binary. */
#ifndef MH_TEST_C64_COMMON_H
#define MH_TEST_C64_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "run_mcphost.h"

#ifndef MH_C64_PROGRAM_DIR
#error "MH_C64_PROGRAM_DIR (tests/c64) must be defined by tests/CMakeLists.txt"
#endif

#define C64_ROM_DIR "/usr/share/open-roms/C64"

/* Assembles source text; fills a 64 KiB image and returns the lowest and
 * highest address written (0 on success, -1 with a message on stderr). */
int c64t_assemble(const char *source, uint8_t image[65536], int *lo, int *hi);
/* Reads tests/c64/NAME into a malloc'ed string (NULL on failure). */
char *c64t_read_program(const char *name);
/* Assembles tests/c64/NAME into DIR/NAME-without-.s.prg; returns 0 and
 * the path in out. */
int c64t_make_prg(const char *dir, const char *name, char *out, size_t out_size);
/* Screen code to an ASCII character (upper-case set, reverse ignored). */
char c64t_screen_char(uint8_t code);
/* Decodes 1000 screen codes into 25 lines of 40 characters + '\n'. */
void c64t_screen_text(const uint8_t screen[1000], char out[25 * 41 + 1]);


#endif
