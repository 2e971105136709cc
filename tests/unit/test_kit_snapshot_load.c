/* test_kit_snapshot_load.c - a machine's save and load on the kit
 * (mh_kit_snapshot_save/_load, mcphost/snapshot_blob.h): a round trip
 * that clears the debug-cart exit flags and calls loaded(), and the model
 * and state refusals, which leave the machine as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mcphost/machine_kit.h"
#include "mcphost/snapshot_blob.h"
#include "mh_test.h"

typedef struct toy_state {
    uint32_t value;
    mh_kit_state run;
} toy_state;

typedef struct toy {
    uint32_t model;
    toy_state s;
    int loaded;
} toy;

static void toy_fill(const void *machine, void *state)
{
    memcpy(state, &((const toy *)machine)->s, sizeof(toy_state));
}

static int toy_models_fit(const void *machine, uint32_t model0, uint32_t model1, char *error,
                          size_t error_size)
{
    const toy *m = machine;
    if (model0 == m->model && model1 == 7) return 1;
    snprintf(error, error_size, "snapshot: made on model %u", (unsigned)model0);
    return 0;
}

static int toy_state_ok(const void *machine, const void *state, char *problem, size_t size)
{
    (void)machine;
    const toy_state *s = state;
    if (s->value < 1000) return 1;
    snprintf(problem, size, "value %u", (unsigned)s->value);
    return 0;
}

static void toy_restore(void *machine, const void *state)
{
    memcpy(&((toy *)machine)->s, state, sizeof(toy_state));
}

static void toy_loaded(void *machine) { ((toy *)machine)->loaded++; }

static const mh_kit_snapshot_format toy_format = {"toy", 1, sizeof(toy_state)};
static const mh_kit_snapshot_ops toy_ops = {&toy_format,    "Toy",       toy_fill, toy_models_fit,
                                            toy_state_ok, toy_restore, toy_loaded};

static void *save(const toy *m, uint32_t model0, size_t *size)
{
    void *blob = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_kit_snapshot_save(&toy_ops, m, model0, 7, &blob, size), MH_OK);
    CU_ASSERT_EQUAL(*size, MH_KIT_SNAPSHOT_HEADER + sizeof(toy_state));
    return blob;
}

static void test_round_trip(void)
{
    toy m = {3, {42, {0}}, 0};
    m.s.run.cycles = 99;
    m.s.run.exit_pending = 1; /* saved while an exit was pending */
    m.s.run.exit_from_cpu = 1;
    size_t size;
    void *blob = save(&m, 3, &size);
    m.s.value = 5;
    char error[300] = "x";
    CU_ASSERT_EQUAL(mh_kit_snapshot_load(&toy_ops, &m, &m.s.run, blob, size, error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(m.s.value, 42);
    CU_ASSERT_EQUAL(m.s.run.cycles, 99);
    CU_ASSERT_EQUAL(m.s.run.exit_pending, 0);
    CU_ASSERT_EQUAL(m.s.run.exit_from_cpu, 0);
    CU_ASSERT_EQUAL(m.loaded, 1);
    free(blob);
    CU_ASSERT_EQUAL(mh_kit_snapshot_save(&toy_ops, &m, 0, 0, NULL, &size), MH_ERR_INVALID_ARGUMENT);
}

static void test_refusals(void)
{
    toy m = {3, {1000, {0}}, 0};
    size_t size;
    void *bad_state = save(&m, 3, &size);
    m.s.value = 1;
    char error[300];
    CU_ASSERT_EQUAL(
        mh_kit_snapshot_load(&toy_ops, &m, &m.s.run, bad_state, size, error, sizeof error),
        MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error,
                           "snapshot: the state is not one this Toy can be in (value 1000): the "
                           "file is damaged or was not written by mcphost; nothing was loaded");
    CU_ASSERT_EQUAL(m.s.value, 1);
    CU_ASSERT_EQUAL(m.loaded, 0);
    free(bad_state);

    void *other_model = save(&m, 4, &size);
    CU_ASSERT_EQUAL(
        mh_kit_snapshot_load(&toy_ops, &m, &m.s.run, other_model, size, error, sizeof error),
        MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error, "snapshot: made on model 4");
    CU_ASSERT_EQUAL(m.loaded, 0);
    /* The framing's refusals come first. */
    CU_ASSERT_EQUAL(
        mh_kit_snapshot_load(&toy_ops, &m, &m.s.run, other_model, 20, error, sizeof error),
        MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "snapshot: truncated"));
    free(other_model);
}

MH_SUITE("sdk.kit_snapshot_load", NULL, NULL, MH_TEST(test_round_trip), MH_TEST(test_refusals))
