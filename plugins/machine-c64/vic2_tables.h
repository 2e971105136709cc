/* vic2_tables.h - internal to the VIC-II: the per-model cycle tables, the
 * beam's X coordinates and the palettes (vic2_tables.c). Not for machines.
 *
 * Cycle table entry (index = 1-based cycle number):
 *   bits 0-2  phase-1 access: VIC2_K_IDLE ($3FFF), VIC2_K_REFRESH,
 *             VIC2_K_G (g-access), VIC2_K_PTR (p-access; phase 2 is
 *             s-access 0), VIC2_K_S1 (s-access 1; phase 2 is s-access 2)
 *   bits 3-5  sprite number for PTR/S1
 *   bits 8-15 sprites whose DMA pulls BA low in this cycle
 *   other     VIC2_F_* flags below.
 *
 * Pixels: the 8 pixels a tick of cycle n puts out are the beam positions
 * P' = 8(n-1) .. 8n-1, where P' = P + 5 and P counts pixels from the start
 * of cycle 1's phase 1. So cycle 17 holds X $17-$1E and cycle 57 holds
 * X $157-$15E on every model: the border and graphics comparisons at X $18,
 * $1F, $14F, $158 then fall in cycles 17, 18, 56, 57, the cycles whose
 * register values (written up to the cycle before) they must see.
 */
#ifndef MCPHOST_MACHINE_C64_VIC2_TABLES_H
#define MCPHOST_MACHINE_C64_VIC2_TABLES_H

#include <stdint.h>

#define VIC2_K_IDLE 0u
#define VIC2_K_REFRESH 1u
#define VIC2_K_G 2u
#define VIC2_K_PTR 3u
#define VIC2_K_S1 4u
#define VIC2_K_MASK 7u
#define VIC2_SPR_SHIFT 3
#define VIC2_BA_SHIFT 8

#define VIC2_F_C (1u << 6)        /* c-access in phase 2 on a bad line (15-54) */
#define VIC2_F_BAF (1u << 7)      /* a bad line pulls BA low (12-54) */
#define VIC2_F_VC (1u << 16)      /* VCBASE->VC, VMLI=0, RC=0 on bad line (14) */
#define VIC2_F_CRUNCH (1u << 17)  /* remember the Y-expansion flip flops (15) */
#define VIC2_F_MCBASE (1u << 18)  /* MCBASE update, DMA off at 63 (16) */
#define VIC2_F_DMA (1u << 19)     /* sprite DMA on check */
#define VIC2_F_EXP (1u << 20)     /* Y-expansion flip flops toggle */
#define VIC2_F_DISP (1u << 21)    /* MCBASE->MC, sprite display on/off (58) */
#define VIC2_F_RC (1u << 22)      /* RC / idle state / VCBASE update (58) */
#define VIC2_F_BL1 (1u << 23)     /* left border compare if CSEL=1 */
#define VIC2_F_BL0 (1u << 24)     /* left border compare if CSEL=0 */
#define VIC2_F_BR0 (1u << 25)     /* right border compare if CSEL=0 */
#define VIC2_F_BR1 (1u << 26)     /* right border compare if CSEL=1 */
#define VIC2_F_LAST (1u << 27)    /* last cycle: vertical border compare */
#define VIC2_F_RENDER (1u << 28)  /* pixels inside the framebuffer (13-61) */
#define VIC2_F_GFX (1u << 29)     /* graphics sequencer puts out characters (17-57) */
#define VIC2_F_NEWCHAR (1u << 30) /* a fetched character starts here (17-56) */
#define VIC2_F_FULL (1u << 31)    /* the tick's full path: line start (1, 2) and
                                   * the entry past the last cycle */
#define VIC2_F_EVENTS (0x0FFF0000u)
#define VIC2_F_BORDER (VIC2_F_BL1 | VIC2_F_BL0 | VIC2_F_BR0 | VIC2_F_BR1)

/* X coordinate maps. */
#define VIC2_XMAP_PAL 0
#define VIC2_XMAP_NTSC 1
#define VIC2_XMAP_NTSC_OLD 2

typedef struct vic2_timing {
    const uint32_t *cyc;     /* [1..cycles]; [cycles + 1] is VIC2_F_FULL */
    uint16_t cycles;
    uint16_t lines;
    uint16_t fb_first_line;
    uint16_t fb_height;
    uint8_t xmap;
} vic2_timing;

/* Index 0: PAL (6569, 8565), 1: NTSC (6567R8, 8562), 2: old NTSC. */
extern const vic2_timing m6569_timings[3];

/* Pixel position P (0 .. 8*cycles-1, from the start of cycle 1) where
 * sprite X coordinate x first appears in a line; -1 if it never does. */
int m6569_x_to_pos(unsigned xmap, unsigned x);

/* X coordinate at pixel position P (0 .. 8*cycles-1). */
unsigned m6569_pos_to_x(unsigned xmap, unsigned pos);

#endif
