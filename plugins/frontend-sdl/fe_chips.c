/* fe_chips.c - the chip-state pane's text: one short summary per chip the
 * session registered, from a table of chip interfaces and their
 * summarizers: VIC-II, CIA and SID (C64), VIC and VIA (VIC-20), TED
 * (Plus/4), each through its chip interface only. Runs on the session's
 * emulation thread inside the inspection job (fe_inspect.c). */
#include <stdio.h>
#include <string.h>

#include "fe.h"
#include "mcphost/chip_cia.h"
#include "mcphost/chip_sid.h"
#include "mcphost/chip_ted.h"
#include "mcphost/chip_via.h"
#include "mcphost/chip_vic.h"
#include "mcphost/chip_vic2.h"

typedef size_t (*summarize_fn)(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max);

/* The VIC-II's and the TED's display modes (their mode numbers agree). */
static const char *const modes[] = {"text", "mc text", "bitmap", "mc bitmap",
                                    "ecm text", "invalid", "invalid", "invalid"};

static size_t vic2_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_vic2_iface *v = chip->vtable;
    mh_chip_vic2_view view = {.struct_size = sizeof view};
    if (max < 2 || v->view(chip->context, &view) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "VIC-II %s %s line %3u cyc %2u %s", view.model ? view.model : "",
             view.standard ? view.standard : "", (unsigned)view.raster_line,
             (unsigned)view.raster_cycle, modes[view.mode & 7]);
    snprintf(lines[1], FE_CHIP_LINE, " scr $%04X chr $%04X bd %2u bg %2u irq $%02X/$%02X",
             (unsigned)view.screen_address, (unsigned)view.charset_address,
             (unsigned)(view.border_color & 15), (unsigned)(view.background[0] & 15),
             (unsigned)view.irq_flags, (unsigned)view.irq_mask);
    return 2;
}

static size_t cia_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_cia_iface *c = chip->vtable;
    mh_chip_cia_view view = {.struct_size = sizeof view};
    if (max < 1 || c->view(chip->context, &view) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "%-5.5s TA $%04X%c TB $%04X%c ICR $%02X/$%02X",
             chip->instance, (unsigned)view.timer_a.counter, view.timer_a.running ? '*' : ' ',
             (unsigned)view.timer_b.counter, view.timer_b.running ? '*' : ' ',
             (unsigned)view.icr_flags, (unsigned)view.icr_mask);
    return 1;
}

static size_t sid_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_sid_iface *s = chip->vtable;
    mh_chip_sid_filter filter = {.struct_size = sizeof filter};
    if (max < 2 || s->filter(chip->context, &filter) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "SID %s vol %u filter $%03X res %u",
             s->model_name ? s->model_name(chip->context) : "", (unsigned)filter.volume,
             (unsigned)filter.cutoff, (unsigned)filter.resonance);
    int n = snprintf(lines[1], FE_CHIP_LINE, " ");
    for (unsigned v = 0; v < 3; v++) {
        mh_chip_sid_voice voice = {.struct_size = sizeof voice};
        if (s->voice(chip->context, v, &voice) != MH_OK) continue;
        if (n > 0 && n < FE_CHIP_LINE)
            n += snprintf(lines[1] + n, (size_t)(FE_CHIP_LINE - n), " v%u $%04X %s", v + 1,
                          (unsigned)voice.freq, voice.control & 1 ? "on " : "off");
    }
    return 2;
}

static size_t vic_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_vic_iface *v = chip->vtable;
    mh_chip_vic_view view = {.struct_size = sizeof view};
    if (max < 2 || v->view(chip->context, &view) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "VIC %s %s line %3u cyc %2u %ux%u",
             view.model ? view.model : "", view.standard ? view.standard : "",
             (unsigned)view.raster_line, (unsigned)view.raster_cycle, (unsigned)view.columns,
             (unsigned)view.rows);
    int n = snprintf(lines[1], FE_CHIP_LINE, " scr $%04X chr $%04X bd %u bg %2u vol %2u",
                     (unsigned)view.screen_address, (unsigned)view.charset_address,
                     (unsigned)view.border_color, (unsigned)view.background_color,
                     (unsigned)view.volume);
    for (unsigned i = 0; i < 4 && n > 0 && n < FE_CHIP_LINE; i++)
        n += snprintf(lines[1] + n, (size_t)(FE_CHIP_LINE - n), "%c", view.voices[i].on ? '*' : '.');
    return 2;
}

static size_t via_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_via_iface *c = chip->vtable;
    mh_chip_via_view view = {.struct_size = sizeof view};
    if (max < 1 || c->view(chip->context, &view) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "%-5.5s T1 $%04X%c T2 $%04X IFR $%02X/$%02X", chip->instance,
             (unsigned)view.t1.counter, view.t1.free_run ? '*' : ' ', (unsigned)view.t2.counter,
             (unsigned)view.ifr, (unsigned)view.ier);
    return 1;
}

static size_t ted_lines(const mh_chip *chip, char lines[][FE_CHIP_LINE], size_t max)
{
    const mh_chip_ted_iface *t = chip->vtable;
    mh_chip_ted_view view = {.struct_size = sizeof view};
    if (max < 4 || t->view(chip->context, &view) != MH_OK) return 0;
    snprintf(lines[0], FE_CHIP_LINE, "TED %s %s line %3u %s %s", view.model ? view.model : "",
             view.standard ? view.standard : "", (unsigned)view.raster_line,
             modes[view.mode & 7], view.rom_enabled ? "ROM" : "RAM");
    snprintf(lines[1], FE_CHIP_LINE, " scr $%04X chr $%04X bd $%02X bg $%02X",
             (unsigned)view.screen_address, (unsigned)view.charset_address,
             (unsigned)view.border.value, (unsigned)view.background[0].value);
    snprintf(lines[2], FE_CHIP_LINE, " irq $%02X/$%02X T1 $%04X T2 $%04X T3 $%04X",
             (unsigned)view.irq_flags, (unsigned)view.irq_mask, (unsigned)view.timers[0].counter,
             (unsigned)view.timers[1].counter, (unsigned)view.timers[2].counter);
    snprintf(lines[3], FE_CHIP_LINE, " vol %u v1 %s v2 %s", (unsigned)view.volume,
             view.voices[0].on ? "on" : "off",
             view.voices[1].on ? (view.voices[1].noise ? "noise" : "on") : "off");
    return 4;
}

static const struct {
    const char *interface_id;
    summarize_fn summarize;
} summarizers[] = {
    {MH_CHIP_VIC2_IFACE, vic2_lines},
    {MH_CHIP_CIA_IFACE, cia_lines},
    {MH_CHIP_SID_IFACE, sid_lines},
    {MH_CHIP_VIC_IFACE, vic_lines},
    {MH_CHIP_VIA_IFACE, via_lines},
    {MH_CHIP_TED_IFACE, ted_lines},
};

size_t fe_chips_summarize(const mh_session_service *sessions, mh_session *session,
                          char lines[][FE_CHIP_LINE], size_t max)
{
    size_t n = 0;
    size_t count = sessions->chip_count(session);
    for (size_t i = 0; i < count && n < max; i++) {
        const mh_chip *chip = sessions->chip_at(session, i);
        for (size_t k = 0; k < sizeof summarizers / sizeof summarizers[0]; k++)
            if (strcmp(chip->interface_id, summarizers[k].interface_id) == 0)
                n += summarizers[k].summarize(chip, lines + n, max - n);
    }
    return n;
}
