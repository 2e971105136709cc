/* td_chipregs.c - chip register names and cheap meanings for the frame
 * trace (td_chipregs.h). The names are the data sheets' short ones. */
#include "td_chipregs.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <mcphost/chip_cia.h>
#include <mcphost/chip_io.h>
#include <mcphost/chip_sid.h>
#include <mcphost/chip_ted.h>
#include <mcphost/chip_via.h>
#include <mcphost/chip_vic.h>
#include <mcphost/chip_vic2.h>

enum { K_VIC2, K_CIA, K_SID, K_VIA, K_VIC, K_TED };

static const char *const vic2_names[47] = {
    "M0X", "M0Y", "M1X", "M1Y", "M2X", "M2Y", "M3X", "M3Y", "M4X", "M4Y", "M5X", "M5Y",
    "M6X", "M6Y", "M7X", "M7Y", "MSBX", "CR1", "RASTER", "LPX", "LPY", "ME", "CR2", "MYE",
    "MEMPTR", "IRR", "IMR", "MDP", "MMC", "MXE", "MM", "MD", "EC", "B0C", "B1C", "B2C",
    "B3C", "MM0", "MM1", "M0C", "M1C", "M2C", "M3C", "M4C", "M5C", "M6C", "M7C"};
static const char *const cia_names[16] = {"PRA", "PRB", "DDRA", "DDRB", "TALO", "TAHI",
                                          "TBLO", "TBHI", "TOD10", "TODSEC", "TODMIN",
                                          "TODHR", "SDR", "ICR", "CRA", "CRB"};
static const char *const sid_names[29] = {
    "V1FREQLO", "V1FREQHI", "V1PWLO", "V1PWHI", "V1CTRL", "V1AD", "V1SR",
    "V2FREQLO", "V2FREQHI", "V2PWLO", "V2PWHI", "V2CTRL", "V2AD", "V2SR",
    "V3FREQLO", "V3FREQHI", "V3PWLO", "V3PWHI", "V3CTRL", "V3AD", "V3SR",
    "FCLO", "FCHI", "RESFILT", "MODEVOL", "POTX", "POTY", "OSC3", "ENV3"};
static const char *const via_names[16] = {"ORB", "ORA", "DDRB", "DDRA", "T1CL", "T1CH",
                                          "T1LL", "T1LH", "T2CL", "T2CH", "SR", "ACR",
                                          "PCR", "IFR", "IER", "ORA_NH"};
static const char *const vic_names[16] = {"CR0", "CR1", "CR2", "CR3", "CR4", "CR5",
                                          "CR6", "CR7", "CR8", "CR9", "CRA", "CRB",
                                          "CRC", "CRD", "CRE", "CRF"};
static const char *const ted_names[64] = {
    "T1LO", "T1HI", "T2LO", "T2HI", "T3LO", "T3HI", "CTRL1", "CTRL2", "KEYLATCH", "IRQ",
    "IMR", "RASTERCMP", "CURHI", "CURLO", "V1FREQLO", "V2FREQLO", "V2FREQHI", "SOUND",
    "BITMAP", "CHARBASE", "VIDEOBASE", "BG0", "BG1", "BG2", "BG3", "BORDER", "CHPOSHI",
    "CHPOSLO", "VLINEHI", "VLINELO", "HPOS", "BLINK", [0x3E] = "ROMSEL", [0x3F] = "RAMSEL"};

static const char *const c64_colours[16] = {
    "black", "white", "red", "cyan", "purple", "green", "blue", "yellow", "orange", "brown",
    "light red", "dark grey", "grey", "light green", "light blue", "light grey"};
static const char *const ted_hues[16] = {
    "black", "white", "red", "cyan", "purple", "green", "blue", "yellow", "orange", "brown",
    "yellow-green", "pink", "blue-green", "light blue", "dark blue", "light green"};

static const struct family {
    const char *iface, *family;
    uint32_t registers, stride;
    const char *const *names;
} families[] = {
    [K_VIC2] = {MH_CHIP_VIC2_IFACE, "VIC-II", 47, 64, vic2_names},
    [K_CIA] = {MH_CHIP_CIA_IFACE, "CIA", 16, 16, cia_names},
    [K_SID] = {MH_CHIP_SID_IFACE, "SID", 29, 32, sid_names},
    [K_VIA] = {MH_CHIP_VIA_IFACE, "VIA", 16, 16, via_names},
    [K_VIC] = {MH_CHIP_VIC_IFACE, "VIC", 16, 16, vic_names},
    [K_TED] = {MH_CHIP_TED_IFACE, "TED", 64, 64, ted_names},
};

#define RANGE_OF(type, chip, out)                                                               \
    do {                                                                                        \
        const type *v = (chip)->vtable;                                                         \
        if (MH_CHIP_IFACE_HAS(v, type, io_range)) v->io_range((chip)->context, (out));          \
    } while (0)

static void range_of(unsigned kind, const mh_chip *chip, mh_chip_io_range *out)
{
    switch (kind) {
    case K_VIC2: RANGE_OF(mh_chip_vic2_iface, chip, out); break;
    case K_CIA: RANGE_OF(mh_chip_cia_iface, chip, out); break;
    case K_SID: RANGE_OF(mh_chip_sid_iface, chip, out); break;
    case K_VIA: RANGE_OF(mh_chip_via_iface, chip, out); break;
    case K_VIC: RANGE_OF(mh_chip_vic_iface, chip, out); break;
    case K_TED: RANGE_OF(mh_chip_ted_iface, chip, out); break;
    default: break;
    }
}

size_t td_chips_of(td_plugin *plugin, mh_session *session, td_chip_map *out, size_t max)
{
    size_t n = 0, count = plugin->sessions->chip_count(session);
    for (size_t i = 0; i < count && n < max; i++) {
        const mh_chip *chip = plugin->sessions->chip_at(session, i);
        for (unsigned k = 0; chip && k < sizeof families / sizeof families[0]; k++) {
            if (strcmp(chip->interface_id, families[k].iface) != 0) continue;
            mh_chip_io_range range = {0, 0};
            range_of(k, chip, &range);
            if (!range.size) break;
            out[n++] = (td_chip_map){chip->instance, families[k].family, range.base, range.size,
                                     families[k].registers, families[k].stride, k};
            break;
        }
    }
    return n;
}

int td_chip_at(const td_chip_map *chips, size_t n, uint16_t address, int *reg)
{
    for (size_t i = 0; i < n; i++) {
        if (address < chips[i].base || address - chips[i].base >= chips[i].size) continue;
        uint32_t offset = (address - chips[i].base) % chips[i].stride;
        *reg = offset < chips[i].registers ? (int)offset : -1;
        return (int)i;
    }
    *reg = -1;
    return -1;
}

const char *td_chip_reg_name(const td_chip_map *chip, int reg)
{
    if (reg < 0 || (uint32_t)reg >= chip->registers) return "";
    const char *name = families[chip->kind].names[reg];
    return name ? name : "";
}

int td_chip_reg_by_name(const td_chip_map *chip, const char *name)
{
    for (uint32_t r = 0; r < chip->registers; r++) {
        const char *have = families[chip->kind].names[r];
        if (have && strcasecmp(have, name) == 0) return (int)r;
    }
    return -1;
}

static void vic2_meaning(int reg, uint8_t value, char *out, size_t size)
{
    if (reg >= 0x20 && reg <= 0x2E) {
        static const char *const what[] = {"border", "background 0", "background 1",
                                           "background 2", "background 3", "sprite multicolour 0",
                                           "sprite multicolour 1"};
        if (reg <= 0x26)
            snprintf(out, size, "%s colour = %u (%s)", what[reg - 0x20], value & 15u,
                     c64_colours[value & 15u]);
        else
            snprintf(out, size, "sprite %d colour = %u (%s)", reg - 0x27, value & 15u,
                     c64_colours[value & 15u]);
    } else if (reg == 0x12) {
        snprintf(out, size, "raster compare line bits 0-7 = %u", value);
    } else if (reg == 0x11) {
        snprintf(out, size, "screen %s, %s mode, y scroll %u, raster bit 8 = %u",
                 value & 0x10 ? "on" : "off", value & 0x20 ? "bitmap" : "text", value & 7u,
                 value >> 7);
    } else if (reg == 0x19) {
        snprintf(out, size, "acknowledge IRQ bits $%02X", value & 15u);
    } else if (reg == 0x1A) {
        snprintf(out, size, "IRQ enable: raster %u, sprite-bg %u, sprite-sprite %u, light pen %u",
                 value & 1u, value >> 1 & 1u, value >> 2 & 1u, value >> 3 & 1u);
    }
}

static void ted_meaning(int reg, uint8_t value, char *out, size_t size)
{
    if (reg >= 0x15 && reg <= 0x19)
        snprintf(out, size, "%s colour = %s, luminance %u",
                 reg == 0x19 ? "border" : reg == 0x15 ? "background" : "extra background",
                 ted_hues[value & 15u], value >> 4 & 7u);
    else if (reg == 0x09)
        snprintf(out, size, "acknowledge IRQ bits $%02X", value & 0x5Eu);
    else if (reg == 0x0B)
        snprintf(out, size, "raster compare line bits 0-7 = %u", value);
}

static void icr_meaning(uint8_t value, char *out, size_t size)
{
    snprintf(out, size, "%s interrupt mask bits $%02X", value & 0x80 ? "set" : "clear",
             value & 0x1Fu);
}

void td_chip_annotate(const td_chip_map *chip, int reg, uint8_t value, char *out, size_t size)
{
    out[0] = '\0';
    switch (chip->kind) {
    case K_VIC2: vic2_meaning(reg, value, out, size); break;
    case K_TED: ted_meaning(reg, value, out, size); break;
    case K_CIA:
        if (reg == 13) icr_meaning(value, out, size);
        break;
    case K_VIA:
        if (reg == 14) icr_meaning(value, out, size);
        if (reg == 13) snprintf(out, size, "clear IRQ flags $%02X", value & 0x7Fu);
        break;
    case K_VIC:
        if (reg == 15)
            snprintf(out, size, "background %u, border %u, %s", value >> 4, value & 7u,
                     value & 8u ? "normal" : "inverted");
        break;
    default: break;
    }
}
