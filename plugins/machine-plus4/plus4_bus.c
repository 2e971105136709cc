/* plus4_bus.c - the Plus/4's memory map and the CPU's per-cycle bus.
 *
 *   $0000-$7FFF  RAM (C16: 16 KiB, mirrored every $4000)
 *   $8000-$BFFF  low ROM bank (BASIC, function LO, cartridge 1/2 LO) or RAM
 *   $C000-$FBFF  high ROM bank (KERNAL, function HI, cartridge 1/2 HI) or RAM
 *   $FC00-$FCFF  the KERNAL whatever the high bank (its banking code) or RAM
 *   $FD00-$FD0F  6551 ACIA (Plus/4)      $FD10-$FD1F  6529 user port
 *   $FD30-$FD3F  6529 keyboard port      $FDCF        debug cart exit
 *   $FDD0-$FDDF  ROM bank select: a write's address bits 0-1 pick the low
 *                bank, bits 2-3 the high bank
 *   $FF00-$FF3F  TED ($FF3E: ROMs in, $FF3F: RAM)
 *   $FF40-$FFFF  high ROM bank or RAM
 * Writes always reach RAM (under the ROMs too) except the I/O registers.
 * Unused I/O addresses read the RAM beneath.
 *
 * Reads go through rd[page] (the page's 256 bytes, or NULL for the I/O
 * pages $FD-$FF); plus4_bus_update_banking() rebuilds it when $FF3E/$FF3F
 * or the bank register change.
 */
#include <string.h>

#include "plus4.h"

static const uint8_t *slot_page(const plus4 *m, unsigned slot, uint16_t addr)
{
    if (!m->rom_present[slot]) return m->open_rom;
    return &m->rom[slot][(addr & 0x3F00u)];
}

static unsigned low_slot(const plus4 *m) { return (m->p.rom_banks & 3u) * 2u; }
static unsigned high_slot(const plus4 *m) { return ((m->p.rom_banks >> 2) & 3u) * 2u + 1u; }

/* The slot whose ROM the CPU (with ROMs in) or the TED reads at addr; -1 RAM. */
static int rom_slot_at(const plus4 *m, uint16_t addr)
{
    if (addr < 0x8000u) return -1;
    if (addr < 0xC000u) return (int)low_slot(m);
    if ((addr & 0xFF00u) == 0xFC00u) return PLUS4_ROM_KERNAL;
    return (int)high_slot(m);
}

void plus4_bus_update_banking(plus4 *m)
{
    for (unsigned page = 0; page < 256; page++) {
        uint16_t addr = (uint16_t)(page << 8);
        if (page >= 0xFD) {
            m->rd[page] = NULL;
        } else if (m->ted.rom_enabled && addr >= 0x8000u) {
            m->rd[page] = slot_page(m, (unsigned)rom_slot_at(m, addr), addr);
        } else {
            m->rd[page] = &m->p.ram[addr & m->ram_mask];
        }
    }
}

int plus4_kernal_at(const plus4 *m, uint16_t addr)
{
    return m->ted.rom_enabled && addr >= 0xC000u && rom_slot_at(m, addr) == PLUS4_ROM_KERNAL &&
           m->rom_present[PLUS4_ROM_KERNAL];
}

static uint8_t ram_at(const plus4 *m, uint16_t addr) { return m->p.ram[addr & m->ram_mask]; }

/* ROM or RAM at addr in the $FF40-$FFFF area. */
static uint8_t high_page_at(const plus4 *m, uint16_t addr)
{
    if (!m->ted.rom_enabled) return ram_at(m, addr);
    return slot_page(m, high_slot(m), addr)[addr & 0xFFu];
}

uint8_t plus4_ted_fetch(void *user, uint16_t addr, int rom)
{
    const plus4 *m = user;
    if (rom) {
        int slot = rom_slot_at(m, addr);
        if (slot >= 0) return slot_page(m, (unsigned)slot, addr)[addr & 0xFFu];
    }
    return ram_at(m, addr);
}

const uint8_t *plus4_ted_page(void *user, uint16_t addr, int rom)
{
    const plus4 *m = user;
    if (rom) {
        int slot = rom_slot_at(m, addr);
        if (slot >= 0) return slot_page(m, (unsigned)slot, addr);
    }
    return &m->p.ram[addr & m->ram_mask & 0xFF00u];
}

/* ---- I/O ---- */

static uint8_t acia_peek(const plus4 *m, uint16_t addr)
{
    const plus4_acia *a = &m->p.acia;
    switch (addr & 3u) {
    case 0: return a->rx;
    case 1: return a->status;
    case 2: return a->command;
    default: return a->control;
    }
}

static void acia_write(plus4 *m, uint16_t addr, uint8_t value)
{
    plus4_acia *a = &m->p.acia;
    switch (addr & 3u) {
    case 0: a->tx = value; a->status |= 0x10u; break; /* no line: sent at once */
    case 1: /* programmed reset */
        a->status &= (uint8_t)~0x04u;
        a->command &= 0xE0u;
        break;
    case 2: a->command = value; break;
    default: a->control = value; break;
    }
}

static int is_acia(const plus4 *m, uint16_t addr)
{
    return m->config.model == PLUS4_MODEL_PLUS4 && addr >= 0xFD00u && addr < 0xFD10u;
}

uint8_t plus4_io_peek(const plus4 *m, uint16_t addr)
{
    if (addr >= 0xFF00u) {
        if (addr < 0xFF40u) return ted_peek(&m->ted, (uint8_t)(addr & 0x3Fu));
        return high_page_at(m, addr);
    }
    if (is_acia(m, addr)) return acia_peek(m, addr);
    if (addr >= 0xFD10u && addr < 0xFD20u) return m->p.user_port;
    if (addr >= 0xFD30u && addr < 0xFD40u) return m->p.keyboard_port;
    return ram_at(m, addr);
}

void plus4_io_write(plus4 *m, uint16_t addr, uint8_t value)
{
    if (addr >= 0xFF00u && addr < 0xFF40u) {
        uint8_t reg = (uint8_t)(addr & 0x3Fu);
        ted_write(&m->ted, reg, value, reg == 0x08 ? plus4_keyboard_rows(m, value) : 0xFF);
        if (reg == 0x3E || reg == 0x3F) plus4_bus_update_banking(m);
        plus4_cpu_lines(m);
        return;
    }
    if (addr >= 0xFF40u) {
        m->p.ram[addr & m->ram_mask] = value;
        return;
    }
    if (is_acia(m, addr)) acia_write(m, addr, value);
    else if (addr >= 0xFD10u && addr < 0xFD20u) m->p.user_port = value;
    else if (addr >= 0xFD30u && addr < 0xFD40u) m->p.keyboard_port = value;
    else if (addr >= 0xFDD0u && addr < 0xFDE0u) {
        m->p.rom_banks = (uint8_t)(addr & 0x0Fu);
        plus4_bus_update_banking(m);
    } else {
        m->p.ram[addr & m->ram_mask] = value;
    }
}

/* ---- the CPU's bus ---- */

void plus4_ted_event(plus4 *m)
{
    if (ted_event(&m->ted)) plus4_frame_done(m);
    plus4_cpu_lines(m);
}

uint8_t plus4_bus_read(void *user, uint16_t addr)
{
    plus4 *m = user;
    plus4_tick_chips(m);
    const uint8_t *page = m->rd[addr >> 8];
    if (page) return page[addr & 0xFFu];
    return plus4_io_peek(m, addr); /* no register has read side effects */
}

void plus4_bus_write(void *user, uint16_t addr, uint8_t value)
{
    plus4 *m = user;
    plus4_tick_chips(m);
    if (addr < 0xFD00u) {
        m->p.ram[addr & m->ram_mask] = value;
        return;
    }
    if (addr == PLUS4_DEBUGCART_ADDR && m->config.debugcart) {
        if (!m->p.run.exit_pending) mh_kit_request_exit(&m->kit, value, 1);
        return;
    }
    plus4_io_write(m, addr, value);
}

uint8_t plus4_bus_peek(const plus4 *m, uint16_t addr)
{
    if (addr < 2) return addr ? m->cpu.port.data : m->cpu.port.ddr;
    const uint8_t *page = m->rd[addr >> 8];
    return page ? page[addr & 0xFFu] : plus4_io_peek(m, addr);
}

const uint8_t *plus4_bus_span(const plus4 *m, uint16_t addr, uint32_t *length)
{
    if (addr < 2) { /* the CPU's port */
        *length = 2u - addr;
        return NULL;
    }
    /* Pages whose bytes follow each other in one array are one run (a C16
     * mirror or an empty ROM slot breaks it). */
    unsigned page = addr >> 8;
    const uint8_t *base = m->rd[page];
    unsigned end = page + 1;
    if (base) {
        while (end < 256 && m->rd[end] == m->rd[end - 1] + 256) end++;
    } else {
        while (end < 256 && !m->rd[end]) end++;
    }
    *length = (uint32_t)(end << 8) - addr;
    return base ? base + (addr & 0xFFu) : NULL;
}

void plus4_bus_poke(plus4 *m, uint16_t addr, uint8_t value)
{
    if (addr < 2) {
        if (addr) m->cpu.port.data = value;
        else m->cpu.port.ddr = value;
        return;
    }
    if (addr == PLUS4_DEBUGCART_ADDR && m->config.debugcart) {
        mh_kit_request_exit(&m->kit, value, 0);
        return;
    }
    if (addr < 0xFD00u) m->p.ram[addr & m->ram_mask] = value;
    else plus4_io_write(m, addr, value);
}

/* The 7501's port: bit 4 cassette read, bit 6 serial clock in, bit 7
 * serial data in. With nothing on the serial bus a line is low only while
 * this machine pulls it (its outputs drive the lines through inverters:
 * bit 0 data out, bit 1 clock out). */
uint8_t plus4_port_input(void *user)
{
    const plus4 *m = user;
    uint8_t out = (uint8_t)(m->cpu.port.data & m->cpu.port.ddr);
    uint8_t in = 0xFF;
    if (out & 0x01u) in &= (uint8_t)~0x80u;
    if (out & 0x02u) in &= (uint8_t)~0x40u;
    return in;
}
