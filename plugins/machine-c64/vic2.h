/* vic2.h - the MOS VIC-II video chip (6569 / 8565 PAL, 6567R8 / 8562 NTSC,
 * 6567R56A old NTSC) as a cycle-stepped chip (files vic2.c, vic2_tables.c;
 * docs/vic2.md).
 *
 * Style of floooh/chips m6569.h: a m6569_desc where zero means default,
 * m6569_init(), m6569_reset(), m6569_tick() = one PHI2 cycle, and a
 * plain state struct that a debugger reads and a snapshot copies.
 *
 * Implemented (facts from Christian Bauer's "The MOS 6567/6569 video
 * controller (VIC-II) and its application in the Commodore 64", 1996; the
 * per-model cycle tables of sprite fetches and BA follow VICE's measured
 * x64sc tables where Bauer's NTSC diagrams disagree, see docs/vic2.md):
 *   - timing: 63 x 312 (6569/8565), 65 x 263 (6567R8/8562), 64 x 262
 *     (6567R56A); a per-model table says what each cycle does: the phase-1
 *     access (refresh, g-access, sprite pointer p-access, sprite s-access,
 *     idle access to $3FFF) and the phase-2 access (c-access, s-access), BA,
 *     and the sprite/border/counter events of that cycle;
 *   - bad lines (RASTER $30-$F7, RASTER & 7 == YSCROLL, DEN set in any
 *     cycle of line $30), evaluated in every cycle; BA low in cycles 12-54
 *     of a bad line, c-accesses in cycles 15-54 (the first three after BA
 *     falls read $FF, so FLI shows its 3-character bug), VC/VCBASE/RC/VMLI
 *     and the display/idle state exactly as Bauer's rules 1-5, the 40 x 12
 *     bit video matrix line buffer, idle g-accesses at $3FFF ($39FF in ECM);
 *   - all display modes (standard/multicolour text, standard/multicolour
 *     bitmap, ECM text) and the three invalid ones (black, but with the
 *     foreground pixels they generate for collisions), XSCROLL/YSCROLL,
 *     38/40 columns and 24/25 rows with the main and vertical border flip
 *     flops switched at the documented comparison values, so the side
 *     border (write $D016 in cycle 56 on PAL) and top/bottom border (clear
 *     RSEL between lines $F8 and $FA) tricks open the border;
 *   - 8 sprites: p-accesses every line, s-accesses with DMA, BA low from 3
 *     cycles before the first s-access, MC/MCBASE, DMA on in the two check
 *     cycles (55/56 PAL), Y-expansion flip flop (incl. sprite crunch),
 *     display on/off in cycle 58, X/Y expansion, multicolour, priority
 *     against foreground graphics, sprite-sprite and sprite-background
 *     collisions ($D01E/$D01F, cleared by reading; the IRQ only for the
 *     first collision after a clear, pixels 1-7 of a cycle latched a tick
 *     later), sprites at X $1F8-$1FF invisible on PAL; a sprite's own
 *     s-accesses reload its shift register mid-line (the held pixel and
 *     the lost X matches around it: docs/vic2.md "Sprite reload"); a match
 *     while a sprite still shifts does not restart it;
 *   - raster counter, raster IRQ (edge-triggered compare, in cycle 1 of a
 *     line and in cycle 2 of line 0, whose RASTER also changes one cycle
 *     late), $D019/$D01A and the IRQ output, light pen (one trigger per
 *     frame, LPX/LPY latched at the end of the cycle, ILP);
 *   - pixels: 8 per cycle into an 8-bit indexed framebuffer (palette index
 *     0-15), 384 pixels wide, 272 rows on PAL / 235 on NTSC; the display
 *     window (X $18-$157, lines $33-$FA) is at x 32..351, y 35..234 (PAL) or
 *     y 10..209 (NTSC). See m6569_geometry_of(). The pixels of cycles
 *     without a sprite or border compare are drawn later, in runs (before
 *     any register write, at the next sprite or border cycle, at cycle 62
 *     past the window): a row is complete once the beam has left the
 *     window (nothing is pending at a line start); m6569_run() and
 *     m6569_reset() draw what is pending first;
 *   - the Pepto and Colodore palettes as RGB tables.
 * Not implemented: sub-cycle register timing (a write takes effect for the
 * whole next cycle: a colour change lands up to 8 pixels off, a mode change
 * at the next character); the 8565/8562 differences from the 6569/6567R8
 * (grey dot on colour writes, luminances: the models differ only in
 * timing); VSP memory corruption (DMA delay itself follows from the
 * counters); mid-sprite changes of X expansion or multicolour (applied with
 * the pixel counter kept); the 6567R8's repeated X $184-$187 matching only
 * once.
 *
 * Machine-side contract:
 *   - Clock: call m6569_tick() exactly once per PHI2 cycle, BEFORE the
 *     CPU's bus access of that cycle (inside the CPU bus callback: tick the
 *     chips first, then do the access). A CPU write to a VIC register in
 *     cycle n acts from cycle n+1 on, which is what the documented cycle
 *     numbers (e.g. "$D016 in cycle 56") assume. A machine may call
 *     m6569_tick_deferring() instead, with its contract (below: sync
 *     before looking at the state or writing what the chip fetches).
 *   - BA/RDY: after the tick, cpu->rdy = vic->ba (or test M6569_PIN_BA in
 *     the return value). BA falls 3 cycles before the VIC takes phase 2
 *     (AEC low); the CPU core stalls reads while RDY is low and lets up to 3
 *     writes through, which is what the real 6510 does.
 *   - AEC: while vic->aec is 0 the VIC owns phase 2 of the cycle; the
 *     CPU (stalled by RDY) is off the bus, so its repeated read must not
 *     reach I/O chips (skip their read side effects). In the 3 cycles where
 *     BA is low but AEC still high, the stalled read is on the bus.
 *   - IRQ: mh_cpu6502_set_irq(cpu, SRC_VIC, vic->irq) after each tick and
 *     after register writes ($D019/$D01A change it at once).
 *   - Memory: desc.fetch(user, addr) gets the 14-bit VIC address
 *     ($0000-$3FFF) for every access the chip makes (phase 1 and phase 2,
 *     including refresh and idle accesses, so vic->bus_phi1 is the byte an
 *     open-bus read of $DE00-$DFFF sees). The machine maps it: bank =
 *     3 - (CIA2 PA & 3) gives address bits 14-15, and in banks 0 and 2
 *     ($0000, $8000) VIC addresses $1000-$1FFF read the character ROM.
 *   - Colour RAM: desc.color_ram points at the 1024 nybbles (low 4 bits of
 *     each byte used) the c-accesses read at VC; NULL reads 0.
 *   - Registers: $D000-$D3FF, register = address & $3F (m6569_read /
 *     m6569_write / m6569_peek do the masking).
 *   - Light pen: m6569_set_lightpen(vic, 1) when /LP goes low (C64: CIA1
 *     port B bit 4 or joystick 1 fire), 0 when it is released.
 *
 * Ownership: the caller owns m6569 (no allocation inside); the fetch
 * callback, its user pointer, the colour RAM and the framebuffer are
 * borrowed and must outlive their use. The struct holds no pointers except
 * in `links`, which m6569_restore() keeps, so a snapshot is a plain copy.
 * No global mutable state.
 * Threading: [emu-thread] for every function; two chips share nothing.
 */
#ifndef MCPHOST_MACHINE_C64_VIC2_H
#define MCPHOST_MACHINE_C64_VIC2_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/machine_events.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the meaning of the state struct changes. */
#define M6569_STATE_VERSION 4

typedef enum m6569_model {
    M6569_MODEL_6569 = 0,     /* PAL-B NMOS, 63 cycles x 312 lines (default) */
    M6569_MODEL_8565 = 1,     /* PAL-B HMOS (C64C), same timing */
    M6569_MODEL_6567R8 = 2,   /* NTSC NMOS, 65 x 263 */
    M6569_MODEL_8562 = 3,     /* NTSC HMOS (C64C), 65 x 263 */
    M6569_MODEL_6567R56A = 4, /* old NTSC, 64 x 262 */
    M6569_MODEL_COUNT = 5
} m6569_model;

/* Register numbers (the address modulo 64). */
enum {
    M6569_REG_M0X = 0x00,   /* sprite n X = 0x00 + 2n, Y = 0x01 + 2n */
    M6569_REG_MSBX = 0x10,
    M6569_REG_CR1 = 0x11,   /* RST8 ECM BMM DEN RSEL YSCROLL */
    M6569_REG_RASTER = 0x12,
    M6569_REG_LPX = 0x13,
    M6569_REG_LPY = 0x14,
    M6569_REG_ME = 0x15,    /* sprite enable */
    M6569_REG_CR2 = 0x16,   /* RES MCM CSEL XSCROLL */
    M6569_REG_MYE = 0x17,   /* sprite Y expansion */
    M6569_REG_MEMPTR = 0x18,
    M6569_REG_IRR = 0x19,   /* interrupt latch */
    M6569_REG_IMR = 0x1A,   /* interrupt enable */
    M6569_REG_MDP = 0x1B,   /* sprite behind foreground */
    M6569_REG_MMC = 0x1C,   /* sprite multicolour */
    M6569_REG_MXE = 0x1D,   /* sprite X expansion */
    M6569_REG_MM = 0x1E,    /* sprite-sprite collision */
    M6569_REG_MD = 0x1F,    /* sprite-background collision */
    M6569_REG_EC = 0x20,    /* border colour */
    M6569_REG_B0C = 0x21,   /* background colours 0-3: 0x21-0x24 */
    M6569_REG_MM0 = 0x25,   /* sprite multicolour 0 */
    M6569_REG_MM1 = 0x26,   /* sprite multicolour 1 */
    M6569_REG_M0C = 0x27    /* sprite n colour = 0x27 + n */
};

/* Interrupt latch / enable bits. */
#define M6569_INT_RST 0x01u /* raster compare */
#define M6569_INT_MBC 0x02u /* sprite-background collision */
#define M6569_INT_MMC 0x04u /* sprite-sprite collision */
#define M6569_INT_LP 0x08u  /* light pen */

/* Bits of m6569_tick()'s return value. */
#define M6569_PIN_BA 0x1u  /* BA high: the CPU may read (RDY = 1) */
#define M6569_PIN_AEC 0x2u /* AEC high: the CPU has phase 2 of this cycle */
#define M6569_PIN_IRQ 0x4u /* /IRQ asserted (line pulled low) */

/* Framebuffer width for every model. */
#define M6569_FB_WIDTH 384
/* Most raster lines of any model (PAL). */
#define M6569_MAX_LINES 312
/* Tallest framebuffer of any model (PAL). */
#define M6569_FB_MAX_HEIGHT 272

/* One VIC memory access: addr is the 14-bit VIC address. [emu-thread] */
typedef uint8_t (*m6569_fetch_fn)(void *user, uint16_t addr);

typedef struct m6569_desc {
    m6569_model model;      /* 0: 6569 PAL */
    m6569_fetch_fn fetch;   /* required */
    void *user;               /* for fetch */
    const uint8_t *color_ram; /* 1024 bytes, low nybbles; NULL: reads 0 */
    uint8_t *framebuffer;     /* width x height palette indexes; NULL: none */
    uint32_t fb_pitch;        /* bytes per framebuffer row; 0: M6569_FB_WIDTH */
} m6569_desc;

/* Timing and framebuffer layout of a model. */
typedef struct m6569_geometry {
    uint16_t cycles_per_line;
    uint16_t lines_per_frame;
    uint32_t cycles_per_frame;
    uint16_t width;      /* framebuffer pixels per row (384) */
    uint16_t height;     /* framebuffer rows (272 PAL, 235 NTSC) */
    uint16_t first_line; /* raster line shown in row 0 (rows wrap to line 0) */
    uint16_t display_x;  /* x of the first display-window pixel (X $18) */
    uint16_t display_y;  /* y of the first display-window line ($33) */
    uint16_t first_cycle; /* cycle whose 8 pixels end at x 6 (x = 8*(c-13)-1) */
} m6569_geometry;

/* Everything in the state that is a pointer. Not part of a snapshot. */
typedef struct m6569_links {
    m6569_fetch_fn fetch;
    void *user;
    const uint8_t *color_ram;
    uint8_t *framebuffer;
    uint32_t fb_pitch;
    const mh_event_sink *events; /* raster/bad line/IRQ events; NULL: none */
    /* Optional, for the deferred cycles' catch-up: 4 base pointers (one
     * per 4K of the 16K) indexed by the 14-bit VIC address, giving the
     * bytes fetch gives; the array is the machine's and may change between
     * syncs. NULL: fetch only. */
    const uint8_t *const *fetch_map;
    /* Derived by vic2.c for the per-cycle path (kept by init, reset,
     * restore and the setters; machines leave them alone): */
    uint8_t *fb_line;         /* framebuffer row of the current line, NULL if none */
    const uint32_t *cyc;      /* the model's cycle table, [1..cycles_per_line] */
    /* Deferred quiet cycles (m6569_tick_deferring; vic2.c "Deferred
     * cycles"). Never deferred in a snapshot: restore and reset set them. */
    uint8_t synced;           /* the last cycle whose work is done (== cycle
                               * unless cycles are deferred) */
    uint8_t quiet_end;        /* the first cycle after the last tick that is
                               * not quiet (0: none known) */
    uint8_t quiet_pins;       /* BA and AEC in the quiet cycles: both high,
                               * or both low in a bad line's c-accesses */
    uint8_t next_event[68];   /* per cycle n: the first cycle >= n whose table
                               * entry has events or the full path */
    uint8_t g_run_last[68];   /* per g-access cycle n in the window: the last
                               * of the g-access cycles in a row from n */
    uint8_t ba_next[8][68];   /* per sprite and cycle n: the first cycle >= n
                               * of the line in which its DMA pulls BA low */
    uint8_t c_run_last[68];   /* per c-access cycle n: the last of the
                               * c-access cycles in a row from n (0: none) */
    uint64_t fetch_pages;     /* bit p: the quiet cycles may fetch from VIC
                               * addresses p*256 .. p*256+255 */
} m6569_links;

typedef struct m6569 {
    /* Model and timing (set by init). */
    uint8_t model;          /* m6569_model */
    uint8_t timing;         /* internal: which cycle table */
    uint8_t cycles_per_line;
    uint8_t bl_next;        /* internal: the bad line condition of the next
                             * tick, kept by line starts and $D011 writes
                             * (m6569_restore re-derives it) */
    uint16_t lines_per_frame;
    uint16_t fb_height;
    uint16_t fb_first_line;

    /* Registers as last written (unused bits as written; reads add the
     * 1s). reg[0x11] bit 7 is RST8 of the compare value, reg[0x12] its low
     * byte; reg[0x19] is unused (see irq_latch); reg[0x1E]/[0x1F] unused. */
    uint8_t reg[64];

    /* Beam. */
    uint16_t raster;     /* RASTER as $D011/$D012 read it (line 0 starts in cycle 2) */
    uint8_t cycle;       /* 1-based cycle last ticked (1..cycles_per_line) */
    uint8_t frame_wrap;  /* 1 in cycle 1 of line 0 (RASTER still the last line) */
    int16_t fb_row;      /* framebuffer row of this line, -1 if none */
    uint16_t irq_line;   /* raster compare value */
    uint64_t frame;      /* frames started since reset */
    uint64_t ticks;      /* cycles since reset */

    /* Interrupts and bus. */
    uint8_t irq_latch;   /* $D019 bits 0-3 */
    uint8_t irq_mask;    /* $D01A bits 0-3 */
    uint8_t irq;         /* output: 1 = /IRQ asserted */
    uint8_t raster_match; /* compare matched in the last cycle (edge detect) */
    uint8_t cmp_dirty;   /* internal: the compare's inputs changed (a $D011/
                          * $D012 write): compare at the next tick */
    uint8_t ba;          /* 1 = BA high (CPU may read), 0 = pull RDY low */
    uint8_t aec;         /* 1 = the CPU had phase 2 of this cycle */
    uint8_t ba_low_run;  /* consecutive cycles BA has been low, before this one */
    uint8_t bus_phi1;    /* byte the VIC read in phase 1 of this cycle */
    uint8_t irq_ack;     /* $D019 was written: /IRQ follows at the next tick */
    uint16_t addr_phi1;  /* its VIC address */
    uint16_t addr_phi2;  /* address of the phase-2 access, 0xFFFF if none */

    /* Text/bitmap: counters and state. */
    uint16_t vc, vcbase; /* 10-bit video counter and its base */
    uint8_t rc;          /* 3-bit row counter */
    uint8_t vmli;        /* 6-bit video matrix line index */
    uint8_t display;     /* 1 = display state, 0 = idle state */
    uint8_t bad_line;    /* bad line condition in this cycle */
    uint8_t den_latch;   /* DEN seen in line $30 this frame */
    uint8_t refresh;     /* DRAM refresh counter */
    uint16_t vm[64];     /* video matrix line: char | colour << 8 (40 used) */

    /* Graphics sequencer. */
    uint8_t px_from;     /* first cycle of this line whose pixels are not
                          * drawn yet, 0 if none (vic2.c, "Deferred pixels") */
    uint8_t mm_next;     /* sprite-sprite collisions of this cycle's pixels
                          * 1-7: reach $D01E (and the IRQ) at the next tick */
    uint8_t g_line[66];  /* g-access byte of each cycle of this line (cycle
                          * n's character is shown from cycle n+1) */
    uint16_t c_line[66]; /* its 12-bit c-data (0 in idle state) */
    uint64_t seq_px;     /* 8 colours of the character being shifted out */
    uint64_t seq_fg;     /* its foreground mask (0xFF per foreground pixel) */

    /* Border unit. */
    uint8_t main_border; /* main border flip flop */
    uint8_t vert_border; /* vertical border flip flop */

    /* Sprites: bit n = sprite n. */
    uint8_t spr_dma;
    uint8_t spr_disp;
    uint8_t spr_exp_ff;  /* Y-expansion flip flops */
    uint8_t spr_exp_ff15; /* their value at cycle 15 (sprite crunch) */
    uint8_t spr_shift;   /* sequencers currently shifting out pixels */
    uint8_t mm_coll;     /* $D01E */
    uint8_t md_coll;     /* $D01F */
    uint8_t spr_held;    /* sequencers holding their last pixel across
                          * their own s-accesses (see docs/vic2.md) */
    uint8_t md_next;     /* the same for sprite-background ($D01F) */
    uint8_t coll_work;   /* the collision latch's work for the next tick:
                          * pending pixels 1-7, a register read's reset
                          * (COLL_* in vic2.c) */
    uint8_t spr_ptr[8];
    uint8_t mc[8], mcbase[8];
    uint8_t spr_pix[8];   /* pixels put out since the sequencer started */
    uint8_t spr_hold_val[8]; /* the held pixel (0-3, as a multicolour pair) */
    uint8_t spr_xtick[8]; /* cycle whose pixels hold sprite X (0: never) */
    uint8_t spr_xoff[8];  /* pixel within that cycle */
    uint32_t spr_buf[8];  /* 24-bit data buffer filled by the s-accesses */
    uint32_t spr_sr[8];   /* 24-bit shift register being put out */
    uint8_t spr_at[66];   /* per cycle: sprites whose X falls in its pixels */

    /* Light pen. */
    uint8_t lp_low;       /* /LP line level: 1 = low */
    uint8_t lp_triggered; /* 1 after the frame's trigger */
    uint8_t lpx, lpy;

    /* Border ($D020) and background ($D021) colour in the last cycle of
     * every line, one store per line, by frame parity:
     * line_colors[frame & 1][line] = border | background << 4. */
    uint8_t line_colors[2][M6569_MAX_LINES];

    m6569_links links;
} m6569;

/* Sets up a chip in reset state. MH_ERR_INVALID_ARGUMENT when vic or desc
 * is NULL, the model is unknown or fetch is NULL. */
mh_status m6569_init(m6569 *vic, const m6569_desc *desc);

/* All registers 0, beam at line 0 after cycle 1 (the next tick is cycle 2
 * of line 0), counters and flip flops cleared, frame and tick counters 0. */
void m6569_reset(m6569 *vic);

/* Runs one PHI2 cycle; returns M6569_PIN_* bits (BA, AEC, IRQ). */
uint32_t m6569_tick(m6569 *vic);

/* Deferred ticking, for a machine's per-cycle path: most cycles of a line
 * (no table event, bad line, sprite or pending work: "quiet") change only
 * what the VIC fetches in phase 1 and its pending pixels, which nothing
 * outside sees until it looks at the chip. m6569_tick_deferring() counts
 * such a cycle and returns its pins without doing it; the first cycle that
 * is not quiet, m6569_sync() and every function below that reads or
 * changes what the deferred cycles would change do them first, in order.
 * Contract: call m6569_sync() before reading the state struct directly
 * (bus_phi1, aec, ba, counters, framebuffer, a snapshot copy) and before a
 * write to memory the VIC may fetch (m6569_fetches()); m6569_peek(),
 * m6569_line() and m6569_xpos() need no sync. Colour RAM needs a sync
 * before a write too (a bad line's deferred c-accesses read it).
 * m6569_tick() never defers; both ticks may be mixed. */
uint32_t m6569_tick_planned(m6569 *vic); /* m6569_tick + the next quiet stretch */
void m6569_catch_up(m6569 *vic);

static inline uint32_t m6569_tick_deferring(m6569 *vic)
{
    const unsigned n = vic->cycle + 1u;
    if (n < vic->links.quiet_end) {
        vic->cycle = (uint8_t)n;
        vic->ticks++;
        return vic->links.quiet_pins | (vic->irq ? M6569_PIN_IRQ : 0u);
    }
    return m6569_tick_planned(vic);
}

/* Does the deferred work (nothing when none is pending). */
static inline void m6569_sync(m6569 *vic)
{
    if (vic->links.synced != vic->cycle) m6569_catch_up(vic);
}

/* Whether a quiet cycle may fetch VIC address addr ($0000-$3FFF) in the
 * current mode (character/bitmap base, video matrix's sprite pointers,
 * $3F00-$3FFF refresh and idle, $39FF with ECM): conservative. While a
 * bad line's c-accesses are deferred (AEC low: a CPU cannot write then)
 * every address. */
static inline int m6569_fetches(const m6569 *vic, uint16_t addr)
{
    return !vic->links.quiet_pins ||
           (int)((vic->links.fetch_pages >> ((addr >> 8) & 63u)) & 1u);
}

/* Runs n cycles (for tests and headless runs). */
void m6569_run(m6569 *vic, uint32_t cycles);

/* CPU read of a register (address & $3F) with the chip's side effects:
 * $D01E/$D01F are cleared by reading. */
uint8_t m6569_read(m6569 *vic, uint16_t addr);

/* What a read would return, without side effects (for debuggers). */
uint8_t m6569_peek(const m6569 *vic, uint16_t addr);

/* CPU write of a register (address & $3F). $D019 clears the latch bits
 * written as 1; $D013/$D014/$D01E/$D01F and $D02F-$D03F ignore writes. */
void m6569_write(m6569 *vic, uint16_t addr, uint8_t value);

/* Level of the /LP input: low != 0 means pulled low. A falling edge latches
 * LPX/LPY and sets the LP interrupt, once per frame. */
void m6569_set_lightpen(m6569 *vic, int low);

/* The raster line the beam is on (0 in cycle 1 of line 0, where RASTER
 * still reads the last line). */
uint16_t m6569_line(const m6569 *vic);

/* Border and background colour (0-15) of each line of the last complete
 * frame, as they were in the line's last cycle; fills up to max entries of
 * each array and returns the frame's line count (0 before the first frame
 * has ended). */
size_t m6569_line_colors(const m6569 *vic, uint8_t *border, uint8_t *background, size_t max);

/* Sprite X coordinate of the beam at the start of the current cycle. */
uint16_t m6569_xpos(const m6569 *vic);

/* Timing and framebuffer layout of a model (NULL for an unknown one). */
const m6569_geometry *m6569_geometry_of(m6569_model model);

/* Model name ("6569", "8565", "6567R8", "8562", "6567R56A"), NULL if unknown. */
const char *m6569_model_name(m6569_model model);

/* Replace the links (after a restore, or to switch framebuffer/memory).
 * fb may be NULL: no pixels are written, timing and collisions still run.
 * Mid-line, the line's pixels not drawn yet go to the new framebuffer. */
void m6569_set_fetch(m6569 *vic, m6569_fetch_fn fetch, void *user);
void m6569_set_color_ram(m6569 *vic, const uint8_t *color_ram);
void m6569_set_framebuffer(m6569 *vic, uint8_t *fb, uint32_t pitch);
void m6569_set_fetch_map(m6569 *vic, const uint8_t *const *map);

/* Copies a saved state into vic, keeping vic's links. */
void m6569_restore(m6569 *vic, const m6569 *saved);

/* A copy for a snapshot (nothing may be deferred: sync first): the plan
 * of the next quiet stretch cleared, as a restore leaves it, so that equal
 * states give equal copies. */
void m6569_save(const m6569 *vic, m6569 *out);

/* Palettes: 16 colours as 0xRRGGBB. */
typedef enum m6569_palette_id {
    M6569_PALETTE_PEPTO = 0,   /* Philip "Pepto" Timmermann, 2001 (VICE's default PAL) */
    M6569_PALETTE_COLODORE = 1 /* Pepto's 2017 colodore.com palette */
} m6569_palette_id;

/* The 16 RGB values of a palette (the Pepto one for an unknown id). */
const uint32_t *m6569_palette(m6569_palette_id id);

#ifdef __cplusplus
}
#endif
#endif
