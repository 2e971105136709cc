/* c64_bus.c - the C64's memory map and the per-cycle bus.
 *
 * Every CPU cycle is one call of c64_bus_read or c64_bus_write (the SDK
 * core's bus callbacks). Each first ticks the VIC-II and both CIAs once and
 * sets RDY (VIC BA), IRQ (VIC, CIA1) and NMI (CIA2, RESTORE) for the cycle
 * (c64_tick_chips in c64.h), then makes the access. The CIAs are clocked
 * by deadline: while nothing but their counters would move
 * (m6526_quiet_ticks) they skip their ticks and catch up in one step
 * (c64_cias_sync) before anything looks at them; a register access also
 * makes the next cycle a full tick (c64_cias_touch). One compare per
 * cycle (vic.ticks against chips_due) covers them and the framebuffer
 * swap (c64_chips_due).
 *
 *   read:  rd[addr >> 12] is a base pointer for RAM and ROM blocks, so a
 *          RAM/ROM read is one table load and one array load; NULL blocks
 *          (I/O, cartridge, Ultimax open space) go to c64_bus_read_other.
 *   write: wr[addr >> 12] says RAM (also below ROMs), I/O or nothing.
 *
 * rd/wr come from the PLA table (c64_pla.h) for the configuration
 * EXROM<<4 | GAME<<3 | the 6510 port's pins 0-2, and are rebuilt only
 * when a write to $00/$01 (or a cartridge) changes that configuration.
 * The ROMs live in one 64 KiB array at their CPU addresses (BASIC $A000,
 * character ROM $D000, KERNAL $E000), so every base pointer indexes inside
 * its own array.
 *
 * I/O ($D000-$DFFF), dispatched on address bits 8-11:
 *   $D000-$D3FF VIC-II (64-byte mirrors)   $D400-$D7FF SID (32-byte mirrors;
 *   $D800-$DBFF colour RAM                 $D7FF is the debug cart with
 *   $DC00-$DCFF CIA1  $DD00-$DDFF CIA2     debugcart=true)
 *   $DE00-$DFFF I/O1/I/O2: open bus (the VIC's last phase-1 byte)
 * Colour RAM is 4 bits wide: the upper nybble of a read is open bus, the
 * VIC's phase-1 byte of the cycle.
 *
 * While the VIC has the bus (AEC low, the CPU stalled by RDY) the CPU's
 * repeated read is not on the bus: it gets the value without I/O side
 * effects. The port at $00/$01 is in the CPU; a write there still reaches
 * the bus, and the RAM below gets the VIC's phase-1 byte (as on a real
 * C64, where the 6510 drives the bus with whatever the VIC left there).
 *
 * VIC fetches: vic_rd[addr >> 12] for the 14-bit VIC address: RAM of the
 * bank CIA2 PA selects (bank = 3 - (PA & 3)), the character ROM at
 * $1000-$1FFF in banks 0 and 2, and in Ultimax mode a cartridge's ROMH
 * (its upper 4K) at $3000-$3FFF of every bank (no character ROM then).
 */
#include <string.h>

#include "c64.h"

/* ---- banking ---- */

void c64_bus_update_banking(c64 *m)
{
    uint8_t pins = mh_cpu6502_port_pins(&m->cpu);
    unsigned config = c64_pla_config(pins, m->p.exrom, m->p.game);
    m->pla_config = config;
    for (unsigned b = 0; b < 16; b++) {
        c64_bank bank = c64_pla_read_bank(config, b);
        m->rd_bank[b] = (uint8_t)bank;
        switch (bank) {
        case C64_BANK_RAM: m->rd[b] = m->p.ram; break;
        case C64_BANK_BASIC:
        case C64_BANK_KERNAL:
        case C64_BANK_CHAR: m->rd[b] = m->rom; break;
        case C64_BANK_ROML: m->rd[b] = m->cart_has_roml ? m->cart : NULL; break;
        case C64_BANK_ROMH: m->rd[b] = m->cart_has_romh ? m->cart : NULL; break;
        default: m->rd[b] = NULL; break; /* I/O, open, a missing cartridge chip */
        }
        c64_bank wbank = c64_pla_write_bank(config, b);
        m->wr[b] = wbank == C64_BANK_RAM ? C64_W_RAM : wbank == C64_BANK_IO ? C64_W_IO : C64_W_NONE;
    }
}

void c64_bus_update_vic_bank(c64 *m)
{
    uint32_t base = (uint32_t)m->p.vic_bank << 14;
    for (unsigned b = 0; b < 4; b++) m->vic_rd[b] = m->p.ram + base;
    if (c64_pla_ultimax(m->pla_config)) {
        /* Ultimax: no character ROM; $3000-$3FFF of every bank is the
         * upper 4K of ROMH ($F000-$FFFF in the cartridge map). */
        if (m->cart && m->cart_has_romh) m->vic_rd[3] = m->cart + 0xC000;
    } else if (!(m->p.vic_bank & 1)) {
        m->vic_rd[1] = m->rom + 0xD000 - 0x1000; /* banks 0 and 2 */
    }
}

void c64_bus_init(c64 *m)
{
    m->p.exrom = m->cart ? m->cart_exrom : 1;
    m->p.game = m->cart ? m->cart_game : 1;
    c64_bus_update_banking(m);
    c64_bus_update_vic_bank(m);
}

uint8_t c64_vic_fetch(void *user, uint16_t addr)
{
    const c64 *m = user;
    return m->vic_rd[(addr >> 12) & 3][addr & 0x3FFF];
}

/* ---- CIA ports ---- */

uint8_t c64_cia1_read_port(void *user, int port)
{
    const c64 *m = user;
    /* The levels each side drives, joysticks pulling lines low (port 2 on
     * PA, port 1 on PB), then the matrix: a key connects its PA and PB
     * lines, so a low on either side pulls the other low (wired-AND). */
    uint8_t pa = (uint8_t)(m6526_port_output(&m->cia1, M6526_PORT_A) & ~(m->p.joy[2] & 0x1F));
    uint8_t pb = (uint8_t)(m6526_port_output(&m->cia1, M6526_PORT_B) & ~(m->p.joy[1] & 0x1F));
    uint8_t pins = 0xFF;
    if (port == M6526_PORT_A) {
        pins = (uint8_t)(0xFF & ~(m->p.joy[2] & 0x1F));
        for (unsigned r = 0; r < 8; r++)
            if (!(pb & (1u << r))) pins &= (uint8_t)~m->p.kb_row[r];
    } else {
        pins = (uint8_t)(0xFF & ~(m->p.joy[1] & 0x1F));
        for (unsigned c = 0; c < 8; c++)
            if (!(pa & (1u << c))) pins &= (uint8_t)~m->p.kb_col[c];
    }
    return pins;
}

void c64_cia1_port_out(void *user, int port, uint8_t levels)
{
    (void)levels;
    if (port == M6526_PORT_B) c64_update_lightpen(user);
}

uint8_t c64_cia2_read_port(void *user, int port)
{
    const c64 *m = user;
    if (port != M6526_PORT_A) return 0xFF; /* user port: nothing connected */
    /* Serial bus with no devices: CLK IN (bit 6) and DATA IN (bit 7) are
     * released (high) unless the C64 itself pulls them through the 7406
     * inverters (CLK OUT bit 4, DATA OUT bit 5). */
    uint8_t out = m6526_port_output(&m->cia2, M6526_PORT_A);
    uint8_t pins = 0x3F;
    if (!(out & 0x10)) pins |= 0x40;
    if (!(out & 0x20)) pins |= 0x80;
    return pins;
}

void c64_cia2_port_out(void *user, int port, uint8_t levels)
{
    c64 *m = user;
    if (port != M6526_PORT_A) return;
    uint8_t bank = (uint8_t)(3u - (levels & 3u));
    if (bank != m->p.vic_bank) {
        m6569_sync(&m->vic); /* the deferred cycles fetched from the old bank */
        m->p.vic_bank = bank;
        c64_bus_update_vic_bank(m);
    }
}

/* ---- frames ---- */

void c64_frame_done(c64 *m)
{
    m->p.fb_back ^= 1u;
    m6569_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back], M6569_FB_WIDTH);
    m->p.frames_done++;
    m->p.fb_swap_at += m->geometry->cycles_per_frame;
    if (mh_kit_holds_pending(&m->holds)) c64_holds_frame(m);
}

/* ---- the CIAs' clock ---- */

void c64_chips_due(c64 *m)
{
    uint64_t now = m->vic.ticks;
    /* a debugger's event callback (a CIA's) may look at the VIC-II */
    if (mh_event_listening(&m->events)) m6569_sync(&m->vic);
    if (now >= m->cia_due) {
        /* The skipped ticks before this cycle, then this cycle's. */
        uint32_t owed = (uint32_t)(now - 1u - m->cia_synced);
        m6526_skip(&m->cia1, owed);
        m6526_skip(&m->cia2, owed);
        m->cia_irq = m6526_tick(&m->cia1) ? C64_IRQ_CIA1 : 0u;
        m->cia_nmi = m6526_tick(&m->cia2) ? C64_NMI_CIA2 : 0u;
        m->cpu.nmi = m->cia_nmi | m->p.restore_nmi;
        m->cia_synced = now;
        uint32_t quiet1 = m6526_quiet_ticks(&m->cia1), quiet2 = m6526_quiet_ticks(&m->cia2);
        m->cia_due = now + 1u + (quiet1 < quiet2 ? quiet1 : quiet2);
    }
    if (now >= m->p.fb_swap_at) c64_frame_done(m);
    m->chips_due = m->cia_due < m->p.fb_swap_at ? m->cia_due : m->p.fb_swap_at;
}

/* A CIA register as a debugger sees it now, the skipped ticks counted in
 * (on a copy: peeks change nothing). */
static uint8_t cia_peek(const c64 *m, const m6526 *cia, uint16_t addr)
{
    uint32_t owed = (uint32_t)(m->vic.ticks - m->cia_synced);
    if (!owed) return m6526_peek(cia, addr);
    m6526 now = *cia;
    m6526_skip(&now, owed);
    return m6526_peek(&now, addr);
}

/* ---- I/O ---- */

uint8_t c64_io_peek(const c64 *m, uint16_t addr)
{
    switch ((addr >> 8) & 0xF) {
    case 0x0: case 0x1: case 0x2: case 0x3: return m6569_peek(&m->vic, addr);
    case 0x4: case 0x5: case 0x6: case 0x7:
        /* The debug cart's register is not the SID's: it reads $FF. */
        if (addr == C64_DEBUGCART_ADDR && m->config.debugcart) return 0xFF;
        return c64_sid_peek(&m->sid, addr);
    case 0x8: case 0x9: case 0xA: case 0xB:
        return (uint8_t)((m->vic.bus_phi1 & 0xF0) | (m->p.color[addr & 0x3FF] & 0x0F));
    case 0xC: return cia_peek(m, &m->cia1, addr);
    case 0xD: return cia_peek(m, &m->cia2, addr);
    default: return m->vic.bus_phi1; /* I/O1, I/O2: open bus */
    }
}

/* A read of a block rd[] does not cover. */
uint8_t c64_bus_read_other(c64 *m, uint16_t addr)
{
    m6569_sync(&m->vic); /* bus_phi1, AEC and the VIC's registers as of now */
    if (m->rd_bank[addr >> 12] != C64_BANK_IO) return m->vic.bus_phi1; /* cartridge/open */
    if (!m->vic.aec) return c64_io_peek(m, addr); /* the VIC has the bus */
    switch ((addr >> 8) & 0xF) {
    case 0x0: case 0x1: case 0x2: case 0x3: return m6569_read(&m->vic, addr);
    case 0x4: case 0x5: case 0x6: case 0x7:
        if (addr == C64_DEBUGCART_ADDR && m->config.debugcart) return 0xFF; /* not the SID */
        c64_sid_sync(&m->sid, m->vic.ticks); /* OSC3/ENV3 as of this cycle */
        return c64_sid_read(&m->sid, addr);
    case 0xC: c64_cias_touch(m); return m6526_read(&m->cia1, addr);
    case 0xD: c64_cias_touch(m); return m6526_read(&m->cia2, addr);
    default: return c64_io_peek(m, addr);
    }
}

static void io_write_from(c64 *m, uint16_t addr, uint8_t value, int from_cpu)
{
    switch ((addr >> 8) & 0xF) {
    case 0x0: case 0x1: case 0x2: case 0x3:
        m6569_write(&m->vic, addr, value);
        mh_cpu6502_set_irq(&m->cpu, C64_IRQ_VIC, m->vic.irq);
        break;
    case 0x4: case 0x5: case 0x6: case 0x7:
        if (addr == C64_DEBUGCART_ADDR && m->config.debugcart) {
            /* The machine kit halts the CPU after this cycle (no chip ticks
             * while halted) and ends the run. */
            mh_kit_request_exit(&m->kit, value, from_cpu);
        } else {
            c64_sid_sync(&m->sid, m->vic.ticks); /* the write lands on this cycle */
            c64_sid_write(&m->sid, addr, value);
        }
        break;
    case 0x8: case 0x9: case 0xA: case 0xB: m->p.color[addr & 0x3FF] = value & 0x0F; break;
    case 0xC: c64_cias_touch(m); m6526_write(&m->cia1, addr, value); break;
    case 0xD: c64_cias_touch(m); m6526_write(&m->cia2, addr, value); break;
    default: break; /* I/O1, I/O2: nothing there */
    }
}

void c64_io_write(c64 *m, uint16_t addr, uint8_t value) { io_write_from(m, addr, value, 0); }

/* A write that is not plain RAM above $0001. */
void c64_bus_write_other(c64 *m, uint16_t addr, uint8_t value, int from_cpu)
{
    m6569_sync(&m->vic); /* bus_phi1 for the port, the VIC before I/O changes it */
    switch (m->wr[addr >> 12]) {
    case C64_W_RAM:
        if (addr < 2) {
            /* The port latched the CPU's value; the RAM below gets the
             * byte the VIC left on the bus. */
            m->p.ram[addr] = from_cpu ? m->vic.bus_phi1 : value;
            c64_bus_update_banking(m);
        } else {
            m->p.ram[addr] = value;
        }
        break;
    case C64_W_IO: io_write_from(m, addr, value, from_cpu); break;
    default: break;
    }
}

/* ---- the CPU's bus ---- */

uint8_t c64_bus_read(void *user, uint16_t addr) { return c64_bus_read_inline(user, addr); }

void c64_bus_write(void *user, uint16_t addr, uint8_t value)
{
    c64_bus_write_inline(user, addr, value);
}

/* ---- debugger access ---- */

uint8_t c64_bus_peek(const c64 *m, uint16_t addr)
{
    if (addr < 2) return mh_cpu6502_port_read(&m->cpu, addr);
    const uint8_t *base = m->rd[addr >> 12];
    if (base) return base[addr];
    if (m->rd_bank[addr >> 12] == C64_BANK_IO) return c64_io_peek(m, addr);
    return m->vic.bus_phi1;
}

const uint8_t *c64_bus_span(const c64 *m, uint16_t addr, uint32_t *length)
{
    if (addr < 2) { /* the 6510's port */
        *length = 2u - addr;
        return NULL;
    }
    /* rd[] bases are indexed by the full address, so neighbouring blocks
     * with the same base are one run in that array. */
    unsigned block = addr >> 12;
    const uint8_t *base = m->rd[block];
    unsigned end = block + 1;
    while (end < 16 && m->rd[end] == base) end++;
    *length = (uint32_t)(end << 12) - addr;
    return base ? base + addr : NULL;
}

void c64_bus_poke(c64 *m, uint16_t addr, uint8_t value)
{
    if (addr < 2) {
        /* The CPU's port: set it as a CPU write would. */
        mh_cpu6502_port_write(&m->cpu, addr, value);
        c64_bus_update_banking(m);
        return;
    }
    c64_bus_write_other(m, addr, value, 0);
}
