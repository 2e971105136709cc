/* c64_keyboard.c - the keyboard matrix, RESTORE, joysticks and typed text.
 *
 * Matrix: CIA1 PA (written to $DC00) drives the 8 columns, PB ($DC01)
 * reads the 8 rows; a held key joins column line PAc and row line PBr, and
 * c64_cia1_read_port (c64_bus.c) computes the wired-AND in both
 * directions from kb_col/kb_row. Joystick port 2 pulls PA0-4 low, port 1
 * PB0-4 (UP, DOWN, LEFT, RIGHT, FIRE = bits 0-4, the MH_JOY_* values).
 *
 * Key names are the C64's keys (letters and digits as themselves, the
 * symbol keys as their symbol, and words for the rest); a few names are
 * combinations the C64 types with SHIFT (F2, F4, F6, F8, CRSR_UP,
 * CRSR_LEFT, INST, CLR). Every key keeps a press count, so a combination
 * and a held SHIFT do not release each other. RESTORE is not in the
 * matrix: a press starts the NMI pulse of its 556 monostable.
 *
 * Typed text goes through the KERNAL's keyboard buffer ($0277, count in
 * $C6; c64_kernal_layout), not the matrix: ASCII becomes PETSCII of the
 * power-on upper case/graphics mode, "\n" is RETURN. Between run chunks
 * the machine kit's mh_kernal_feed() puts up to 10 characters in when the
 * buffer is empty and the CPU is not inside an interrupt handler or SEI
 * section (I clear).
 * c64_type_codes() queues PETSCII bytes as they are ($93 CLR, $85 F1 ...)
 * into the same queue, so text and codes are typed in the order given.
 *
 * Holds (mh.input/1 key_hold, joystick_hold): a key pressed now and
 * released by the machine after N complete frames, a joystick set now and
 * back to 0 after N frames. c64_holds_frame() counts them down where the
 * VIC-II completes a frame (mcphost/kit_holds.h), so a paused machine keeps
 * its keys down until frames run and a hold ends at the same cycle however
 * the run is cut into calls (time travel re-executes with other budgets).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c64.h"
#include "mcphost/kit_keys.h"
#include "mcphost/media.h"

#define KEY(col, row) ((uint8_t)((col) * 8 + (row)))
#define NO_KEY 0xFF

typedef mh_kit_key key_def; /* key: KEY(col,row); shift: with SHIFT_LEFT */

static const key_def keys[] = {
    {"DEL", KEY(0, 0), 0}, {"RETURN", KEY(0, 1), 0}, {"CRSR_RIGHT", KEY(0, 2), 0},
    {"F7", KEY(0, 3), 0}, {"F1", KEY(0, 4), 0}, {"F3", KEY(0, 5), 0}, {"F5", KEY(0, 6), 0},
    {"CRSR_DOWN", KEY(0, 7), 0},
    {"3", KEY(1, 0), 0}, {"W", KEY(1, 1), 0}, {"A", KEY(1, 2), 0}, {"4", KEY(1, 3), 0},
    {"Z", KEY(1, 4), 0}, {"S", KEY(1, 5), 0}, {"E", KEY(1, 6), 0}, {"SHIFT_LEFT", KEY(1, 7), 0},
    {"5", KEY(2, 0), 0}, {"R", KEY(2, 1), 0}, {"D", KEY(2, 2), 0}, {"6", KEY(2, 3), 0},
    {"C", KEY(2, 4), 0}, {"F", KEY(2, 5), 0}, {"T", KEY(2, 6), 0}, {"X", KEY(2, 7), 0},
    {"7", KEY(3, 0), 0}, {"Y", KEY(3, 1), 0}, {"G", KEY(3, 2), 0}, {"8", KEY(3, 3), 0},
    {"B", KEY(3, 4), 0}, {"H", KEY(3, 5), 0}, {"U", KEY(3, 6), 0}, {"V", KEY(3, 7), 0},
    {"9", KEY(4, 0), 0}, {"I", KEY(4, 1), 0}, {"J", KEY(4, 2), 0}, {"0", KEY(4, 3), 0},
    {"M", KEY(4, 4), 0}, {"K", KEY(4, 5), 0}, {"O", KEY(4, 6), 0}, {"N", KEY(4, 7), 0},
    {"+", KEY(5, 0), 0}, {"P", KEY(5, 1), 0}, {"L", KEY(5, 2), 0}, {"-", KEY(5, 3), 0},
    {".", KEY(5, 4), 0}, {":", KEY(5, 5), 0}, {"@", KEY(5, 6), 0}, {",", KEY(5, 7), 0},
    {"POUND", KEY(6, 0), 0}, {"*", KEY(6, 1), 0}, {";", KEY(6, 2), 0}, {"HOME", KEY(6, 3), 0},
    {"SHIFT_RIGHT", KEY(6, 4), 0}, {"=", KEY(6, 5), 0}, {"ARROW_UP", KEY(6, 6), 0},
    {"/", KEY(6, 7), 0},
    {"1", KEY(7, 0), 0}, {"ARROW_LEFT", KEY(7, 1), 0}, {"CTRL", KEY(7, 2), 0}, {"2", KEY(7, 3), 0},
    {"SPACE", KEY(7, 4), 0}, {"CBM", KEY(7, 5), 0}, {"Q", KEY(7, 6), 0}, {"RUNSTOP", KEY(7, 7), 0},
    {"RESTORE", NO_KEY, 0},
    /* Combinations with SHIFT. */
    {"F2", KEY(0, 4), 1}, {"F4", KEY(0, 5), 1}, {"F6", KEY(0, 6), 1}, {"F8", KEY(0, 3), 1},
    {"CRSR_UP", KEY(0, 7), 1}, {"CRSR_LEFT", KEY(0, 2), 1}, {"INST", KEY(0, 0), 1},
    {"CLR", KEY(6, 3), 1},
};
#define KEY_COUNT (sizeof keys / sizeof keys[0])

static const char *const key_name_list[] = {
    "DEL", "RETURN", "CRSR_RIGHT", "F7", "F1", "F3", "F5", "CRSR_DOWN",
    "3", "W", "A", "4", "Z", "S", "E", "SHIFT_LEFT",
    "5", "R", "D", "6", "C", "F", "T", "X",
    "7", "Y", "G", "8", "B", "H", "U", "V",
    "9", "I", "J", "0", "M", "K", "O", "N",
    "+", "P", "L", "-", ".", ":", "@", ",",
    "POUND", "*", ";", "HOME", "SHIFT_RIGHT", "=", "ARROW_UP", "/",
    "1", "ARROW_LEFT", "CTRL", "2", "SPACE", "CBM", "Q", "RUNSTOP",
    "RESTORE", "F2", "F4", "F6", "F8", "CRSR_UP", "CRSR_LEFT", "INST", "CLR", NULL};

const char *const *c64_key_names(void) { return key_name_list; }

/* A key's id is its index in keys[]. */
static const mh_kit_key_table key_table = {
    NULL, 0, keys, KEY_COUNT, mh_kit_commodore_key_aliases, MH_KIT_COMMODORE_KEY_ALIAS_COUNT,
};

static void rebuild_matrix(c64 *m)
{
    memset(m->p.kb_col, 0, sizeof m->p.kb_col);
    memset(m->p.kb_row, 0, sizeof m->p.kb_row);
    for (unsigned k = 0; k < 64; k++) {
        if (!m->p.key_count[k]) continue;
        unsigned col = k / 8, row = k % 8;
        m->p.kb_col[col] |= (uint8_t)(1u << row);
        m->p.kb_row[row] |= (uint8_t)(1u << col);
    }
}

static void press(c64 *m, uint8_t key, int down)
{
    if (down) {
        if (m->p.key_count[key] < 255) m->p.key_count[key]++;
    } else if (m->p.key_count[key]) {
        m->p.key_count[key]--;
    }
}

static void restore_key(c64 *m, int down)
{
    if (down && !m->p.restore_down) {
        m->p.restore_nmi = C64_NMI_RESTORE;
        m->p.restore_left = C64_RESTORE_PULSE;
        m->cpu.nmi |= C64_NMI_RESTORE;
    }
    m->p.restore_down = (uint8_t)(down != 0);
}

static void key_apply(c64 *m, const key_def *k, int down)
{
    if (k->key == NO_KEY) {
        restore_key(m, down);
        return;
    }
    press(m, k->key, down);
    if (k->shift) press(m, KEY(1, 7), down);
    rebuild_matrix(m);
}

mh_status c64_key(c64 *m, const char *name, int down)
{
    int id = mh_kit_key_find(&key_table, name);
    if (id < 0) return MH_ERR_NOT_FOUND;
    key_apply(m, &keys[id], down);
    return MH_OK;
}

/* ---- holds ---- */

mh_status c64_key_hold(c64 *m, const char *name, uint32_t frames)
{
    int id = mh_kit_key_find(&key_table, name);
    if (id < 0) return MH_ERR_NOT_FOUND;
    mh_status status = mh_kit_holds_add_key(&m->holds, (uint8_t)id, frames);
    if (status == MH_OK) key_apply(m, &keys[id], 1);
    return status;
}

mh_status c64_joystick_hold(c64 *m, int port, uint32_t mask, uint32_t frames)
{
    mh_status status = c64_joystick(m, port, mask);
    if (status == MH_OK) mh_kit_holds_set_joystick(&m->holds, port, frames);
    return status;
}

static void hold_release_key(void *machine, uint8_t key)
{
    key_apply(machine, &keys[key], 0);
}

static void hold_release_joystick(void *machine, int port) { c64_joystick(machine, port, 0); }

static const mh_kit_holds_ops hold_ops = {hold_release_key, hold_release_joystick};

void c64_holds_frame(c64 *m) { mh_kit_holds_frame(&m->holds, &hold_ops, m); }

mh_status c64_hold_state_save(const c64 *m, uint8_t *out, size_t max, size_t *size)
{
    return mh_kit_holds_save(&m->holds, out, max, size);
}

mh_status c64_hold_state_load(c64 *m, const uint8_t *data, size_t size)
{
    return mh_kit_holds_load(&m->holds, data, size, (unsigned)KEY_COUNT);
}

void c64_update_lightpen(c64 *m)
{
    /* /LP: CIA1 PB4 driven low, or joystick 1's fire button. */
    uint8_t pb = m6526_port_output(&m->cia1, M6526_PORT_B);
    uint8_t low = (uint8_t)(!(pb & 0x10) || (m->p.joy[1] & MH_JOY_FIRE));
    if (low != m->p.lightpen_low) {
        m->p.lightpen_low = low;
        m6569_set_lightpen(&m->vic, low);
    }
}

mh_status c64_joystick(c64 *m, int port, uint32_t mask)
{
    if (port != 1 && port != 2) return MH_ERR_INVALID_ARGUMENT;
    if (mask & ~0x1Fu) return MH_ERR_INVALID_ARGUMENT;
    mh_kit_holds_set_joystick(&m->holds, port, 0); /* a new setting replaces a hold */
    m->p.joy[port] = (uint8_t)mask;
    if (port == 1) c64_update_lightpen(m);
    return MH_OK;
}

void c64_release_all(c64 *m)
{
    memset(&m->holds, 0, sizeof m->holds);
    memset(m->p.key_count, 0, sizeof m->p.key_count);
    rebuild_matrix(m);
    m->p.restore_down = 0;
    m->p.joy[1] = m->p.joy[2] = 0;
    c64_update_lightpen(m);
}

/* ---- typed text ---- */

mh_status c64_type_text(c64 *m, const char *text, char *error, size_t error_size)
{
    size_t n = 0;
    mh_status status = mh_kernal_queue_text(&m->p.typed, text, &n, error, error_size);
    if (status != MH_ERR_INVALID_ARGUMENT || text[n] == 0) return status;
    unsigned char c = (unsigned char)text[n];
    if (c >= 0x20 && c < 0x7F)
        snprintf(error, error_size,
                 "cannot type '%c' (character %zu): the C64 keyboard has no such key in "
                 "its power-on mode; type letters, digits, space, !\"#$%%&'()*+,-./:;<=>?@[]^ "
                 "and \\n for RETURN",
                 c, n + 1);
    else
        snprintf(error, error_size,
                 "cannot type byte 0x%02X (character %zu): only printable ASCII and \\n "
                 "(RETURN) can be typed",
                 c, n + 1);
    return status;
}

mh_status c64_type_codes(c64 *m, const uint8_t *codes, size_t count, char *error,
                         size_t error_size)
{
    return mh_kernal_queue_codes(&m->p.typed, codes, count, error, error_size);
}
