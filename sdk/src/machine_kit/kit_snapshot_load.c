/* kit_snapshot_load.c - a machine's snapshot save and load around the blob
 * framing (mh_kit_snapshot_save/_load, mcphost/snapshot_blob.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/machine_kit.h"
#include "mcphost/snapshot_blob.h"

mh_status mh_kit_snapshot_save(const mh_kit_snapshot_ops *ops, const void *machine,
                               uint32_t model0, uint32_t model1, void **data, size_t *size)
{
    if (!data || !size) return MH_ERR_INVALID_ARGUMENT;
    void *state = calloc(1, ops->format->state_size);
    if (!state) return MH_ERR_NO_MEMORY;
    ops->save(machine, state);
    mh_status status = mh_kit_snapshot_make(ops->format, model0, model1, state, data, size);
    free(state);
    return status;
}

mh_status mh_kit_snapshot_load(const mh_kit_snapshot_ops *ops, void *machine,
                               struct mh_kit_state *run, const void *data, size_t size,
                               char *error, size_t error_size)
{
    uint32_t model0, model1;
    const uint8_t *blob_state;
    mh_status status = mh_kit_snapshot_open(ops->format, data, size, &model0, &model1,
                                            &blob_state, error, error_size);
    if (status != MH_OK) return status;
    if (!ops->models_fit(machine, model0, model1, error, error_size))
        return MH_ERR_INVALID_ARGUMENT;
    /* A copy: the blob's bytes need not be aligned for the state struct. */
    void *state = malloc(ops->format->state_size);
    if (!state) {
        snprintf(error, error_size, "snapshot: out of memory");
        return MH_ERR_NO_MEMORY;
    }
    memcpy(state, blob_state, ops->format->state_size);
    char problem[160];
    if (!ops->state_ok(machine, state, problem, sizeof problem)) {
        free(state);
        snprintf(error, error_size,
                 "snapshot: the state is not one this %s can be in (%s): the file is damaged "
                 "or was not written by mcphost; nothing was loaded",
                 ops->title, problem);
        return MH_ERR_INVALID_ARGUMENT;
    }
    ops->restore(machine, state);
    free(state);
    run->exit_from_cpu = 0;
    run->exit_pending = 0;
    if (ops->loaded) ops->loaded(machine);
    return MH_OK;
}
