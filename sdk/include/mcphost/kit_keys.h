/* mcphost/kit_keys.h - finding a key by name in a machine's key tables
 * (static helper library mh_machine_kit, link target mcphost::machine_kit;
 * docs/machine-kit.md).
 *
 * A machine describes its keyboard once as data: the names of its matrix
 * positions (a key's id is its position), further keys such as
 * combinations with SHIFT (id matrix_count + index) and aliases agents are
 * likely to use ("ENTER" for "RETURN"). mh_kit_key_find() turns a name
 * (any case) into an id, mh_kit_key_get() an id back into the key; the id
 * fits a byte for the tables the machines have, so a key hold can keep it
 * in snapshot state. What a key does (the matrix, RESTORE) stays the
 * machine's.
 *
 * Ownership: the tables are the machine's (usually static const).
 * Threads: [thread-safe]: pure functions, no global state.
 */
#ifndef MCPHOST_KIT_KEYS_H
#define MCPHOST_KIT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mh_kit_key {
    const char *name;
    uint8_t key;   /* matrix position (column * 8 + row), or the machine's own code */
    uint8_t shift; /* 1: a combination with SHIFT */
} mh_kit_key;

typedef struct mh_kit_key_alias {
    const char *alias, *name; /* alias stands for the key called name */
} mh_kit_key_alias;

/* The aliases of the C64 and VIC-20 keyboards (the same keys by the same
 * names): ENTER, RUN_STOP/STOP, LSHIFT/RSHIFT/SHIFT, COMMODORE/C=,
 * BACKSPACE, " ", CLR_HOME, INST_DEL, PLUS, MINUS. */
#define MH_KIT_COMMODORE_KEY_ALIAS_COUNT 14
extern const mh_kit_key_alias mh_kit_commodore_key_aliases[MH_KIT_COMMODORE_KEY_ALIAS_COUNT];

typedef struct mh_kit_key_table {
    const char *const *matrix; /* matrix_count names by position; NULL when 0 */
    size_t matrix_count;
    const mh_kit_key *keys; /* further keys, id matrix_count + index */
    size_t key_count;
    const mh_kit_key_alias *aliases;
    size_t alias_count;
} mh_kit_key_table;

/* Nonzero when a and b are the same name ignoring ASCII case. */
int mh_kit_key_name_equal(const char *a, const char *b);

/* The id of the key called name (matrix names first, then keys, then the
 * aliases, followed); -1 when there is none or name is NULL. */
int mh_kit_key_find(const mh_kit_key_table *table, const char *name);

/* The key with id (one mh_kit_key_find() gave): a matrix position gives
 * {its name, id, 0}. */
mh_kit_key mh_kit_key_get(const mh_kit_key_table *table, unsigned id);

#ifdef __cplusplus
}
#endif

#endif
