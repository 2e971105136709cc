/* keymap.c - which table a machine type's keyboard uses (keymap.h). */
#include <string.h>

#include "keymap.h"

static const fe_keymap *const maps[] = {&fe_keymap_c64, &fe_keymap_vic20, &fe_keymap_plus4};

const fe_keymap *fe_keymap_for(const char *machine)
{
    for (size_t i = 0; machine && i < sizeof maps / sizeof maps[0]; i++)
        if (strcmp(maps[i]->machine, machine) == 0) return maps[i];
    return NULL;
}

const char *fe_keymap_key(const fe_keymap *map, SDL_Scancode scancode)
{
    for (size_t i = 0; map && i < map->count; i++)
        if (map->keys[i].scancode == scancode) return map->keys[i].key;
    return NULL;
}
