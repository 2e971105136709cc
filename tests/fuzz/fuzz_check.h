/* fuzz_check.h - CHECK(cond) for the libFuzzer targets: an invariant that
 * aborts (so libFuzzer keeps the input) with the file, line and condition. */
#ifndef MH_FUZZ_CHECK_H
#define MH_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
            abort();                                                                    \
        }                                                                               \
    } while (0)

#endif
