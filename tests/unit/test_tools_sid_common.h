/* test_tools_sid_common.h - what the tools_sid.* suites share: an
 * in-process host with the real machine-c64 and tools-sid plugins and a
 * temporary allowed directory, sessions, a 6502 test program started on a
 * session, tool calls with formatted arguments, and an independent WAV
 * decoder plus frequency measurements (zero crossings, Goertzel) to check
 * the tools' own analysis against. */
#ifndef MH_TEST_TOOLS_SID_COMMON_H
#define MH_TEST_TOOLS_SID_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "host_harness.h"

#define SIDT_CLOCK_PAL 985248.0

/* Sets up the host (once per suite); 0 on success. */
int sidt_init(mh_harness *h, char *tmpdir, size_t tmpdir_size);
void sidt_cleanup(mh_harness *h, const char *tmpdir);
/* Calls tool with arguments made like printf. */
const cJSON *sidt_call(mh_harness *h, const char *tool, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const cJSON *sidt_structured(const cJSON *result);
/* A number member of an object by dotted path ("mixed.dominant_hz",
 * "voices.0.envelope_level"); NAN when missing. */
double sidt_num(const cJSON *object, const char *path);
const char *sidt_str(const cJSON *object, const char *path);
/* session_create of a C64 (options may be NULL); 0 on success. */
int sidt_session(mh_harness *h, const char *name, const char *options_json);
void sidt_destroy(mh_harness *h, const char *name);
/* Runs the session's paused machine 5000 cycles (past the reset), then
 * assembles source, pokes it into RAM and points the CPU at `start`. */
int sidt_program(mh_harness *h, const char *session, const char *source, uint16_t start);
/* Runs the paused machine `cycles` cycles through mh.debug/1 advance on
 * the session thread (no tool, no audio read). 0 on success. */
int sidt_advance(mh_harness *h, const char *session, uint64_t cycles);
/* Wall-clock seconds (monotonic). */
double sidt_now(void);
/* Reads RAM (side-effect free) on the session thread. 0 on success. */
int sidt_peek(mh_harness *h, const char *session, uint16_t address, uint8_t *out, size_t length);
/* The audio content of a tool result as WAV: checks the RIFF header,
 * returns malloc'ed samples. 0 on success. */
int sidt_wav(const cJSON *result, int16_t **samples, size_t *count, unsigned *rate);
/* Frequency from upward zero crossings (mean removed, hysteresis,
 * interpolated), independent of the plugin's FFT. */
double sidt_crossing_hz(const int16_t *x, size_t n, unsigned rate);
/* Goertzel magnitude of x at hz (mean removed). */
double sidt_goertzel(const int16_t *x, size_t n, unsigned rate, double hz);
/* The SID frequency register for hz on a PAL C64, and back. */
unsigned sidt_freq_reg(double hz);
double sidt_reg_hz(unsigned reg);

#endif
