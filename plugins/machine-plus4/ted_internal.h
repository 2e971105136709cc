/* ted_internal.h - what the TED's own files share (ted.c, ted_video.c,
 * ted_sound.c); not for the machine. */
#ifndef MH_PLUS4_TED_INTERNAL_H
#define MH_PLUS4_TED_INTERNAL_H

#include "ted.h"

/* ted_video.c: a DMA line's fetch of the next row's codes and attributes
 * (advances next_vc); drawing the current line into the framebuffer up to
 * pixel `end` (0-384) with the registers as they are now; drawing up to
 * the beam before a register that changes the picture is written. */
void ted_fetch_row(ted *t);
void ted_render_upto(ted *t, unsigned end);
void ted_catch_up(ted *t);


#endif
