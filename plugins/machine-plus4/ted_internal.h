/* ted_internal.h - what the TED's own files share (ted.c, ted_video.c,
 * ted_sound.c); not for the machine. */
#ifndef MH_PLUS4_TED_INTERNAL_H
#define MH_PLUS4_TED_INTERNAL_H

#include "ted.h"

/* ted_video.c: a DMA line's fetch of the attributes (into next_attrs) or
 * the codes (into codes) at dma_pos; drawing the current line into the
 * framebuffer up to pixel `end` (0-384) with the registers as they are now;
 * drawing up to the beam before a register that changes the picture is
 * written. */
void ted_fetch_attributes(ted *t);
void ted_fetch_codes(ted *t);
void ted_render_upto(ted *t, unsigned end);
void ted_catch_up(ted *t);


/* ted.c: the per-cycle cache for the beam's region of the line. */
void ted_region(ted *t);

/* ted_sound.c: the voices brought up to the current tick (before a sound
 * register changes), the sample clock restarted (reset). */
void ted_sound_sync(ted *t);
void ted_sound_restart(ted *t);

#endif
