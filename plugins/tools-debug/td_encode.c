/* td_encode.c - hex and base64 from runs of bytes (td_encode.h). */
#include <string.h>

#include "td_encode.h"
#include "td_util.h"

/* Base64 two characters at a time: b64_pairs[v] is the two characters of
 * the 12 bits v, so a 3-byte group is two table loads. */
#define B64_ROW(h) \
    {h, 'A'}, {h, 'B'}, {h, 'C'}, {h, 'D'}, {h, 'E'}, {h, 'F'}, {h, 'G'}, {h, 'H'}, {h, 'I'}, \
    {h, 'J'}, {h, 'K'}, {h, 'L'}, {h, 'M'}, {h, 'N'}, {h, 'O'}, {h, 'P'}, {h, 'Q'}, {h, 'R'}, \
    {h, 'S'}, {h, 'T'}, {h, 'U'}, {h, 'V'}, {h, 'W'}, {h, 'X'}, {h, 'Y'}, {h, 'Z'}, {h, 'a'}, \
    {h, 'b'}, {h, 'c'}, {h, 'd'}, {h, 'e'}, {h, 'f'}, {h, 'g'}, {h, 'h'}, {h, 'i'}, {h, 'j'}, \
    {h, 'k'}, {h, 'l'}, {h, 'm'}, {h, 'n'}, {h, 'o'}, {h, 'p'}, {h, 'q'}, {h, 'r'}, {h, 's'}, \
    {h, 't'}, {h, 'u'}, {h, 'v'}, {h, 'w'}, {h, 'x'}, {h, 'y'}, {h, 'z'}, {h, '0'}, {h, '1'}, \
    {h, '2'}, {h, '3'}, {h, '4'}, {h, '5'}, {h, '6'}, {h, '7'}, {h, '8'}, {h, '9'}, {h, '+'}, \
    {h, '/'}
static const char b64_pairs[4096][2] = {
    B64_ROW('A'), B64_ROW('B'), B64_ROW('C'), B64_ROW('D'), B64_ROW('E'), B64_ROW('F'),
    B64_ROW('G'), B64_ROW('H'), B64_ROW('I'), B64_ROW('J'), B64_ROW('K'), B64_ROW('L'),
    B64_ROW('M'), B64_ROW('N'), B64_ROW('O'), B64_ROW('P'), B64_ROW('Q'), B64_ROW('R'),
    B64_ROW('S'), B64_ROW('T'), B64_ROW('U'), B64_ROW('V'), B64_ROW('W'), B64_ROW('X'),
    B64_ROW('Y'), B64_ROW('Z'), B64_ROW('a'), B64_ROW('b'), B64_ROW('c'), B64_ROW('d'),
    B64_ROW('e'), B64_ROW('f'), B64_ROW('g'), B64_ROW('h'), B64_ROW('i'), B64_ROW('j'),
    B64_ROW('k'), B64_ROW('l'), B64_ROW('m'), B64_ROW('n'), B64_ROW('o'), B64_ROW('p'),
    B64_ROW('q'), B64_ROW('r'), B64_ROW('s'), B64_ROW('t'), B64_ROW('u'), B64_ROW('v'),
    B64_ROW('w'), B64_ROW('x'), B64_ROW('y'), B64_ROW('z'), B64_ROW('0'), B64_ROW('1'),
    B64_ROW('2'), B64_ROW('3'), B64_ROW('4'), B64_ROW('5'), B64_ROW('6'), B64_ROW('7'),
    B64_ROW('8'), B64_ROW('9'), B64_ROW('+'), B64_ROW('/'),
};
static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_groups(char *out, const uint8_t *in, size_t groups)
{
    for (size_t g = 0; g < groups; g++, in += 3, out += 4) {
        uint32_t v = (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
        memcpy(out, b64_pairs[v >> 12], 2);
        memcpy(out + 2, b64_pairs[v & 0xFFFu], 2);
    }
    return out;
}

static void base64_run(td_encoder *e, const uint8_t *bytes, size_t n)
{
    /* complete the group the last run began (carried < 3 always holds; said
     * here so an optimiser's bounds check sees it too) */
    while (e->carried && e->carried < 3 && n) {
        e->carry[e->carried++] = *bytes++;
        n--;
        if (e->carried == 3) {
            e->base64 = b64_groups(e->base64, e->carry, 1);
            e->carried = 0;
        }
    }
    size_t groups = n / 3;
    e->base64 = b64_groups(e->base64, bytes, groups);
    for (size_t i = groups * 3; i < n && e->carried < 3; i++) e->carry[e->carried++] = bytes[i];
}

void td_encoder_run(void *user, const uint8_t *bytes, size_t n)
{
    td_encoder *e = user;
    if (e->keep_left) {
        size_t k = n < e->keep_left ? n : e->keep_left;
        memcpy(e->keep, bytes, k);
        e->keep += k;
        e->keep_left -= k;
    }
    if (e->hex) e->hex += td_hex_compact(e->hex, bytes, n);
    if (e->base64) base64_run(e, bytes, n);
}

char *td_encoder_finish(td_encoder *e)
{
    if (!e->base64) return NULL;
    if (e->carried) {
        uint32_t v = (uint32_t)e->carry[0] << 16;
        if (e->carried == 2) v |= (uint32_t)e->carry[1] << 8;
        char *out = e->base64;
        out[0] = b64_alphabet[v >> 18];
        out[1] = b64_alphabet[(v >> 12) & 63];
        out[2] = e->carried == 2 ? b64_alphabet[(v >> 6) & 63] : '=';
        out[3] = '=';
        e->base64 += 4;
        e->carried = 0;
    }
    return e->base64;
}
