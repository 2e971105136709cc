/* kit_keys.c - key lookup by name in a machine's tables (mcphost/kit_keys.h). */
#include "mcphost/kit_keys.h"

#include <ctype.h>

int mh_kit_key_name_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return 0;
    return *a == *b;
}

int mh_kit_key_find(const mh_kit_key_table *table, const char *name)
{
    if (!name) return -1;
    for (size_t k = 0; k < table->matrix_count; k++)
        if (mh_kit_key_name_equal(table->matrix[k], name)) return (int)k;
    for (size_t i = 0; i < table->key_count; i++)
        if (mh_kit_key_name_equal(table->keys[i].name, name))
            return (int)(table->matrix_count + i);
    for (size_t i = 0; i < table->alias_count; i++)
        if (mh_kit_key_name_equal(table->aliases[i].alias, name))
            return mh_kit_key_find(table, table->aliases[i].name);
    return -1;
}

mh_kit_key mh_kit_key_get(const mh_kit_key_table *table, unsigned id)
{
    if (id < table->matrix_count) return (mh_kit_key){table->matrix[id], (uint8_t)id, 0};
    return table->keys[id - table->matrix_count];
}

const mh_kit_key_alias mh_kit_commodore_key_aliases[MH_KIT_COMMODORE_KEY_ALIAS_COUNT] = {
    {"ENTER", "RETURN"}, {"RUN_STOP", "RUNSTOP"}, {"STOP", "RUNSTOP"},
    {"LSHIFT", "SHIFT_LEFT"}, {"RSHIFT", "SHIFT_RIGHT"}, {"SHIFT", "SHIFT_LEFT"},
    {"COMMODORE", "CBM"}, {"C=", "CBM"}, {"BACKSPACE", "DEL"}, {" ", "SPACE"},
    {"CLR_HOME", "HOME"}, {"INST_DEL", "DEL"}, {"PLUS", "+"}, {"MINUS", "-"},
};
