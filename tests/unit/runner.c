/* The one CUnit runner: runs every suite registered with MH_SUITE, sorted by
 * name. Usage: mh_unit_tests [SUITE-PREFIX ...] (no prefix: all suites). */
#include "mh_test.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mh_test_suite *registered;

void mh_test_register(mh_test_suite *suite)
{
    suite->next = registered;
    registered = suite;
}

char *mh_test_shared_path(const char *relative)
{
    const char *base = getenv("MH_SHARED_TESTDATA");
    if (!base) base = MH_SHARED_TESTDATA_DIR;
    size_t size = strlen(base) + strlen(relative) + 2;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%s/%s", base, relative);
    return path;
}

int mh_test_full(void)
{
    const char *full = getenv("MH_TEST_FULL");
    return full && strcmp(full, "0") != 0;
}

static int compare_suites(const void *a, const void *b)
{
    const mh_test_suite *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc <= 1) return 1;
    for (int i = 1; i < argc; i++)
        if (strncmp(name, argv[i], strlen(argv[i])) == 0) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    for (mh_test_suite *s = registered; s; s = s->next) count++;
    mh_test_suite **sorted = calloc(count ? count : 1, sizeof *sorted);
    if (!sorted) return 2;
    size_t n = 0;
    for (mh_test_suite *s = registered; s; s = s->next) sorted[n++] = s;
    qsort(sorted, count, sizeof *sorted, compare_suites);

    if (CU_initialize_registry() != CUE_SUCCESS) return 2;
    size_t chosen = 0;
    for (size_t i = 0; i < count; i++) {
        if (!selected(sorted[i]->name, argc, argv)) continue;
        CU_pSuite suite = CU_add_suite(sorted[i]->name, sorted[i]->init, sorted[i]->cleanup);
        if (!suite) return 2;
        for (const mh_test_case *c = sorted[i]->cases; c->name; c++)
            if (!CU_add_test(suite, c->name, c->run)) return 2;
        chosen++;
    }
    free(sorted);
    if (chosen == 0) {
        fprintf(stderr, "no test suite matches the given prefixes\n");
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
