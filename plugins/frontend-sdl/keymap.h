/* keymap.h - the host keyboard by position onto a machine's keyboard
 * matrix: one table per machine type, from SDL scancodes (the key's
 * place on a US PC keyboard, whatever the layout prints on it) to the
 * machine's key names of mh.input/1 (machine.h). The tables are
 * documented in docs/frontend-sdl.md; keep the two in step.
 * Static data, any thread.
 */
#ifndef FE_KEYMAP_H
#define FE_KEYMAP_H

#include <SDL.h>

typedef struct fe_keymap_entry {
    SDL_Scancode scancode;
    const char *key; /* the machine's key name: "RUNSTOP", "CBM", "F1" ... */
} fe_keymap_entry;

typedef struct fe_keymap {
    const char *machine;          /* "c64" */
    const fe_keymap_entry *keys;
    size_t count;
} fe_keymap;

/* The tables (keymap_c64.c: the C64's, which the VIC-20 shares;
 * keymap_plus4.c). */
extern const fe_keymap fe_keymap_c64, fe_keymap_vic20, fe_keymap_plus4;

/* The map for a machine type, NULL when there is none (no keyboard). */
const fe_keymap *fe_keymap_for(const char *machine);
/* The machine key at a scancode, NULL when the key is not mapped. */
const char *fe_keymap_key(const fe_keymap *map, SDL_Scancode scancode);

#endif
