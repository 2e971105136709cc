/* tm_keys.c - keyboard_type's text syntax (tm_keys.h): one table of brace
 * names to PETSCII codes, and the translator. */
#include "tm_keys.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/media.h>

typedef struct key_code {
    const char *name; /* normalized: upper case, no spaces, '_', '-' or '/' */
    uint8_t code;
} key_code;

static const key_code key_codes[] = {
    {"RETURN", 0x0D},    {"ENTER", 0x0D},     {"SHIFTRETURN", 0x8D}, {"RUNSTOP", 0x03},
    {"STOP", 0x03},      {"CLR", 0x93},       {"CLEAR", 0x93},       {"HOME", 0x13},
    {"CRSRDOWN", 0x11},  {"DOWN", 0x11},      {"CRSRUP", 0x91},      {"UP", 0x91},
    {"CRSRLEFT", 0x9D},  {"LEFT", 0x9D},      {"CRSRRIGHT", 0x1D},   {"RIGHT", 0x1D},
    {"DEL", 0x14},       {"DELETE", 0x14},    {"INST", 0x94},        {"INSERT", 0x94},
    {"F1", 0x85},        {"F2", 0x89},        {"F3", 0x86},          {"F4", 0x8A},
    {"F5", 0x87},        {"F6", 0x8B},        {"F7", 0x88},          {"F8", 0x8C},
    {"SPACE", 0x20},     {"BLK", 0x90},       {"BLACK", 0x90},       {"WHT", 0x05},
    {"WHITE", 0x05},     {"RED", 0x1C},       {"CYN", 0x9F},         {"CYAN", 0x9F},
    {"PUR", 0x9C},       {"PURPLE", 0x9C},    {"GRN", 0x1E},         {"GREEN", 0x1E},
    {"BLU", 0x1F},       {"BLUE", 0x1F},      {"YEL", 0x9E},         {"YELLOW", 0x9E},
    {"ORNG", 0x81},      {"ORANGE", 0x81},    {"BRN", 0x95},         {"BROWN", 0x95},
    {"LRED", 0x96},      {"GRY1", 0x97},      {"DGRY", 0x97},        {"GRY2", 0x98},
    {"GRY", 0x98},       {"LGRN", 0x99},      {"LBLU", 0x9A},        {"GRY3", 0x9B},
    {"LGRY", 0x9B},      {"RVSON", 0x12},     {"RVSOFF", 0x92},      {"LOWER", 0x0E},
    {"UPPER", 0x8E},     {"POUND", 0x5C},     {"ARROWUP", 0x5E},     {"ARROWLEFT", 0x5F},
};
#define KEY_CODE_COUNT (sizeof key_codes / sizeof key_codes[0])

const char *tm_keys_names(void)
{
    return "RETURN SHIFT-RETURN RUN/STOP CLR HOME CRSR DOWN, CRSR UP, CRSR LEFT, CRSR RIGHT "
           "(or DOWN UP LEFT RIGHT) DEL INST F1-F8 SPACE BLK WHT RED CYN PUR GRN BLU YEL ORNG BRN "
           "LRED GRY1 GRY2 LGRN LBLU GRY3 RVS ON, RVS OFF, LOWER UPPER POUND ARROW UP, "
           "ARROW LEFT, $XX";
}

/* Upper case without the separators; 0 when it does not fit. */
static int normalize(const char *in, size_t length, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        char ch = in[i];
        if (ch == ' ' || ch == '_' || ch == '-' || ch == '/') continue;
        if (n + 1 >= size) return 0;
        out[n++] = (char)toupper((unsigned char)ch);
    }
    out[n] = '\0';
    return n > 0;
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = (char)toupper((unsigned char)ch);
    return ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* One brace item (without the braces): its code and repeat count. */
static int brace_item(const char *item, size_t length, size_t at, uint8_t *code, unsigned *repeat,
                      char *error, size_t error_size)
{
    *repeat = 1;
    const char *star = memchr(item, '*', length);
    size_t name_length = star ? (size_t)(star - item) : length;
    if (star) {
        unsigned n = 0;
        size_t digits = length - name_length - 1;
        for (size_t i = 0; i < digits; i++) {
            char ch = star[1 + i];
            if (ch < '0' || ch > '9' || n > 255) {
                n = 0;
                break;
            }
            n = n * 10 + (unsigned)(ch - '0');
        }
        if (digits == 0 || n == 0 || n > 255) {
            snprintf(error, error_size,
                     "text: {%.*s} at character %zu: a repeat is *1 to *255, e.g. {CRSR DOWN*3}",
                     (int)(length > 40 ? 40 : length), item, at + 1);
            return -1;
        }
        *repeat = n;
    }
    if (name_length == 3 && item[0] == '$' && hex_digit(item[1]) >= 0 && hex_digit(item[2]) >= 0) {
        *code = (uint8_t)(hex_digit(item[1]) * 16 + hex_digit(item[2]));
        if (*code == 0) {
            snprintf(error, error_size, "text: {$00} at character %zu: code $00 cannot be typed",
                     at + 1);
            return -1;
        }
        return 0;
    }
    char name[32];
    if (normalize(item, name_length, name, sizeof name)) {
        for (size_t i = 0; i < KEY_CODE_COUNT; i++)
            if (strcmp(key_codes[i].name, name) == 0) {
                *code = key_codes[i].code;
                return 0;
            }
        if (strcmp(name, "RESTORE") == 0) {
            snprintf(error, error_size,
                     "text: {RESTORE} at character %zu: RESTORE is not a character the keyboard "
                     "routine reads (it raises an NMI); press it with keyboard_press "
                     "{\"keys\":[\"RESTORE\"]}",
                     at + 1);
            return -1;
        }
    }
    snprintf(error, error_size,
             "text: unknown key {%.*s} at character %zu; write one of {%s} (names ignore case, "
             "spaces and _-/), {$XX} for a PETSCII code, or \\n for RETURN",
             (int)(name_length > 40 ? 40 : name_length), item, at + 1, tm_keys_names());
    return -1;
}

long tm_keys_translate(const char *text, size_t length, uint8_t *codes, size_t capacity,
                       char *error, size_t error_size)
{
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char ch = (unsigned char)text[i];
        uint8_t code;
        unsigned repeat = 1;
        size_t at = i;
        if (ch == '{') {
            const char *close = memchr(text + i + 1, '}', length - i - 1);
            const char *nested = memchr(text + i + 1, '{', close ? (size_t)(close - text - i - 1)
                                                                 : length - i - 1);
            if (!close || nested) {
                snprintf(error, error_size,
                         "text: the { at character %zu has no closing }; write keys as "
                         "{RETURN}, {CLR}, {F1} ... (a literal { cannot be typed on a C64)",
                         i + 1);
                return -1;
            }
            size_t item_length = (size_t)(close - text) - i - 1;
            if (brace_item(text + i + 1, item_length, i, &code, &repeat, error, error_size) != 0)
                return -1;
            i += item_length + 1;
        } else if (ch == '\n' || ch == '\r') {
            if (ch == '\r' && i + 1 < length && text[i + 1] == '\n') i++;
            code = 0x0D;
        } else if (ch == '}') {
            snprintf(error, error_size,
                     "text: a } at character %zu without its {; keys are written {RETURN}", i + 1);
            return -1;
        } else {
            int p = ch < 0x80 ? mh_petscii_from_ascii((char)ch) : -1;
            if (p < 0) {
                if (ch >= 0x20 && ch < 0x7F)
                    snprintf(error, error_size,
                             "text: '%c' at character %zu has no key on the C64 in its power-on "
                             "mode; type letters, digits, space and !\"#$%%&'()*+,-./:;<=>?@[]^, "
                             "or {$XX} for a PETSCII code",
                             ch, i + 1);
                else
                    snprintf(error, error_size,
                             "text: byte 0x%02X at character %zu cannot be typed: only printable "
                             "ASCII, \\n (RETURN) and {KEY} names",
                             ch, i + 1);
                return -1;
            }
            code = (uint8_t)p;
        }
        for (unsigned r = 0; r < repeat; r++) {
            if (n == capacity) {
                snprintf(error, error_size,
                         "text: more than %zu characters (at character %zu); type it in parts",
                         capacity, at + 1);
                return -1;
            }
            codes[n++] = code;
        }
    }
    return (long)n;
}
