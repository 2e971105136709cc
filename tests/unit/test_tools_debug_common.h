/* test_tools_debug_common.h - what the tools_debug.* suites share: an
 * in-process host (host_harness.h) with the built tools-debug plugin and a
 * machine plugin loaded, tool calls with printf-style arguments, and
 * accessors for structured results. */
#ifndef MH_TEST_TOOLS_DEBUG_COMMON_H
#define MH_TEST_TOOLS_DEBUG_COMMON_H

#include <cjson/cJSON.h>
#include <string.h>

#include "host_harness.h"

/* Sets up h with the fixture plugins (a machine without CPU or memory),
 * machine-bare6502, machine-c64 and tools-debug, all as built. Returns 0
 * or -1 with a message. */
int tdt_setup(mh_harness *h);
/* Frees what tdt_setup and tdt_allow_dir made. */
void tdt_teardown(mh_harness *h);
/* Allows dir for mh.files/1 (symbols_load). */
int tdt_allow_dir(mh_harness *h, const char *dir);
/* Calls tool with arguments made by printf (a JSON object text). */
const cJSON *tdt_call(mh_harness *h, const char *tool, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
const cJSON *tdt_sc(const cJSON *result); /* structuredContent */
double tdt_num(const cJSON *object, const char *key); /* -1 when missing */
const char *tdt_str(const cJSON *object, const char *key); /* "" when missing */
int tdt_bool(const cJSON *object, const char *key);
/* 1 when result is a tool error whose text contains every one of the
 * NULL-terminated substrings; prints the text otherwise. */
int tdt_error_has(const cJSON *result, ...);
/* 1 when result is not an error (prints the text otherwise). */
int tdt_ok(const cJSON *result);

#define TDT_ERR(r, ...) CU_ASSERT_TRUE(tdt_error_has((r), __VA_ARGS__, (const char *)NULL))
#define TDT_OK(r) CU_ASSERT_TRUE_FATAL(tdt_ok(r))

#endif
