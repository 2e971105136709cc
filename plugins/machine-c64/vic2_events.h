/* vic2_events.h - internal to the VIC-II: what it reports to a listening
 * debugger about its collision and light pen latches (vic2_events.c).
 * Not for machines.
 *
 * vic2.c calls these from the branches that already set the latches, and
 * only when mh_event_listening() says a debugger listens; they read the
 * chip and never change it, so emulation is the same with or without one.
 * Threading: [emu-thread], like the chip.
 */
#ifndef MCPHOST_MACHINE_C64_VIC2_EVENTS_H
#define MCPHOST_MACHINE_C64_VIC2_EVENTS_H

#include "vic2.h"

/* mm/md: the sprites colliding in this tick (sprite-sprite, sprite-
 * background); mm_was/md_was: $D01E/$D01F before they were added. */
void vic2_report_collisions(const m6569 *v, uint8_t mm, uint8_t md, uint8_t mm_was,
                            uint8_t md_was);

/* The light pen latch has just taken X (LPX) on the given beam line. */
void vic2_report_lightpen(const m6569 *v, unsigned line);

#endif
