/* petscii.c - PETSCII rendering, ASCII to PETSCII, CBM DOS file types and
 * name matching. */
#include "media_internal.h"

const char *mh_cbm_file_type_name(unsigned type)
{
    static const char *const names[] = {"DEL", "SEQ", "PRG", "USR", "REL"};
    return type < sizeof names / sizeof names[0] ? names[type] : "???";
}

char mh_petscii_to_ascii(uint8_t c)
{
    if (c >= 0x20 && c <= 0x5b) return (char)c; /* space .. '@', 'A'-'Z', '[' */
    if (c == 0x5d) return ']';
    if (c == 0x5e) return '^';                  /* up arrow */
    if (c >= 0x61 && c <= 0x7a) return (char)(c - 0x61 + 'a');
    if (c >= 0xc1 && c <= 0xda) return (char)(c - 0xc1 + 'a');
    if (c == 0xa0) return ' ';
    return '?';
}

int mh_petscii_from_ascii(char c)
{
    if (c >= ' ' && c <= '[') return (unsigned char)c;
    if (c == ']') return 0x5d;
    if (c == '^') return 0x5e;
    if (c >= 'a' && c <= 'z') return c - 'a' + 0x41;
    return -1;
}

size_t mh_petscii_name_length(const uint8_t *name, size_t max)
{
    size_t n = 0;
    while (n < max && name[n] != 0xa0) n++;
    return n;
}

void mh_media_i_render(char *out, const uint8_t *name, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = mh_petscii_to_ascii(name[i]);
    out[n] = '\0';
}

bool mh_cbm_name_match(const uint8_t *pattern, size_t pattern_length, const uint8_t *name,
                       size_t name_length)
{
    if (!pattern || pattern_length == 0) return false;
    for (size_t i = 0; i < pattern_length; i++) {
        if (pattern[i] == '*') return true;
        if (i >= name_length) return false;
        if (pattern[i] != '?' && pattern[i] != name[i]) return false;
    }
    return pattern_length == name_length;
}
