/* ted_palette.c - the TED's 121 colours: 16 hues x 8 luminances, hue 0
 * black at every luminance. Index = luminance << 4 | hue, as in the colour
 * registers.
 *
 * Source: the measured YUV values of Philip Timmermann ("pepto") and John
 * Selck, the "colodore" revision VICE's xplus4 uses (VICE
 * src/plus4/ted-color.c: research credited to them; only the numbers are
 * taken): the luma of luminance 0-7 is 32, 48, 64, 80, 120, 144, 192 and
 * 256 on a 0-256 scale (hue 1, white, at that luma without chroma); every
 * other hue has chroma 56 at one of the angles in the UV plane (degrees,
 * then all turned by the measured phase shift of -9.5): red 112.5, cyan
 * 112.5 + 180, purple -112.5 + 180, green -112.5, blue 0, yellow 180,
 * orange 135, brown 157.5, yellow-green -157.5, pink 90, blue-green -90,
 * light blue -22.5, dark blue 22.5, light green -135. Each colour is
 * U = 56 cos(angle), V = 56 sin(angle), then the PAL matrix R = Y + 1.140 V,
 * G = Y - 0.396 U - 0.581 V, B = Y + 2.029 U, rounded and clipped to
 * 0-255. VICE then applies its CRT gamma and the user's colour settings;
 * this table is the plain conversion (luminance 7 white is full white). */
#include "ted.h"

static const uint32_t palette[128] = {
    /* luminance 0 */
    0x000000, 0x202020, 0x5E0506, 0x003B3A, 0x56005C, 0x004700, 0x150F90, 0x2B3100,
    0x541200, 0x422200, 0x123D00, 0x5F0033, 0x00440D, 0x001E80, 0x2E038F, 0x004500,
    /* luminance 1 */
    0x000000, 0x303030, 0x6E1516, 0x004B4A, 0x66096C, 0x005700, 0x251FA0, 0x3B4100,
    0x642200, 0x523200, 0x224D00, 0x6F0C43, 0x00541D, 0x0E2E90, 0x3E139F, 0x0B5500,
    /* luminance 2 */
    0x000000, 0x404040, 0x7E2526, 0x025B5A, 0x76197C, 0x0A6704, 0x352FB0, 0x4B5100,
    0x743200, 0x624200, 0x325D00, 0x7F1C53, 0x01642D, 0x1E3EA0, 0x4E23AF, 0x1B6500,
    /* luminance 3 */
    0x000000, 0x505050, 0x8E3536, 0x126B6A, 0x86298C, 0x1A7714, 0x453FC0, 0x5B6100,
    0x84420E, 0x725200, 0x426D00, 0x8F2C63, 0x11743D, 0x2E4EB0, 0x5E33BF, 0x2B7500,
    /* luminance 4 */
    0x000000, 0x787878, 0xB65D5E, 0x3A9392, 0xAE51B4, 0x429F3C, 0x6D67E8, 0x838908,
    0xAC6A36, 0x9A7A18, 0x6A9509, 0xB7548B, 0x399C65, 0x5676D8, 0x865BE7, 0x539D1B,
    /* luminance 5 */
    0x000000, 0x909090, 0xCE7576, 0x52ABAA, 0xC669CC, 0x5AB754, 0x857FFF, 0x9BA120,
    0xC4824E, 0xB29230, 0x82AD21, 0xCF6CA3, 0x51B47D, 0x6E8EF0, 0x9E73FF, 0x6BB533,
    /* luminance 6 */
    0x000000, 0xC0C0C0, 0xFEA5A6, 0x82DBDA, 0xF699FC, 0x8AE784, 0xB5AFFF, 0xCBD150,
    0xF4B27E, 0xE2C260, 0xB2DD51, 0xFF9CD3, 0x81E4AD, 0x9EBEFF, 0xCEA3FF, 0x9BE563,
    /* luminance 7 */
    0x000000, 0xFFFFFF, 0xFFE5E6, 0xC2FFFF, 0xFFD9FF, 0xCAFFC4, 0xF5EFFF, 0xFFFF90,
    0xFFF2BE, 0xFFFFA0, 0xF2FF91, 0xFFDCFF, 0xC1FFED, 0xDEFEFF, 0xFFE3FF, 0xDBFFA3,
};

const uint32_t *ted_palette(void) { return palette; }
