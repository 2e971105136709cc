/* keymap_c64.c - the C64 keyboard by position (keymap.h). The C64 keys
 * sit where they sit on the real machine: the key right of 0 is '+',
 * then '-', and so on. Shift on the host is SHIFT on the C64, so
 * Shift+2 types '"' as on a C64. The VIC-20's keyboard is the same, key
 * for key, and its mh.input/1 takes the same names (vic20_keyboard.c), so
 * it shares this table. */
#include "keymap.h"

static const fe_keymap_entry c64_keys[] = {
    /* top row: <- 1 2 3 4 5 6 7 8 9 0 + - POUND CLR/HOME INST/DEL */
    {SDL_SCANCODE_GRAVE, "ARROW_LEFT"},
    {SDL_SCANCODE_1, "1"}, {SDL_SCANCODE_2, "2"}, {SDL_SCANCODE_3, "3"}, {SDL_SCANCODE_4, "4"},
    {SDL_SCANCODE_5, "5"}, {SDL_SCANCODE_6, "6"}, {SDL_SCANCODE_7, "7"}, {SDL_SCANCODE_8, "8"},
    {SDL_SCANCODE_9, "9"}, {SDL_SCANCODE_0, "0"},
    {SDL_SCANCODE_MINUS, "+"}, {SDL_SCANCODE_EQUALS, "-"}, {SDL_SCANCODE_INSERT, "POUND"},
    {SDL_SCANCODE_HOME, "HOME"}, {SDL_SCANCODE_BACKSPACE, "DEL"},
    /* second row: CTRL Q W E R T Y U I O P @ * ^ RESTORE */
    {SDL_SCANCODE_TAB, "CTRL"},
    {SDL_SCANCODE_Q, "Q"}, {SDL_SCANCODE_W, "W"}, {SDL_SCANCODE_E, "E"}, {SDL_SCANCODE_R, "R"},
    {SDL_SCANCODE_T, "T"}, {SDL_SCANCODE_Y, "Y"}, {SDL_SCANCODE_U, "U"}, {SDL_SCANCODE_I, "I"},
    {SDL_SCANCODE_O, "O"}, {SDL_SCANCODE_P, "P"},
    {SDL_SCANCODE_LEFTBRACKET, "@"}, {SDL_SCANCODE_RIGHTBRACKET, "*"},
    {SDL_SCANCODE_BACKSLASH, "ARROW_UP"}, {SDL_SCANCODE_PAGEUP, "RESTORE"},
    /* third row: RUN/STOP A S D F G H J K L : ; = RETURN */
    {SDL_SCANCODE_ESCAPE, "RUNSTOP"},
    {SDL_SCANCODE_A, "A"}, {SDL_SCANCODE_S, "S"}, {SDL_SCANCODE_D, "D"}, {SDL_SCANCODE_F, "F"},
    {SDL_SCANCODE_G, "G"}, {SDL_SCANCODE_H, "H"}, {SDL_SCANCODE_J, "J"}, {SDL_SCANCODE_K, "K"},
    {SDL_SCANCODE_L, "L"},
    {SDL_SCANCODE_SEMICOLON, ":"}, {SDL_SCANCODE_APOSTROPHE, ";"},
    {SDL_SCANCODE_NONUSHASH, "="}, {SDL_SCANCODE_END, "="},
    {SDL_SCANCODE_RETURN, "RETURN"}, {SDL_SCANCODE_KP_ENTER, "RETURN"},
    /* fourth row: C= SHIFT Z X C V B N M , . / SHIFT */
    {SDL_SCANCODE_LCTRL, "CBM"}, {SDL_SCANCODE_LSHIFT, "SHIFT_LEFT"},
    {SDL_SCANCODE_NONUSBACKSLASH, "SHIFT_LEFT"},
    {SDL_SCANCODE_Z, "Z"}, {SDL_SCANCODE_X, "X"}, {SDL_SCANCODE_C, "C"}, {SDL_SCANCODE_V, "V"},
    {SDL_SCANCODE_B, "B"}, {SDL_SCANCODE_N, "N"}, {SDL_SCANCODE_M, "M"},
    {SDL_SCANCODE_COMMA, ","}, {SDL_SCANCODE_PERIOD, "."}, {SDL_SCANCODE_SLASH, "/"},
    {SDL_SCANCODE_RSHIFT, "SHIFT_RIGHT"},
    {SDL_SCANCODE_SPACE, "SPACE"},
    /* cursor keys: the C64's two keys with and without SHIFT */
    {SDL_SCANCODE_DOWN, "CRSR_DOWN"}, {SDL_SCANCODE_RIGHT, "CRSR_RIGHT"},
    {SDL_SCANCODE_UP, "CRSR_UP"}, {SDL_SCANCODE_LEFT, "CRSR_LEFT"},
    /* function keys: F2/F4/F6/F8 are SHIFT+F1/F3/F5/F7 on the C64 */
    {SDL_SCANCODE_F1, "F1"}, {SDL_SCANCODE_F2, "F2"}, {SDL_SCANCODE_F3, "F3"},
    {SDL_SCANCODE_F4, "F4"}, {SDL_SCANCODE_F5, "F5"}, {SDL_SCANCODE_F6, "F6"},
    {SDL_SCANCODE_F7, "F7"}, {SDL_SCANCODE_F8, "F8"},
};

const fe_keymap fe_keymap_c64 = {"c64", c64_keys, sizeof c64_keys / sizeof c64_keys[0]};
const fe_keymap fe_keymap_vic20 = {"vic20", c64_keys, sizeof c64_keys / sizeof c64_keys[0]};
