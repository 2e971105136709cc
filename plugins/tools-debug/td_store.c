/* td_store.c - per-session symbols and memory snapshots (td_store.h). */
#include "td_store.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct td_store {
    pthread_mutex_t lock;
    td_session_state **states;
    size_t count, capacity;
};

mh_status td_store_ensure(td_plugin *plugin)
{
    if (plugin->store) return MH_OK;
    td_store *store = calloc(1, sizeof *store);
    if (!store) return MH_ERR_NO_MEMORY;
    if (pthread_mutex_init(&store->lock, NULL) != 0) {
        free(store);
        return MH_ERR_NO_MEMORY;
    }
    plugin->store = store;
    return MH_OK;
}

static void free_state(td_session_state *state)
{
    td_symbols_clear(state);
    free(state->symbols);
    td_lines_clear(&state->lines);
    td_annots_clear(&state->annots);
    for (size_t i = 0; i < TD_MAX_SNAPSHOTS; i++) {
        if (!state->snapshots[i]) continue;
        free(state->snapshots[i]->bytes);
        free(state->snapshots[i]);
    }
    free(state->scratch);
    free(state->line_memo);
    free(state->session);
    free(state);
}

void td_store_free(td_store *store)
{
    if (!store) return;
    for (size_t i = 0; i < store->count; i++) free_state(store->states[i]);
    free(store->states);
    pthread_mutex_destroy(&store->lock);
    free(store);
}

td_session_state *td_store_lock(td_store *store, const char *name, int create)
{
    pthread_mutex_lock(&store->lock);
    for (size_t i = 0; i < store->count; i++)
        if (strcmp(store->states[i]->session, name) == 0) return store->states[i];
    if (!create) return NULL;
    if (store->count == store->capacity) {
        size_t capacity = store->capacity ? store->capacity * 2 : 4;
        td_session_state **states = realloc(store->states, capacity * sizeof *states);
        if (!states) return NULL;
        store->states = states;
        store->capacity = capacity;
    }
    td_session_state *state = calloc(1, sizeof *state);
    if (!state || !(state->session = strdup(name))) {
        free(state);
        return NULL;
    }
    state->sorted = 1;
    store->states[store->count++] = state;
    return state;
}

void td_store_unlock(td_store *store) { pthread_mutex_unlock(&store->lock); }

/* ---- symbols ---- */

mh_status td_symbols_add(td_session_state *state, const char *name, size_t name_length,
                         uint32_t address)
{
    if (state->symbol_count >= TD_MAX_SYMBOLS) return MH_ERR_LIMIT;
    if (state->symbol_count == state->symbol_capacity) {
        size_t capacity = state->symbol_capacity ? state->symbol_capacity * 2 : 64;
        td_symbol *symbols = realloc(state->symbols, capacity * sizeof *symbols);
        if (!symbols) return MH_ERR_NO_MEMORY;
        state->symbols = symbols;
        state->symbol_capacity = capacity;
    }
    char *copy = malloc(name_length + 1);
    if (!copy) return MH_ERR_NO_MEMORY;
    memcpy(copy, name, name_length);
    copy[name_length] = '\0';
    state->symbols[state->symbol_count++] = (td_symbol){copy, address, state->next_seq++};
    state->sorted = 0;
    return MH_OK;
}

void td_symbols_clear(td_session_state *state)
{
    for (size_t i = 0; i < state->symbol_count; i++) free(state->symbols[i].name);
    state->symbol_count = 0;
    free(state->by_name);
    state->by_name = NULL;
    state->sorted = 1;
}

static int by_name_then_seq(const void *a, const void *b)
{
    const td_symbol *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_address_then_name(const void *a, const void *b)
{
    const td_symbol *x = a, *y = b;
    if (x->address != y->address) return x->address < y->address ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* qsort_r is not C11: sort the name index with a small merge sort. */
static void sort_index(uint32_t *index, uint32_t *scratch, size_t n, const td_symbol *symbols)
{
    if (n < 2) return;
    size_t half = n / 2;
    sort_index(index, scratch, half, symbols);
    sort_index(index + half, scratch, n - half, symbols);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        scratch[k++] = strcmp(symbols[index[i]].name, symbols[index[j]].name) <= 0 ? index[i++]
                                                                                  : index[j++];
    while (i < half) scratch[k++] = index[i++];
    while (j < n) scratch[k++] = index[j++];
    memcpy(index, scratch, n * sizeof *index);
}

void td_symbols_sort(td_session_state *state)
{
    if (state->sorted) return;
    size_t n = state->symbol_count;
    /* A name defined twice keeps its last definition. */
    if (n > 1) qsort(state->symbols, n, sizeof *state->symbols, by_name_then_seq);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && strcmp(state->symbols[i].name, state->symbols[i + 1].name) == 0) {
            free(state->symbols[i].name);
            continue;
        }
        state->symbols[kept++] = state->symbols[i];
    }
    state->symbol_count = n = kept;
    if (n > 1) qsort(state->symbols, n, sizeof *state->symbols, by_address_then_name);
    free(state->by_name);
    state->by_name = malloc((n ? n : 1) * sizeof *state->by_name);
    uint32_t *scratch = malloc((n ? n : 1) * sizeof *scratch);
    if (state->by_name && scratch) {
        for (size_t i = 0; i < n; i++) state->by_name[i] = (uint32_t)i;
        sort_index(state->by_name, scratch, n, state->symbols);
    } else {
        free(state->by_name);
        state->by_name = NULL;
    }
    free(scratch);
    state->sorted = 1;
}

/* Index of the first symbol with address >= a. */
static size_t lower_bound(const td_session_state *state, uint32_t a)
{
    size_t lo = 0, hi = state->symbol_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (state->symbols[mid].address < a) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const td_symbol *td_symbols_at(td_session_state *state, uint32_t address)
{
    td_symbols_sort(state);
    size_t i = lower_bound(state, address);
    return i < state->symbol_count && state->symbols[i].address == address ? &state->symbols[i]
                                                                          : NULL;
}

const td_symbol *td_symbols_below(td_session_state *state, uint32_t address)
{
    td_symbols_sort(state);
    size_t i = lower_bound(state, address + 1);
    if (i == 0) return NULL;
    /* The first name of that address. */
    uint32_t at = state->symbols[i - 1].address;
    size_t j = lower_bound(state, at);
    return &state->symbols[j];
}

const td_symbol *td_symbols_find(td_session_state *state, const char *name, size_t length)
{
    td_symbols_sort(state);
    if (!state->by_name) {
        for (size_t i = 0; i < state->symbol_count; i++)
            if (strlen(state->symbols[i].name) == length &&
                memcmp(state->symbols[i].name, name, length) == 0)
                return &state->symbols[i];
        return NULL;
    }
    size_t lo = 0, hi = state->symbol_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = state->symbols[state->by_name[mid]].name;
        int c = strncmp(s, name, length);
        if (c == 0 && s[length] != '\0') c = 1;
        if (c == 0) return &state->symbols[state->by_name[mid]];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* ---- snapshots ---- */

td_snapshot *td_snapshot_find(td_session_state *state, const char *name)
{
    for (size_t i = 0; i < TD_MAX_SNAPSHOTS; i++)
        if (state->snapshots[i] && strcmp(state->snapshots[i]->name, name) == 0)
            return state->snapshots[i];
    return NULL;
}

mh_status td_snapshot_put(td_session_state *state, const td_snapshot *snapshot,
                          const uint8_t *bytes)
{
    uint8_t *copy = malloc(snapshot->length ? snapshot->length : 1);
    if (!copy) return MH_ERR_NO_MEMORY;
    memcpy(copy, bytes, snapshot->length);
    td_snapshot *slot = td_snapshot_find(state, snapshot->name);
    if (!slot) {
        for (size_t i = 0; i < TD_MAX_SNAPSHOTS && !slot; i++)
            if (!state->snapshots[i]) {
                slot = calloc(1, sizeof *slot);
                if (!slot) {
                    free(copy);
                    return MH_ERR_NO_MEMORY;
                }
                state->snapshots[i] = slot;
            }
        if (!slot) {
            free(copy);
            return MH_ERR_LIMIT;
        }
    } else {
        free(slot->bytes);
    }
    *slot = *snapshot;
    slot->bytes = copy;
    return MH_OK;
}

/* ---- scratch buffers ---- */

void *td_scratch_get(td_store *store, const char *session, size_t size, size_t *capacity)
{
    void *buffer = NULL;
    size_t have = 0;
    td_session_state *state = td_store_lock(store, session, 1);
    if (state && state->scratch && state->scratch_size >= size) {
        buffer = state->scratch;
        have = state->scratch_size;
        state->scratch = NULL;
        state->scratch_size = 0;
    }
    td_store_unlock(store);
    if (!buffer) {
        buffer = malloc(size ? size : 1);
        have = size;
    }
    *capacity = have;
    return buffer;
}

void td_scratch_put(td_store *store, const char *session, void *buffer, size_t capacity)
{
    if (!buffer) return;
    td_session_state *state = td_store_lock(store, session, 0);
    if (state && (!state->scratch || state->scratch_size < capacity)) {
        free(state->scratch);
        state->scratch = buffer;
        state->scratch_size = capacity;
        buffer = NULL;
    }
    td_store_unlock(store);
    free(buffer);
}
