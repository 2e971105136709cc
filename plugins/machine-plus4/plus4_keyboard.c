/* plus4_keyboard.c - the keyboard matrix, joysticks and typed text.
 *
 * Matrix: the 6529 at $FD30 drives the 8 columns (a bit written 0 selects
 * that column); a write to the TED's $FF08 latches the rows (bit 0 = key
 * down) of the selected columns, ANDed with the joysticks the written
 * value selects (bit 1 clear: joystick 1, bit 2 clear: joystick 2; up,
 * down, left, right on bits 0-3, fire on bit 6 (joystick 1) or 7
 * (joystick 2)); a read of $FF08 returns the latch.
 *
 *   col 0: DEL RETURN POUND HELP F1 F2 F3 @
 *   col 1: 3 W A 4 Z S E SHIFT
 *   col 2: 5 R D 6 C F T X
 *   col 3: 7 Y G 8 B H U V
 *   col 4: 9 I J 0 M K O N
 *   col 5: CRSR_DOWN P L CRSR_UP . : - ,
 *   col 6: CRSR_LEFT * ; CRSR_RIGHT ESC = + /
 *   col 7: 1 HOME CTRL 2 SPACE CBM Q RUNSTOP
 *
 * Names are the C64's where the key is the same (SHIFT_LEFT, CBM, RUNSTOP,
 * CRSR_*, HOME, POUND ...), plus the Plus/4's own (HELP, ESC). The Plus/4
 * has one SHIFT (SHIFT_RIGHT is the same key) and shifted function keys:
 * F4-F7 are SHIFT + F1, F2, F3, HELP; INST and CLR are SHIFT + DEL, HOME.
 * Typed text goes through the KERNAL's keyboard buffer ($0527, count $EF).
 */
#include <stdio.h>
#include <string.h>

#include "mcphost/kit_keys.h"
#include "mcphost/media.h"
#include "plus4.h"

#define KEY(col, row) ((uint8_t)((col) * 8 + (row)))

typedef mh_kit_key key_def;

static const char *const matrix_names[64] = {
    "DEL", "RETURN", "POUND", "HELP", "F1", "F2", "F3", "@",
    "3", "W", "A", "4", "Z", "S", "E", "SHIFT_LEFT",
    "5", "R", "D", "6", "C", "F", "T", "X",
    "7", "Y", "G", "8", "B", "H", "U", "V",
    "9", "I", "J", "0", "M", "K", "O", "N",
    "CRSR_DOWN", "P", "L", "CRSR_UP", ".", ":", "-", ",",
    "CRSR_LEFT", "*", ";", "CRSR_RIGHT", "ESC", "=", "+", "/",
    "1", "HOME", "CTRL", "2", "SPACE", "CBM", "Q", "RUNSTOP"};

static const key_def combos[] = {
    {"F4", KEY(0, 4), 1}, {"F5", KEY(0, 5), 1}, {"F6", KEY(0, 6), 1}, {"F7", KEY(0, 3), 1},
    {"INST", KEY(0, 0), 1}, {"CLR", KEY(7, 1), 1},
};
#define COMBO_COUNT (sizeof combos / sizeof combos[0])

static const char *const key_name_list[] = {
    "DEL", "RETURN", "POUND", "HELP", "F1", "F2", "F3", "@",
    "3", "W", "A", "4", "Z", "S", "E", "SHIFT_LEFT",
    "5", "R", "D", "6", "C", "F", "T", "X",
    "7", "Y", "G", "8", "B", "H", "U", "V",
    "9", "I", "J", "0", "M", "K", "O", "N",
    "CRSR_DOWN", "P", "L", "CRSR_UP", ".", ":", "-", ",",
    "CRSR_LEFT", "*", ";", "CRSR_RIGHT", "ESC", "=", "+", "/",
    "1", "HOME", "CTRL", "2", "SPACE", "CBM", "Q", "RUNSTOP",
    "F4", "F5", "F6", "F7", "INST", "CLR", NULL};

const char *const *plus4_key_names(void) { return key_name_list; }

const char *plus4_matrix_key_name(unsigned column, unsigned row)
{
    return column < 8 && row < 8 ? matrix_names[column * 8 + row] : NULL;
}

static const mh_kit_key_alias aliases[] = {
    {"ENTER", "RETURN"}, {"RUN_STOP", "RUNSTOP"}, {"STOP", "RUNSTOP"},
    {"LSHIFT", "SHIFT_LEFT"}, {"RSHIFT", "SHIFT_LEFT"}, {"SHIFT", "SHIFT_LEFT"},
    {"SHIFT_RIGHT", "SHIFT_LEFT"}, {"COMMODORE", "CBM"}, {"C=", "CBM"},
    {"BACKSPACE", "DEL"}, {" ", "SPACE"}, {"CLR_HOME", "HOME"}, {"INST_DEL", "DEL"},
    {"PLUS", "+"}, {"MINUS", "-"}, {"ESCAPE", "ESC"}, {"F8", "HELP"},
};

static const mh_kit_key_table key_table = {
    matrix_names, 64, combos, COMBO_COUNT, aliases, sizeof aliases / sizeof aliases[0],
};

static void rebuild_matrix(plus4 *m)
{
    memset(m->p.kb_col, 0, sizeof m->p.kb_col);
    for (unsigned k = 0; k < 64; k++)
        if (m->p.key_count[k]) m->p.kb_col[k / 8] |= (uint8_t)(1u << (k % 8));
}

static void press(plus4 *m, uint8_t key, int down)
{
    if (down) {
        if (m->p.key_count[key] < 255) m->p.key_count[key]++;
    } else if (m->p.key_count[key]) {
        m->p.key_count[key]--;
    }
}

static void key_apply(plus4 *m, const key_def *k, int down)
{
    if (k->shift) press(m, KEY(1, 7), down);
    press(m, k->key, down);
    rebuild_matrix(m);
}

mh_status plus4_key(plus4 *m, const char *name, int down)
{
    int id = mh_kit_key_find(&key_table, name);
    if (id < 0) return MH_ERR_NOT_FOUND;
    key_def k = mh_kit_key_get(&key_table, (unsigned)id);
    key_apply(m, &k, down);
    return MH_OK;
}

uint8_t plus4_keyboard_rows(const plus4 *m, uint8_t ff08_value)
{
    uint8_t rows = 0xFF;
    for (unsigned col = 0; col < 8; col++)
        if (!(m->p.keyboard_port & (1u << col))) rows &= (uint8_t)~m->p.kb_col[col];
    static const uint8_t fire_bit[3] = {0, 0x40, 0x80};
    for (int port = 1; port <= 2; port++) {
        if (ff08_value & (port == 1 ? 0x02u : 0x04u)) continue;
        uint8_t j = m->p.joy[port];
        rows &= (uint8_t)~(j & 0x0Fu);
        if (j & MH_JOY_FIRE) rows &= (uint8_t)~fire_bit[port];
    }
    return rows;
}

/* ---- holds ---- */

mh_status plus4_key_hold(plus4 *m, const char *name, uint32_t frames)
{
    int id = mh_kit_key_find(&key_table, name);
    if (id < 0) return MH_ERR_NOT_FOUND;
    /* the id: 0-63 matrix, 64+ combination */
    mh_status status = mh_kit_holds_add_key(&m->holds, (uint8_t)id, frames);
    if (status != MH_OK) return status;
    key_def k = mh_kit_key_get(&key_table, (unsigned)id);
    key_apply(m, &k, 1);
    return MH_OK;
}

mh_status plus4_joystick(plus4 *m, int port, uint32_t mask)
{
    if (port != 1 && port != 2) return MH_ERR_INVALID_ARGUMENT;
    if (mask & ~0x1Fu) return MH_ERR_INVALID_ARGUMENT;
    mh_kit_holds_set_joystick(&m->holds, port, 0); /* a new setting replaces a hold */
    m->p.joy[port] = (uint8_t)mask;
    return MH_OK;
}

mh_status plus4_joystick_hold(plus4 *m, int port, uint32_t mask, uint32_t frames)
{
    mh_status status = plus4_joystick(m, port, mask);
    if (status == MH_OK) mh_kit_holds_set_joystick(&m->holds, port, frames);
    return status;
}

static void hold_release_key(void *machine, uint8_t key)
{
    key_def k = mh_kit_key_get(&key_table, key);
    key_apply(machine, &k, 0);
}

static void hold_release_joystick(void *machine, int port)
{
    ((plus4 *)machine)->p.joy[port] = 0;
}

static const mh_kit_holds_ops hold_ops = {hold_release_key, hold_release_joystick};

void plus4_holds_frame(plus4 *m) { mh_kit_holds_frame(&m->holds, &hold_ops, m); }

mh_status plus4_hold_state_save(const plus4 *m, uint8_t *out, size_t max, size_t *size)
{
    return mh_kit_holds_save(&m->holds, out, max, size);
}

mh_status plus4_hold_state_load(plus4 *m, const uint8_t *data, size_t size)
{
    return mh_kit_holds_load(&m->holds, data, size, 64u + (unsigned)COMBO_COUNT);
}

void plus4_release_all(plus4 *m)
{
    memset(&m->holds, 0, sizeof m->holds);
    memset(m->p.key_count, 0, sizeof m->p.key_count);
    rebuild_matrix(m);
    m->p.joy[1] = m->p.joy[2] = 0;
}

/* ---- typed text ---- */

mh_status plus4_type_text(plus4 *m, const char *text, char *error, size_t error_size)
{
    size_t n = 0;
    mh_status status = mh_kernal_queue_text(&m->p.typed, text, &n, error, error_size);
    if (status != MH_ERR_INVALID_ARGUMENT || text[n] == 0) return status;
    snprintf(error, error_size,
             "cannot type byte 0x%02X (character %zu): type printable ASCII the Plus/4 "
             "keyboard has in its power-on mode, and \\n for RETURN",
             (unsigned char)text[n], n + 1);
    return status;
}

mh_status plus4_type_codes(plus4 *m, const uint8_t *codes, size_t count, char *error,
                           size_t error_size)
{
    return mh_kernal_queue_codes(&m->p.typed, codes, count, error, error_size);
}
