/* vic2_events.c - the VIC-II's collision and light pen events for the
 * debugger's event log (vic2_events.h). */
#include "vic2_events.h"

static void report_irq(const m6569 *v, uint8_t source)
{
    if (v->irq_mask & source) mh_event_emit(v->links.events, MH_CHIP_EV_IRQ, "vic2", source);
}

/* One register's collision: an event when it gains a sprite, the IRQ with
 * the first one after the register was cleared (as coll_latch sets it). */
static void report_one(const m6569 *v, uint8_t hit, uint8_t was, uint32_t flag, uint8_t source)
{
    if (!(hit & (uint8_t)~was)) return;
    mh_event_emit(v->links.events, MH_CHIP_EV_COLLISION, "vic2", hit | flag);
    if (!was) report_irq(v, source);
}

void vic2_report_collisions(const m6569 *v, uint8_t mm, uint8_t md, uint8_t mm_was,
                            uint8_t md_was)
{
    report_one(v, mm, mm_was, 0, M6569_INT_MMC);
    report_one(v, md, md_was, MH_CHIP_EV_COLLISION_BG, M6569_INT_MBC);
}

void vic2_report_lightpen(const m6569 *v, unsigned line)
{
    mh_event_emit(v->links.events, MH_CHIP_EV_LIGHTPEN, "vic2", v->lpx | (line & 0x1FFu) << 8);
    report_irq(v, M6569_INT_LP);
}
