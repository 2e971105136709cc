/* vic20_keyboard.c - the keyboard matrix, RESTORE, the joystick and typed
 * text.
 *
 * Matrix: VIA2 port B ($9120) drives the 8 columns, port A ($9121) reads
 * the 8 rows; a held key joins column PBc and row PAr both ways
 * (vic20_via2_read_port computes the wired AND from kb_col/kb_row). The
 * layout is the KERNAL's decode table's (column * 8 + row):
 *   PB0: 1 3 5 7 9 + POUND DEL          PB4: SPACE Z C B M . SHIFT_RIGHT F1
 *   PB1: <- W R Y I P * RETURN          PB5: CBM S F H K : = F3
 *   PB2: CTRL A D G J L ; CRSR_RIGHT    PB6: Q E T U O @ ARROW_UP F5
 *   PB3: RUNSTOP SHIFT_LEFT X V N , / CRSR_DOWN
 *                                       PB7: 2 4 6 8 0 - HOME F7
 * Key names are the C64's where the key is the same. RESTORE is not in the
 * matrix: it pulls VIA1's CA1 low while held (an NMI when enabled).
 *
 * Joystick (one control port; mh.input/1 port 1, port 2 accepted as the
 * same): up, down, left and fire on VIA1 PA2-PA5, right on VIA2 PB7; fire
 * is also the light pen input (a press latches the beam in $9006/$9007).
 *
 * Typed text goes through the KERNAL's keyboard buffer ($0277, count $C6)
 * like on the C64 (mh_kernal_feed between run chunks).
 */
#include <stdio.h>
#include <string.h>

#include "mcphost/kit_keys.h"
#include "mcphost/media.h"
#include "vic20.h"

#define KEY(col, row) ((uint8_t)((col) * 8 + (row)))
#define NO_KEY 0xFF

typedef mh_kit_key key_def;

static const char *const matrix_names[64] = {
    "1", "3", "5", "7", "9", "+", "POUND", "DEL",
    "ARROW_LEFT", "W", "R", "Y", "I", "P", "*", "RETURN",
    "CTRL", "A", "D", "G", "J", "L", ";", "CRSR_RIGHT",
    "RUNSTOP", "SHIFT_LEFT", "X", "V", "N", ",", "/", "CRSR_DOWN",
    "SPACE", "Z", "C", "B", "M", ".", "SHIFT_RIGHT", "F1",
    "CBM", "S", "F", "H", "K", ":", "=", "F3",
    "Q", "E", "T", "U", "O", "@", "ARROW_UP", "F5",
    "2", "4", "6", "8", "0", "-", "HOME", "F7"};

/* Combinations with SHIFT, as on the C64. */
static const key_def combos[] = {
    {"F2", KEY(4, 7), 1}, {"F4", KEY(5, 7), 1}, {"F6", KEY(6, 7), 1}, {"F8", KEY(7, 7), 1},
    {"CRSR_UP", KEY(3, 7), 1}, {"CRSR_LEFT", KEY(2, 7), 1}, {"INST", KEY(0, 7), 1},
    {"CLR", KEY(7, 6), 1}, {"RESTORE", NO_KEY, 0},
};
#define COMBO_COUNT (sizeof combos / sizeof combos[0])
#define SHIFT_KEY KEY(3, 1)

static const char *const key_name_list[] = {
    "1", "3", "5", "7", "9", "+", "POUND", "DEL",
    "ARROW_LEFT", "W", "R", "Y", "I", "P", "*", "RETURN",
    "CTRL", "A", "D", "G", "J", "L", ";", "CRSR_RIGHT",
    "RUNSTOP", "SHIFT_LEFT", "X", "V", "N", ",", "/", "CRSR_DOWN",
    "SPACE", "Z", "C", "B", "M", ".", "SHIFT_RIGHT", "F1",
    "CBM", "S", "F", "H", "K", ":", "=", "F3",
    "Q", "E", "T", "U", "O", "@", "ARROW_UP", "F5",
    "2", "4", "6", "8", "0", "-", "HOME", "F7",
    "F2", "F4", "F6", "F8", "CRSR_UP", "CRSR_LEFT", "INST", "CLR", "RESTORE", NULL};

const char *const *vic20_key_names(void) { return key_name_list; }

static const mh_kit_key_table key_table = {
    matrix_names, 64, combos, COMBO_COUNT, mh_kit_commodore_key_aliases, MH_KIT_COMMODORE_KEY_ALIAS_COUNT,
};

static void rebuild_matrix(vic20 *m)
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

static void press(vic20 *m, uint8_t key, int down)
{
    if (down) {
        if (m->p.key_count[key] < 255) m->p.key_count[key]++;
    } else if (m->p.key_count[key]) {
        m->p.key_count[key]--;
    }
}

static void key_apply(vic20 *m, const key_def *k, int down)
{
    if (k->key == NO_KEY) {
        m->p.restore_down = (uint8_t)(down != 0);
        vic20_via_catch_up(m);
        m6522_set_ca1(&m->via1, !down);
        vic20_via_changed(m);
        return;
    }
    press(m, k->key, down);
    if (k->shift) press(m, SHIFT_KEY, down);
    rebuild_matrix(m);
}

mh_status vic20_key(vic20 *m, const char *name, int down)
{
    int id = mh_kit_key_find(&key_table, name);
    if (id < 0) return MH_ERR_NOT_FOUND;
    key_def k = mh_kit_key_get(&key_table, (unsigned)id);
    key_apply(m, &k, down);
    return MH_OK;
}

/* ---- holds ---- */

mh_status vic20_key_hold(vic20 *m, const char *name, uint32_t frames)
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

mh_status vic20_joystick(vic20 *m, int port, uint32_t mask)
{
    if (port != 1 && port != 2) return MH_ERR_INVALID_ARGUMENT;
    if (mask & ~0x1Fu) return MH_ERR_INVALID_ARGUMENT;
    mh_kit_holds_set_joystick(&m->holds, 1, 0); /* a new setting replaces a hold (held as port 1) */
    /* Fire is also the VIC's light pen input: a press latches the beam. */
    if ((mask & MH_JOY_FIRE) && !(m->p.joy & MH_JOY_FIRE)) {
        vic20_vic_catch_up(m);
        m6561_set_lightpen(&m->vic);
    }
    m->p.joy = (uint8_t)mask;
    return MH_OK;
}

mh_status vic20_joystick_hold(vic20 *m, int port, uint32_t mask, uint32_t frames)
{
    mh_status status = vic20_joystick(m, port, mask);
    if (status == MH_OK) mh_kit_holds_set_joystick(&m->holds, 1, frames);
    return status;
}

static void hold_release_key(void *machine, uint8_t key)
{
    key_def k = mh_kit_key_get(&key_table, key);
    key_apply(machine, &k, 0);
}

static void hold_release_joystick(void *machine, int port)
{
    (void)port; /* the VIC-20 has one joystick (held as port 1) */
    ((vic20 *)machine)->p.joy = 0;
}

static const mh_kit_holds_ops hold_ops = {hold_release_key, hold_release_joystick};

void vic20_holds_frame(vic20 *m) { mh_kit_holds_frame(&m->holds, &hold_ops, m); }

mh_status vic20_hold_state_save(const vic20 *m, uint8_t *out, size_t max, size_t *size)
{
    return mh_kit_holds_save(&m->holds, out, max, size);
}

mh_status vic20_hold_state_load(vic20 *m, const uint8_t *data, size_t size)
{
    return mh_kit_holds_load(&m->holds, data, size, 64u + (unsigned)COMBO_COUNT);
}

void vic20_release_all(vic20 *m)
{
    memset(&m->holds, 0, sizeof m->holds);
    memset(m->p.key_count, 0, sizeof m->p.key_count);
    rebuild_matrix(m);
    if (m->p.restore_down) {
        key_def restore = {"RESTORE", NO_KEY, 0};
        key_apply(m, &restore, 0);
    }
    m->p.joy = 0;
}

/* ---- typed text ---- */

mh_status vic20_type_text(vic20 *m, const char *text, char *error, size_t error_size)
{
    size_t n = 0;
    mh_status status = mh_kernal_queue_text(&m->p.typed, text, &n, error, error_size);
    if (status != MH_ERR_INVALID_ARGUMENT || text[n] == 0) return status;
    unsigned char c = (unsigned char)text[n];
    snprintf(error, error_size,
             "cannot type byte 0x%02X (character %zu): the VIC-20 keyboard has no such "
             "key in its power-on mode; type printable ASCII and \\n for RETURN",
             c, n + 1);
    return status;
}

mh_status vic20_type_codes(vic20 *m, const uint8_t *codes, size_t count, char *error,
                           size_t error_size)
{
    return mh_kernal_queue_codes(&m->p.typed, codes, count, error, error_size);
}
