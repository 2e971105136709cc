/* tests/unit/mh_test.h - registers CUnit suites from any test file without
 * editing a central list: each file defines its suites with MH_SUITE and the
 * single runner (runner.c) picks them up, sorted by name.
 *
 *   static void test_x(void) { CU_ASSERT_EQUAL(1, 1); }
 *   MH_SUITE("json.parse", NULL, NULL, MH_TEST(test_x))
 *
 * Suite names are "<component>.<area>". Test data from ../shared is found
 * through mh_test_shared_path().
 */
#ifndef MH_TEST_H
#define MH_TEST_H

#include <CUnit/CUnit.h>
#include <stddef.h>

typedef struct mh_test_case {
    const char *name;
    void (*run)(void);
} mh_test_case;

typedef struct mh_test_suite {
    const char *name;
    int (*init)(void);
    int (*cleanup)(void);
    const mh_test_case *cases;
    struct mh_test_suite *next;
} mh_test_suite;

void mh_test_register(mh_test_suite *suite);

/* Path of a file under ../shared/testdata (static buffer per call site is
 * not needed: the result is malloc'ed and owned by the caller). */
char *mh_test_shared_path(const char *relative);

/* Nonzero when MH_TEST_FULL=1: long suites run their full size. */
int mh_test_full(void);

#define MH_TEST(fn) {#fn, fn}

#define MH_SUITE_CAT2(a, b) a##b
#define MH_SUITE_CAT(a, b) MH_SUITE_CAT2(a, b)
#define MH_SUITE(name_, init_, cleanup_, ...)                                             \
    static const mh_test_case MH_SUITE_CAT(mh_cases_, __LINE__)[] = {__VA_ARGS__, {NULL, NULL}}; \
    static mh_test_suite MH_SUITE_CAT(mh_suite_, __LINE__) = {                            \
        name_, init_, cleanup_, MH_SUITE_CAT(mh_cases_, __LINE__), NULL};                 \
    __attribute__((constructor)) static void MH_SUITE_CAT(mh_register_, __LINE__)(void)   \
    {                                                                                     \
        mh_test_register(&MH_SUITE_CAT(mh_suite_, __LINE__));                             \
    }

#endif
