/* host/plugins/chip_alternatives.h - what to use instead of a tool whose
 * chip a machine lacks: the machine's own chips that do the same job
 * (chip_names.c roles) and, for each, its tool whose name ends like the
 * one asked for, so "vic2_registers_get" on a VIC-20 answers "it has a
 * VIC (6560/6561) chip "vic" (mh.chip.vic/1): use vic_registers_get".
 * Generic: from the session's registered chips and the registry, never
 * from a table of machines. [emu-thread] of the session, or wherever its
 * chip list may be read. */
#ifndef MH_HOST_CHIP_ALTERNATIVES_H
#define MH_HOST_CHIP_ALTERNATIVES_H

#include <stddef.h>

#include "registry.h"
#include "sessions.h"

/* Writes "; it has a <chip> \"<instance>\" (<interface>): use <tool>" for
 * each such chip (an interface once) to out (always terminated; "" when
 * there is none). Returns the length written. */
size_t mh_chip_alternatives(const mh_registry *reg, mh_session *s, const char *tool_name,
                            const char *missing_interface, char *out, size_t size);

/* How many whole '_'-separated words a and b end with in common
 * ("vic2_registers_get", "vic_registers_get": 2). */
size_t mh_tool_name_common_words(const char *a, const char *b);

#endif
