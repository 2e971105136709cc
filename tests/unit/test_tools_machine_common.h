/* test_tools_machine_common.h - the in-process host the tools_machine.*
 * suites share: the real C64, bare6502 and tools-machine (and tools-vic2)
 * plugins loaded through host_harness, one allowed directory made under
 * /tmp (with a directory outside it, a secret file there and a symbolic
 * link leading to it), a booted C64 session "c64" and a bare6502 session
 * "bare", and helpers that run the machine for N cycles on its thread and
 * read its memory and chips. */
#ifndef TEST_TOOLS_MACHINE_COMMON_H
#define TEST_TOOLS_MACHINE_COMMON_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "host_harness.h"

#define TMT_FRAME 19656u /* PAL cycles per frame */

extern mh_harness tmt_h;
extern char tmt_base[PATH_MAX];      /* realpath of the temp root */
extern char tmt_allowed[PATH_MAX + 16]; /* base/allowed: the allowed directory */
extern char tmt_outside[PATH_MAX + 16]; /* base/outside: secret.d64 and secret.txt */

/* Sets everything up once (idempotent); 0 on success. */
int tmt_setup(void);
void tmt_teardown(void);

/* Calls a tool; returns the result (owned by the harness). */
const cJSON *tmt_call(const char *tool, const char *args);
/* Calls a tool that must fail: its text must contain each non-NULL needle. */
void tmt_expect_error(const char *tool, const char *args, const char *needle1,
                      const char *needle2);
/* Calls a tool that must succeed; returns its structuredContent. */
const cJSON *tmt_expect_ok(const char *tool, const char *args);

/* Runs session `name` for `cycles` cycles on its thread (the machine's own
 * run(), not the debug engine). */
void tmt_run(const char *name, uint64_t cycles);
/* Reads/writes memory space `space` (0 "cpu", 1 "ram") of a session. */
void tmt_peek(const char *name, size_t space, uint32_t address, uint8_t *out, size_t length);
void tmt_poke(const char *name, size_t space, uint32_t address, const uint8_t *data,
              size_t length);
/* The C64 screen ($0400) as 25 lines of text. */
void tmt_screen(const char *name, char out[25 * 41 + 1]);
/* CIA1 register reg as the CPU would read it (side-effect free). */
uint8_t tmt_cia1(const char *name, uint16_t reg);
/* The keys held in CIA1's keyboard matrix: a count. */
unsigned tmt_keys_held(const char *name);
/* The CPU's A register and PC. */
void tmt_cpu(const char *name, uint8_t *a, uint16_t *pc, int set_a, uint8_t new_a);

/* Writes a file in base (rel "allowed/x.d64"); returns 0. */
int tmt_write(const char *rel, const uint8_t *data, size_t size);
/* Path of rel under base into out. */
void tmt_path(const char *rel, char *out, size_t size);

#endif
