/* mcphost/machine_events.h - the chip event sink (ABI 1.5): how a machine
 * tells a debugger that one of its chips raised a condition (an interrupt
 * request with its source, a raster compare match, a bad line, sprite DMA,
 * a sprite collision, a light pen trigger, a timer underflow), for the
 * event trace (trace_events_get).
 *
 * A machine keeps one mh_event_sink in its instance; its chips are given a
 * pointer to it and call mh_event_emit() at the points where the condition
 * arises (never on the per-cycle path: only in the branch that already
 * handles the event). A debugger installs or removes the callback through
 * mh_cpu6502_iface.set_event_sink (mcphost/machine.h); with none installed
 * an event costs one NULL check.
 *
 * Ownership: chip names are static strings (the chip's instance name,
 * "cia1", "vic2"). Threads: [emu-thread]: the callback runs inside the
 * machine's run(), between bus accesses; it must not call into the
 * machine except side-effect-free reads.
 */
#ifndef MCPHOST_MACHINE_EVENTS_H
#define MCPHOST_MACHINE_EVENTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What happened; detail says more, per kind. */
typedef enum mh_chip_event_kind {
    MH_CHIP_EV_IRQ = 1,        /* the chip asserted /IRQ; detail: its source bits (ICR/IFR/VIC IRQ) */
    MH_CHIP_EV_NMI = 2,        /* the chip asserted /NMI (wired to NMI); detail: source bits */
    MH_CHIP_EV_RASTER = 3,     /* raster compare matched; detail: the line */
    MH_CHIP_EV_BADLINE = 4,    /* a bad line began (CPU stalled for character DMA); detail: line */
    MH_CHIP_EV_SPRITE_DMA = 5, /* sprite DMA on this line; detail: sprite bit mask */
    MH_CHIP_EV_TIMER = 6,      /* a timer underflowed; detail: 0 timer A/1, 1 timer B/2, 2 timer 3 */
    /* a collision register gained a sprite; detail: bits 0-7 the sprites
     * colliding, plus MH_CHIP_EV_COLLISION_BG for sprite-background */
    MH_CHIP_EV_COLLISION = 7,
    MH_CHIP_EV_LIGHTPEN = 8    /* the light pen latch took the beam; detail: X/2 | line << 8 */
} mh_chip_event_kind;

#define MH_CHIP_EV_COLLISION_BG 0x100u

typedef void (*mh_chip_event_fn)(void *user, uint32_t kind, const char *chip, uint32_t detail);

typedef struct mh_event_sink {
    mh_chip_event_fn fn; /* NULL: nobody listens */
    void *user;
} mh_event_sink;

/* 1 while a debugger listens: a chip tests it before working out what
 * to report. */
static inline int mh_event_listening(const mh_event_sink *sink)
{
    return sink && sink->fn;
}

static inline void mh_event_emit(const mh_event_sink *sink, uint32_t kind, const char *chip,
                                 uint32_t detail)
{
    if (sink && sink->fn) sink->fn(sink->user, kind, chip, detail);
}

static inline const char *mh_chip_event_name(uint32_t kind)
{
    static const char *const names[] = {"?",          "irq",   "nmi",       "raster",  "badline",
                                        "sprite_dma", "timer", "collision", "lightpen"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

#ifdef __cplusplus
}
#endif
#endif
