/* test_memory_runs_common.h - checks a machine's mh.memory/1 bulk reads
 * (peek and peek_runs, which copy or hand over whole RAM/ROM runs) against
 * its per-byte side-effect-free read, for the suites of each machine
 * (c64.cartridge, vic20.machine, plus4.banking, bare6502.sessions). */
#ifndef MH_TEST_MEMORY_RUNS_COMMON_H
#define MH_TEST_MEMORY_RUNS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/session.h"

/* The per-byte reference: what a CPU read of address gives, no side
 * effects (c64_bus_peek and the like). */
typedef uint8_t (*mrt_byte_fn)(const void *machine, uint16_t address);

/* Fills 64 KiB so that no two nearby bytes or pages look alike (a run
 * read from the wrong offset shows). */
void mrt_fill_pattern(uint8_t *bytes, size_t size, uint8_t seed);

/* Finds the "mh.memory/1" chip among chips and compares space 0 ("cpu")
 * with ref byte by byte: a 64 KiB peek, a 64 KiB peek_runs (and that RAM
 * came in place, as a run longer than any copy buffer), and peeks and
 * peek_runs of ranges that start and end inside and across banks, and a
 * range past the end refused. label names the configuration in the
 * messages (stderr). Returns the number of failures (bytes that differed,
 * calls that failed); no CUnit assertion, so a session thread may call it. */
size_t mrt_compare_cpu_space(const mh_chip *chips, size_t count, const void *machine,
                             mrt_byte_fn ref, const char *label);
/* The same with CU_ASSERT_EQUAL(failures, 0) (the test's thread). */
size_t mrt_check_cpu_space(const mh_chip *chips, size_t count, const void *machine,
                           mrt_byte_fn ref, const char *label);

#endif
