/* ted_internal.h - what the TED's own files share (ted.c, ted_video.c,
 * ted_sound.c); not for the machine. */
#ifndef MH_PLUS4_TED_INTERNAL_H
#define MH_PLUS4_TED_INTERNAL_H

#include "ted.h"

/* ted_video.c: a DMA line's fetch of the next row's codes and attributes
 * (advances next_vc); drawing the current line into the framebuffer. */
void ted_fetch_row(ted *t);
void ted_render_line(ted *t);


#endif
