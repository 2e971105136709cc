/* vic20_bus.c - the VIC-20's memory map and the per-cycle bus.
 *
 * CPU map (1 KiB blocks; rd_kind/wr_ram per block, rebuilt by
 * vic20_bus_init from the memory configuration and the cartridge):
 *   $0000-$03FF RAM             $0400-$0FFF 3K expansion (or open)
 *   $1000-$1FFF RAM             $2000-$7FFF blocks 1-3 (RAM or open)
 *   $8000-$8FFF character ROM   $9000-$93FF VIC ($9000, mirrored through
 *                                $90FF) and the VIAs ($9110 VIA1: A4,
 *                                $9120 VIA2: A5; both answer where both
 *                                bits are set, a read gets the AND)
 *   $9400-$97FF colour RAM (4 bits; the upper nybble is open bus)
 *   $9800-$9FFF I/O2, I/O3 (open)
 *   $A000-$BFFF block 5: cartridge ROM, RAM or open
 *   $C000-$DFFF BASIC           $E000-$FFFF KERNAL
 * Open bus: a read where nothing answers gets what the VIC read last on
 * its half of the cycle (the data lines keep it), as VICE models it.
 *
 * The VIC's bus (14 bits): VIC $0000-$1FFF is CPU $8000-$9FFF (character
 * ROM, open, colour RAM on the upper data lines), VIC $2000-$3FFF is CPU
 * $0000-$1FFF; only the internal RAM ($0000-$03FF, $1000-$1FFF) is on it,
 * expansion RAM is not.
 *
 * Every CPU cycle first ticks the VIC and both VIAs (vic20_tick_chips),
 * then makes the access; an access to a VIA updates the CPU's IRQ/NMI
 * lines again so a flag cleared or set by it counts in this cycle.
 */
#include <string.h>

#include "vic20.h"

/* After anything that changed a VIA: the CPU's lines (VIA1 -> NMI, VIA2
 * -> IRQ) and the cycles until the next VIA event or VIA1's CA2 drift. */
void vic20_via_changed(vic20 *m)
{
    m->cpu.nmi = m->via1.irq ? VIC20_NMI_VIA1 : 0u;
    m->cpu.irq = m->via2.irq ? VIC20_IRQ_VIA2 : 0u;
    uint32_t next = m6522_next_event(&m->via1), next2 = m6522_next_event(&m->via2);
    if (next2 < next) next = next2;
    if (m->p.ca2_float_left && m->p.ca2_float_left < next) next = m->p.ca2_float_left;
    m->via_event_in = next;
}

void vic20_via_catch_up(vic20 *m)
{
    uint32_t n = m->via_pending, f = m->p.ca2_float_left;
    m->via_pending = 0;
    if (f && f <= n) {
        /* VIA1's CA2 reads low from cycle f on (before that cycle's tick). */
        m6522_advance(&m->via1, f - 1u);
        m6522_advance(&m->via2, f - 1u);
        m->p.ca2_float_left = 0;
        m6522_set_ca2(&m->via1, 0);
        n -= f - 1u;
    } else if (f) {
        m->p.ca2_float_left = f - n;
    }
    m6522_advance(&m->via1, n);
    m6522_advance(&m->via2, n);
    vic20_via_changed(m);
}

void vic20_bus_init(vic20 *m)
{
    unsigned mem = m->config.memory;
    for (unsigned b = 0; b < 64; b++) {
        uint16_t a = (uint16_t)(b << 10);
        uint8_t kind = VIC20_R_OPEN, ram = 0;
        if (a < 0x0400 || (a >= 0x1000 && a < 0x2000)) kind = VIC20_R_RAM;
        else if (a < 0x1000) kind = (mem & VIC20_MEM_3K) ? VIC20_R_RAM : VIC20_R_OPEN;
        else if (a < 0x4000) kind = (mem & VIC20_MEM_BLK1) ? VIC20_R_RAM : VIC20_R_OPEN;
        else if (a < 0x6000) kind = (mem & VIC20_MEM_BLK2) ? VIC20_R_RAM : VIC20_R_OPEN;
        else if (a < 0x8000) kind = (mem & VIC20_MEM_BLK3) ? VIC20_R_RAM : VIC20_R_OPEN;
        else if (a < 0x9000) kind = VIC20_R_ROM;
        else if (a < 0x9800) kind = VIC20_R_IO;
        else if (a < 0xA000) kind = VIC20_R_OPEN;
        else if (a < 0xC000) kind = (mem & VIC20_MEM_BLK5) ? VIC20_R_RAM : VIC20_R_OPEN;
        else kind = VIC20_R_ROM;
        /* A cartridge's ROM wins over RAM in its blocks. */
        static const struct { uint16_t from, to; unsigned bit; } cart_blocks[] = {
            {0x2000, 0x4000, VIC20_MEM_BLK1}, {0x4000, 0x6000, VIC20_MEM_BLK2},
            {0x6000, 0x8000, VIC20_MEM_BLK3}, {0xA000, 0xC000, VIC20_MEM_BLK5}};
        for (size_t i = 0; i < 4; i++)
            if ((m->cart_blocks & cart_blocks[i].bit) && a >= cart_blocks[i].from &&
                a < cart_blocks[i].to)
                kind = VIC20_R_ROM;
        ram = kind == VIC20_R_RAM;
        m->rd_kind[b] = kind;
        m->wr_ram[b] = ram;
        m->rd[b] = kind == VIC20_R_RAM ? m->p.ram : kind == VIC20_R_ROM ? m->rom : NULL;
    }
}

/* ---- I/O ---- */

static int via1_selected(uint16_t addr) { return addr >= 0x9100 && addr < 0x9400 && (addr & 0x10u); }
static int via2_selected(uint16_t addr) { return addr >= 0x9100 && addr < 0x9400 && (addr & 0x20u); }

/* VIC registers, colour RAM and the open bus depend on the VIC's state;
 * the VIAs do not. */
static int io_needs_vic(uint16_t addr)
{
    return addr < 0x9110 || addr >= 0x9400 || !(addr & 0x30u);
}

uint8_t vic20_io_peek(const vic20 *m, uint16_t addr)
{
    if (io_needs_vic(addr)) vic20_vic_catch_up(m);
    else if (m->via_pending) vic20_via_catch_up((vic20 *)m); /* changes nothing a program sees */
    if (addr < 0x9100) return m6561_read(&m->vic, (uint8_t)addr);
    if (addr < 0x9400) {
        uint8_t value = 0xFF;
        int any = 0;
        if (via1_selected(addr)) value &= m6522_peek(&m->via1, (uint8_t)addr), any = 1;
        if (via2_selected(addr)) value &= m6522_peek(&m->via2, (uint8_t)addr), any = 1;
        return any ? value : m->vic.last_data;
    }
    return (uint8_t)((m->vic.last_data & 0xF0u) | (m->p.color[addr & 0x3FFu] & 0x0Fu));
}

static uint8_t io_read(vic20 *m, uint16_t addr)
{
    /* The VIC runs lazily and a hold ends where it completes a frame: with
     * a hold pending, the VIA ports (keyboard, joystick) see it ended at
     * its frame's end only once the VIC has caught up. */
    if (io_needs_vic(addr) || mh_kit_holds_pending(&m->holds)) vic20_vic_catch_up(m);
    if (addr < 0x9100) return m6561_read(&m->vic, (uint8_t)addr);
    if (addr < 0x9400) {
        uint8_t value = 0xFF;
        int any = 0;
        vic20_via_catch_up(m);
        if (via1_selected(addr)) value &= m6522_read(&m->via1, (uint8_t)addr), any = 1;
        if (via2_selected(addr)) value &= m6522_read(&m->via2, (uint8_t)addr), any = 1;
        vic20_via_changed(m);
        return any ? value : m->vic.last_data;
    }
    return (uint8_t)((m->vic.last_data & 0xF0u) | (m->p.color[addr & 0x3FFu] & 0x0Fu));
}

/* VIA1's CA2 line after a PCR write: driven, it follows the VIA (and the
 * circuit's input level goes back high); released, it drifts low. */
static void via1_ca2_line(vic20 *m)
{
    uint8_t driven = (m->via1.pcr & 0x08u) != 0;
    if (driven == m->p.ca2_driven) return;
    m->p.ca2_driven = driven;
    if (driven) {
        m->p.ca2_float_left = 0;
        m6522_set_ca2(&m->via1, 1);
    } else {
        m->p.ca2_float_left = VIC20_CA2_FLOAT_CYCLES;
    }
}

void vic20_io_write(vic20 *m, uint16_t addr, uint8_t value)
{
    if (io_needs_vic(addr)) vic20_vic_catch_up(m);
    if (addr < 0x9100) {
        m6561_write(&m->vic, (uint8_t)addr, value);
        unsigned reg = addr & 0x0Fu;
        if (reg == 2 || reg == 3 || reg == 5) vic20_vic_watch(m);
        return;
    }
    if (addr < 0x9400) {
        vic20_via_catch_up(m);
        if (via1_selected(addr)) {
            m6522_write(&m->via1, (uint8_t)addr, value);
            if ((addr & 0x0Fu) == 0x0Cu) via1_ca2_line(m);
        }
        if (via2_selected(addr)) m6522_write(&m->via2, (uint8_t)addr, value);
        vic20_via_changed(m);
        return;
    }
    m->p.color[addr & 0x3FFu] = value & 0x0Fu;
}

/* ---- the CPU's bus ---- */

uint8_t vic20_bus_read(void *user, uint16_t addr)
{
    vic20 *m = user;
    vic20_tick_chips(m);
    const uint8_t *bytes = m->rd[addr >> 10];
    if (bytes) return bytes[addr];
    if (m->rd_kind[addr >> 10] == VIC20_R_IO) return io_read(m, addr);
    vic20_vic_catch_up(m);
    return m->vic.last_data;
}

void vic20_bus_write(void *user, uint16_t addr, uint8_t value)
{
    vic20 *m = user;
    vic20_tick_chips(m);
    if (m->wr_ram[addr >> 10]) {
        if (m->vic_watch[addr >> 10]) vic20_vic_catch_up(m);
        m->p.ram[addr] = value;
        return;
    }
    if (m->rd_kind[addr >> 10] != VIC20_R_IO) return;
    if (addr == VIC20_DEBUGCART_ADDR && m->config.debugcart) {
        mh_kit_request_exit(&m->kit, value, 1);
        return;
    }
    vic20_io_write(m, addr, value);
}

uint8_t vic20_bus_peek(const vic20 *m, uint16_t addr)
{
    vic20_vic_catch_up(m);
    switch (m->rd_kind[addr >> 10]) {
    case VIC20_R_RAM: return m->p.ram[addr];
    case VIC20_R_ROM: return m->rom[addr];
    case VIC20_R_IO: return vic20_io_peek(m, addr);
    default: return m->vic.last_data;
    }
}

const uint8_t *vic20_bus_span(const vic20 *m, uint16_t addr, uint32_t *length)
{
    unsigned block = addr >> 10;
    uint8_t kind = m->rd_kind[block];
    const uint8_t *base = kind == VIC20_R_RAM ? m->p.ram : kind == VIC20_R_ROM ? m->rom : NULL;
    /* RAM and ROM are read in place; I/O and open blocks, whatever their
     * mix, go to vic20_bus_peek byte by byte. */
    unsigned end = block + 1;
    while (end < 64 && (base ? m->rd_kind[end] == kind
                             : m->rd_kind[end] != VIC20_R_RAM && m->rd_kind[end] != VIC20_R_ROM))
        end++;
    *length = (uint32_t)(end << 10) - addr;
    return base ? base + addr : NULL;
}

void vic20_bus_poke(vic20 *m, uint16_t addr, uint8_t value)
{
    vic20_vic_catch_up(m);
    if (m->wr_ram[addr >> 10]) {
        m->p.ram[addr] = value;
    } else if (m->rd_kind[addr >> 10] == VIC20_R_IO) {
        if (addr == VIC20_DEBUGCART_ADDR && m->config.debugcart)
            mh_kit_request_exit(&m->kit, value, 0);
        else
            vic20_io_write(m, addr, value);
    }
}

/* ---- the VIC's bus ---- */

uint16_t vic20_vic_fetch(void *user, uint16_t vic_address)
{
    return m6561_fetch(&((const vic20 *)user)->vic, (uint16_t)(vic_address & 0x3FFFu));
}

/* The VIC's bus: VIC $0000-$0FFF the character ROM, $1000-$1FFF nothing it
 * can read (I/O, colour RAM as data, I/O2/3), $2000-$23FF RAM $0000-$03FF,
 * $2400-$2FFF nothing (the 3K expansion is not on its bus), $3000-$3FFF RAM
 * $1000-$1FFF. */
void vic20_vic_blocks(const vic20 *m, const uint8_t *blocks[16])
{
    for (unsigned b = 0; b < 16; b++) {
        uint16_t cpu = m6561_cpu_address((uint16_t)(b << 10));
        if (cpu >= 0x8000 && cpu < 0x9000) blocks[b] = m->rom + cpu;
        else if (cpu < 0x0400 || (cpu >= 0x1000 && cpu < 0x2000)) blocks[b] = m->p.ram + cpu;
        else blocks[b] = NULL;
    }
}

/* ---- VIA ports ---- */

/* VIA1 port A: PA2 up, PA3 down, PA4 left, PA5 fire (lightpen) from the
 * joystick; the serial bus and cassette lines read high (nothing there).
 * Port B: the user port (nothing attached). */
uint8_t vic20_via1_read_port(void *user, int port)
{
    const vic20 *m = user;
    if (port != 0) return 0xFF;
    uint8_t v = 0xFF;
    if (m->p.joy & MH_JOY_UP) v &= (uint8_t)~0x04u;
    if (m->p.joy & MH_JOY_DOWN) v &= (uint8_t)~0x08u;
    if (m->p.joy & MH_JOY_LEFT) v &= (uint8_t)~0x10u;
    if (m->p.joy & MH_JOY_FIRE) v &= (uint8_t)~0x20u;
    return v;
}

/* VIA2: port B drives the keyboard columns, port A reads the rows; a held
 * key joins them both ways (wired AND). PB7 also reads joystick right. */
uint8_t vic20_via2_read_port(void *user, int port)
{
    const vic20 *m = user;
    uint8_t v = 0xFF;
    if (port == 0) {
        uint8_t cols = m->p.via2_pb_drive;
        for (unsigned c = 0; c < 8; c++)
            if (!(cols & (1u << c))) v &= (uint8_t)~m->p.kb_col[c];
    } else {
        uint8_t rows = m->p.via2_pa_drive;
        for (unsigned r = 0; r < 8; r++)
            if (!(rows & (1u << r))) v &= (uint8_t)~m->p.kb_row[r];
        if (m->p.joy & MH_JOY_RIGHT) v &= 0x7Fu;
    }
    return v;
}

void vic20_via2_port_out(void *user, int port, uint8_t levels)
{
    vic20 *m = user;
    if (port == 0) m->p.via2_pa_drive = levels;
    else m->p.via2_pb_drive = levels;
}

/* The VIC's blocks a write must not overtake: the video matrix, the
 * character generator and the colour RAM it fetches now. */
void vic20_vic_watch(vic20 *m)
{
    memset(m->vic_watch, 0, sizeof m->vic_watch);
    unsigned cells = (m->vic.regs[2] & 0x7Fu) * ((m->vic.regs[3] >> 1) & 0x3Fu);
    unsigned char_bytes = 256u * ((m->vic.regs[3] & 1u) ? 16u : 8u);
    const struct { uint16_t start; unsigned size; } spans[2] = {
        {m6561_screen_vic_address(&m->vic), cells},
        {m6561_char_vic_address(&m->vic), char_bytes}};
    for (size_t s = 0; s < 2; s++) {
        /* Stepping by 1 KiB from the start, plus the last byte, meets every
         * block the span touches (it may wrap at the 14-bit end). */
        for (unsigned off = 0; off < spans[s].size; off += 0x400u)
            m->vic_watch[m6561_cpu_address((uint16_t)(spans[s].start + off)) >> 10] = 1;
        if (spans[s].size)
            m->vic_watch[m6561_cpu_address((uint16_t)(spans[s].start + spans[s].size - 1u)) >> 10] = 1;
    }
    m->vic_watch[0x9400 >> 10] = 1; /* colour RAM (written through the I/O path) */
}

void vic20_frame_done(void *user)
{
    vic20 *m = user;
    m->p.fb_back ^= 1u;
    m6561_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back]);
    m->p.frames_done++;
    if (mh_kit_holds_pending(&m->holds)) vic20_holds_frame(m);
}
