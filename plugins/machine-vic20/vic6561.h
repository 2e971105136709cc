/* vic6561.h - the MOS 6561 (PAL) / 6560 (NTSC) Video Interface Chip, cycle
 * by cycle (docs/vic6560.md). Prefix m6561_.
 *
 * The chip: a 16-register video and sound chip on its own 14-bit bus that
 * it shares with the CPU on alternate half cycles (it never stops the CPU).
 * Each CPU cycle it makes 4 pixels; a character column takes two cycles:
 * the video matrix fetch (screen code + its colour nybble on the upper four
 * data lines) and the character generator fetch. Geometry from $9000-$9003
 * (origin, columns, rows, 8x8 / 8x16), memory from $9002 bit 7 and $9005,
 * colours from $900E/$900F (auxiliary, background, border, reverse), the
 * raster line in $9003 bit 7 + $9004; three square voices and a noise
 * voice with a 4-bit volume ($900A-$900E).
 *
 * Machine-side contract: one cycle per CPU cycle (before the CPU's access):
 * m6561_tick(), or pending++ and m6561_sync() before anything that reads
 * the chip's state or changes its memory (see m6561_sync); the machine maps the VIC's 14-bit bus as 16 blocks of 1 KiB
 * (m6561_desc.blocks) plus the colour RAM nybbles. The framebuffer
 * (palette indices) is the machine's; m6561_tick() returns 1 when a frame
 * ended (the machine swaps buffers).
 *
 * Ownership: plain struct owned by the machine; callbacks and the
 * framebuffer are borrowed (m6561_restore keeps them). Threads: [emu-thread].
 */
#ifndef MH_VIC6561_H
#define MH_VIC6561_H

#include <stddef.h>
#include <stdint.h>

typedef enum m6561_model { M6561_MODEL_6561 = 0, M6561_MODEL_6560 = 1 } m6561_model;

/* Framebuffer: the visible area of the PAL chip is the largest. */
#define M6561_FB_WIDTH 284
#define M6561_FB_MAX_HEIGHT 288

#define M6561_AUDIO_RATE 44100u
#define M6561_AUDIO_RING 16384u

typedef struct m6561_geometry {
    uint32_t clock_hz;
    uint16_t cycles_per_line;
    uint16_t lines_per_frame;
    uint16_t first_line;   /* the first line in the framebuffer */
    uint16_t width, height; /* the visible area (framebuffer) */
    uint16_t first_cycle;  /* the cycle at framebuffer x = 0 */
    /* A pixel's width over its height on a TV: the square-pixel rate
     * (PAL 14.75 MHz, NTSC 12.27 MHz for a whole frame) over the dot clock
     * (4x the CPU's), halved for a non-interlaced frame. */
    double pixel_aspect;
} m6561_geometry;

typedef struct m6561_desc {
    m6561_model model;
    /* What the VIC's bus reaches: per 1 KiB block of its 14-bit space the
     * bytes there, or NULL where nothing answers (reads $FF); the colour
     * RAM on the upper four data lines (1 KiB of nybbles). */
    const uint8_t *blocks[16];
    const uint8_t *color;
    uint8_t *framebuffer; /* M6561_FB_WIDTH x M6561_FB_MAX_HEIGHT */
    /* Called at the end of each frame, inside m6561_sync() (the machine
     * swaps framebuffers there); may be NULL. */
    void (*frame_done)(void *user);
    void *user;
    /* 1: no sound synthesis (the voice registers are kept, no samples are
     * made; nothing the CPU can read depends on the voices). */
    int sound_off;
} m6561_desc;

typedef struct m6561_voice {
    uint32_t counter;   /* cycles into the current half period */
    uint8_t level;      /* square output 0/1 */
    uint8_t reserved[3];
} m6561_voice;

typedef struct m6561 {
    m6561_model model;
    uint8_t regs[16];
    uint16_t line, cycle;      /* the beam */
    uint64_t frame;            /* frames since reset */
    uint64_t ticks;            /* cycles since reset (run so far) */
    uint32_t pending;          /* cycles ticked but not yet run (m6561_sync) */
    /* Display state. */
    uint8_t row_active;        /* between the first and the last text row */
    uint8_t row_done;          /* the last row of this frame has ended */
    uint8_t row, row_line;     /* text row, pixel line within it */
    uint16_t matrix_base;      /* video matrix offset of this row */
    uint8_t last_data;         /* the last byte the VIC read (open bus) */
    uint8_t cell_code, cell_color; /* the matrix fetch of the current column */
    uint8_t out_data, out_color;   /* the column in the pixel output stage */
    uint8_t sound_off;         /* m6561_desc.sound_off (a setting: m6561_restore keeps it) */
    /* Sound. */
    m6561_voice voice[4];
    uint32_t noise_lfsr;
    uint32_t sample_frac;      /* cycles * rate accumulated toward a sample */
    uint32_t since_sample;     /* cycles since the last sample */
    uint32_t sample_in;        /* cycles until the next sample */
    int16_t ring[M6561_AUDIO_RING];
    uint32_t ring_head, ring_count;
    /* Borrowed (kept by m6561_restore). */
    const uint8_t *blocks[16];
    const uint8_t *color;
    uint8_t *fb;
    uint8_t *line_px;          /* this line's framebuffer row, NULL when not shown */
    void (*frame_done)(void *user);
    void *user;
} m6561;

const m6561_geometry *m6561_geometry_of(m6561_model model);
const char *m6561_model_name(m6561_model model);
void m6561_init(m6561 *vic, const m6561_desc *desc);
void m6561_reset(m6561 *vic);
/* Runs the cycles ticked so far (the chip catches up lazily: the machine
 * counts cycles in `pending` and syncs before anything that depends on the
 * chip's state or changes what it reads: a register access, a write into
 * memory the chip fetches, a frame or audio read). Returns the frames
 * that ended. */
unsigned m6561_sync(m6561 *vic);
/* One cycle now (pending + 1, then sync); returns the frames that ended. */
static inline unsigned m6561_tick(m6561 *vic)
{
    vic->pending++;
    return m6561_sync(vic);
}
uint8_t m6561_read(const m6561 *vic, uint8_t reg);
void m6561_write(m6561 *vic, uint8_t reg, uint8_t value);
void m6561_set_framebuffer(m6561 *vic, uint8_t *fb);
/* The light pen input fell now: latches the beam into $9006/$9007. */
void m6561_set_lightpen(m6561 *vic);
/* The screen / colour / character addresses as the VIC sees them. */
uint16_t m6561_screen_vic_address(const m6561 *vic);
uint16_t m6561_char_vic_address(const m6561 *vic);
/* Frequency of voice v (0-3) now in Hz; 0 when off. */
double m6561_voice_hz(const m6561 *vic, unsigned v);
/* Takes up to max samples (mono s16 at M6561_AUDIO_RATE); none with sound_off. */
size_t m6561_audio_read(m6561 *vic, int16_t *out, size_t max);
/* The 16 colours as 0xRRGGBB. */
const uint32_t *m6561_palette(void);
void m6561_restore(m6561 *vic, const m6561 *saved);
/* What the VIC reads at a 14-bit address: data (bits 0-7) and the colour
 * nybble (bits 8-11). */
static inline uint16_t m6561_fetch(const m6561 *vic, uint16_t vic_address)
{
    const uint8_t *block = vic->blocks[(vic_address >> 10) & 15u];
    uint8_t data = block ? block[vic_address & 0x3FFu] : 0xFFu;
    return (uint16_t)(data | (vic->color[vic_address & 0x3FFu] & 0x0Fu) << 8);
}

/* CPU address of a 14-bit VIC address. */
static inline uint16_t m6561_cpu_address(uint16_t vic_address)
{
    vic_address &= 0x3FFFu;
    return (uint16_t)((vic_address & 0x2000u) ? vic_address - 0x2000u : vic_address + 0x8000u);
}

#endif
