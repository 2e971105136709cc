/* tools_trace.c - the traces of issue #18 through the host's debug engine
 * (mh.debug/1, ABI 1.5): trace_frame_start/stop/get (the chip register
 * writes of whole frames, each named from the chip's register table with a
 * short meaning: td_chipregs.h), trace_events_get (IRQ/NMI sources, raster
 * compare, bad lines, sprite DMA and collisions, light pen triggers, timer
 * underflows the machine reports, and the interrupts the CPU took) and
 * trace_cycles_get/reset (cycle counters over a routine or between two
 * addresses). Paged like the history tools
 * (td_page.h); addresses take labels (td_resolve.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/machine_events.h>

#include "td_chipregs.h"
#include "td_page.h"
#include "td_resolve.h"
#include "td_store.h"
#include "td_util.h"

/* The engine has the trace members (ABI 1.5). */
static int has_traces(const td_plugin *p)
{
    return p->debug && p->debug->struct_size >= offsetof(mh_debug_service, counters_reset) +
                                                    sizeof p->debug->counters_reset;
}

static int begin(td_call *c, void *user, mh_call *call, const char *tool)
{
    if (td_begin(c, user, call, tool, TD_NEED_CPU) != 0) return -1;
    if (!has_traces(c->plugin)) return td_fail(c, "%s: this host's debug engine has no traces", tool);
    return 0;
}

static int address_arg(td_call *c, const char *key, uint32_t *out)
{
    mh_status s = td_resolve_arg(c->plugin->store, td_session_name(c), c->args, key, 0xFFFF, out,
                                 c->err, sizeof c->err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) return td_fail_arg(c);
    return s == MH_OK ? 1 : 0;
}

static const char *const ftrace_states[] = {"off", "waiting", "recording", "done"};

/* ---- trace_frame_start ---- */

/* Marks the chip registers the filters keep in map; returns how many
 * addresses. registers: names or numbers separated by commas (NULL all). */
static size_t build_map(const td_chip_map *chips, size_t n, const char *chip,
                        const char *registers, uint32_t lo, uint32_t hi, uint8_t *map)
{
    size_t marked = 0;
    for (size_t i = 0; i < n; i++) {
        if (chip && strcmp(chip, chips[i].instance) != 0) continue;
        uint8_t wanted[64] = {0};
        int any = 0;
        for (const char *p = registers; p && *p;) {
            char name[16];
            size_t len = strcspn(p, ", ");
            snprintf(name, sizeof name, "%.*s", (int)(len < 15 ? len : 15), p);
            int reg = td_chip_reg_by_name(&chips[i], name);
            char *end;
            unsigned long number = strtoul(name, &end, 0);
            if (reg < 0 && *name && !*end && number < chips[i].registers) reg = (int)number;
            if (reg >= 0 && reg < 64) wanted[reg] = 1, any = 1;
            p += len;
            p += strspn(p, ", ");
        }
        if (registers && !any) continue;
        for (uint32_t a = chips[i].base; a < chips[i].base + chips[i].size && a <= 0xFFFF; a++) {
            uint32_t reg = (a - chips[i].base) % chips[i].stride;
            if (reg >= chips[i].registers || (registers && !wanted[reg]) || a < lo || a > hi)
                continue;
            map[a] = 1;
            marked++;
        }
    }
    return marked;
}

static void trace_frame_start(void *user, mh_call *call)
{
    td_call c;
    uint8_t *map = NULL;
    mh_json_writer *w = NULL;
    if (begin(&c, user, call, "trace_frame_start") != 0) goto done;
    int64_t frames = 1, capacity = 65536;
    const char *chip = NULL, *registers = NULL;
    uint32_t lo = 0, hi = 0xFFFF, pc_lo = 0, pc_hi = 0xFFFF;
    mh_status s = mh_args_int(c.args, "frames", 0, 1000, &frames, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_int(c.args, "capacity", 1, 1 << 22, &capacity, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_string(c.args, "chip", &chip, NULL, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_string(c.args, "registers", &registers, NULL, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (address_arg(&c, "address", &lo) < 0 || address_arg(&c, "end", &hi) < 0 ||
        address_arg(&c, "pc_start", &pc_lo) < 0 || address_arg(&c, "pc_end", &pc_hi) < 0)
        goto done;
    if (lo > hi || pc_lo > pc_hi) {
        td_fail(&c, "trace_frame_start: address must be <= end and pc_start <= pc_end");
        goto done;
    }
    td_chip_map chips[TD_CHIPS_MAX];
    size_t n = td_chips_of(c.plugin, c.session, chips, TD_CHIPS_MAX);
    map = calloc(65536, 1);
    w = mh_json_writer_new();
    if (!map || !w) {
        td_fail(&c, "trace_frame_start: out of memory");
        goto done;
    }
    size_t marked = build_map(chips, n, chip, registers, lo, hi, map);
    int has_range = lo != 0 || hi != 0xFFFF;
    if (!n && has_range && !chip && !registers) {
        /* A machine without register-bearing chips (bare6502): its I/O
         * ports are just addresses, so the range itself is traced. */
        memset(map + lo, 1, hi - lo + 1);
        marked = hi - lo + 1;
    }
    if (!marked) {
        char have[200] = "";
        for (size_t i = 0, used = 0; i < n && used < sizeof have; i++)
            used += (size_t)snprintf(have + used, sizeof have - used, "%s%s (%s)", i ? ", " : "",
                                     chips[i].instance, chips[i].family);
        td_fail(&c, "trace_frame_start: no chip register matches chip/registers/address; this "
                "machine's chips: %s", n ? have : "none with registers in the CPU's map");
        goto done;
    }
    mh_frame_trace_spec spec = {sizeof spec, (uint32_t)frames, map, (uint16_t)pc_lo,
                                (uint16_t)pc_hi, (uint32_t)capacity};
    char error[200] = "";
    if (c.plugin->debug->frame_trace_start(c.session, &spec, error, sizeof error) != MH_OK) {
        td_fail(&c, "trace_frame_start: %s", error);
        goto done;
    }
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "state");
    mh_json_write_string(w, "waiting");
    mh_json_write_key(w, "frames");
    mh_json_write_uint(w, (uint64_t)frames);
    mh_json_write_key(w, "addresses");
    mh_json_write_uint(w, marked);
    mh_json_write_object_end(w);
    char text[300];
    snprintf(text, sizeof text, "Frame trace armed: %zu register addresses, recording from the "
             "next frame start for %lld frame%s%s; run the machine, then trace_frame_get.",
             marked, (long long)frames, frames == 1 ? "" : "s", frames ? "" : " (until stopped)");
    td_result(&c, w, text);
done:
    mh_json_writer_free(w);
    free(map);
    td_end(&c);
}

/* ---- trace_frame_stop / trace_frame_get ---- */

static void write_status(mh_json_writer *w, td_buf *text, const mh_frame_trace_status *st)
{
    const char *state = ftrace_states[st->state < 4 ? st->state : 0];
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state);
    mh_json_write_key(w, "frames_done");
    mh_json_write_uint(w, st->frames_done);
    mh_json_write_key(w, "recorded");
    mh_json_write_uint(w, st->recorded);
    mh_json_write_key(w, "dropped");
    mh_json_write_uint(w, st->dropped);
    td_buf_printf(text, "Frame trace %s: %llu frames done, %llu writes recorded, %llu dropped "
                  "(trace full)", state, (unsigned long long)st->frames_done,
                  (unsigned long long)st->recorded, (unsigned long long)st->dropped);
}

static void trace_frame_stop(void *user, mh_call *call)
{
    td_call c;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    if (begin(&c, user, call, "trace_frame_stop") != 0) goto done;
    c.plugin->debug->frame_trace_stop(c.session);
    mh_frame_trace_status st = {sizeof st, 0, 0, 0, 0, 0, 0, 0};
    c.plugin->debug->frame_trace_copy(c.session, 0, NULL, 0, &st);
    w = mh_json_writer_new();
    if (!w) {
        td_fail(&c, "trace_frame_stop: out of memory");
        goto done;
    }
    mh_json_write_object_begin(w);
    write_status(w, &text, &st);
    mh_json_write_object_end(w);
    td_buf_printf(&text, ".\n");
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    td_buf_free(&text);
    td_end(&c);
}

static void write_entry(td_call *c, mh_json_writer *w, td_buf *text, const mh_write_record *r,
                        const td_chip_map *chips, size_t n)
{
    int reg;
    int at = td_chip_at(chips, n, r->address, &reg);
    const char *name = at >= 0 ? td_chip_reg_name(&chips[at], reg) : "";
    char meaning[96] = "";
    if (at >= 0) td_chip_annotate(&chips[at], reg, r->value, meaning, sizeof meaning);
    char label[80] = "";
    td_resolve_format_locked(c->plugin->store, td_session_name(c), r->pc, label, sizeof label);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "cycle");
    mh_json_write_uint(w, r->cycle);
    mh_json_write_key(w, "line");
    mh_json_write_uint(w, r->line);
    mh_json_write_key(w, "line_cycle");
    mh_json_write_uint(w, r->line_cycle);
    mh_args_write_address(w, "pc", r->pc);
    mh_args_write_address(w, "address", r->address);
    if (at >= 0) {
        mh_json_write_key(w, "chip");
        mh_json_write_string(w, chips[at].instance);
        mh_json_write_key(w, "register");
        mh_json_write_string(w, name);
    }
    td_write_byte(w, "value", r->value);
    if (meaning[0]) {
        mh_json_write_key(w, "meaning");
        mh_json_write_string(w, meaning);
    }
    mh_json_write_object_end(w);
    td_buf_printf(text, "cycle %llu line %u.%u pc $%04X%s%s%s: $%04X %s %s = $%02X%s%s\n",
                  (unsigned long long)r->cycle, r->line, r->line_cycle, r->pc,
                  label[0] ? " (" : "", label, label[0] ? ")" : "", r->address,
                  at >= 0 ? chips[at].instance : "", name, r->value, meaning[0] ? " " : "",
                  meaning);
}

static void trace_frame_get(void *user, mh_call *call)
{
    td_call c;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    mh_write_record *all = NULL;
    if (begin(&c, user, call, "trace_frame_get") != 0) goto done;
    int64_t count, offset;
    int oldest;
    if (td_page_args(&c, &count, &offset, &oldest) != 0) goto done;
    mh_frame_trace_status st = {sizeof st, 0, 0, 0, 0, 0, 0, 0};
    c.plugin->debug->frame_trace_copy(c.session, 0, NULL, 0, &st);
    size_t held = (size_t)st.recorded;
    all = malloc((held ? held : 1) * sizeof *all);
    w = mh_json_writer_new();
    if (!all || !w) {
        td_fail(&c, "trace_frame_get: out of memory");
        goto done;
    }
    held = c.plugin->debug->frame_trace_copy(c.session, 0, all, held, &st);
    td_chip_map chips[TD_CHIPS_MAX];
    size_t n = td_chips_of(c.plugin, c.session, chips, TD_CHIPS_MAX);
    size_t shown = td_page_size(held, offset, count);
    mh_json_write_object_begin(w);
    td_page_head(w, held, held, offset);
    write_status(w, &text, &st);
    td_buf_printf(&text, "; %zu shown, %s first from offset %lld:\n", shown,
                  oldest ? "oldest" : "newest", (long long)offset);
    mh_json_write_key(w, "writes");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < shown; i++) /* records are held oldest first */
        write_entry(&c, w, &text, &all[held - 1 - td_page_index(held, offset, i, oldest)], chips,
                    n);
    mh_json_write_array_end(w);
    td_page_tail(w, &text, held, offset, shown);
    mh_json_write_object_end(w);
    if (text.failed) {
        td_fail(&c, "trace_frame_get: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(all);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- trace_events_get ---- */

static const char *event_name(uint32_t kind)
{
    return kind == MH_TRACE_EV_TAKEN ? "taken" : mh_chip_event_name(kind);
}

/* The names of a chip's interrupt source bits, for the event text. */
static const struct {
    const char *chip;
    const char *bits[8];
} irq_sources[] = {
    {"vic2", {"raster", "sprite-background", "sprite-sprite", "light pen"}},
    {"cia1", {"timer A", "timer B", "TOD alarm", "serial", "FLAG"}},
    {"cia2", {"timer A", "timer B", "TOD alarm", "serial", "FLAG"}},
};

/* " (raster, light pen)" for the bits of sources the chip's table names. */
static void irq_source_names(td_buf *text, const char *chip, uint32_t sources)
{
    for (size_t i = 0; i < sizeof irq_sources / sizeof irq_sources[0]; i++) {
        if (strcmp(irq_sources[i].chip, chip) != 0) continue;
        const char *sep = " (";
        for (unsigned bit = 0; bit < 8; bit++)
            if ((sources >> bit & 1u) && irq_sources[i].bits[bit]) {
                td_buf_printf(text, "%s%s", sep, irq_sources[i].bits[bit]);
                sep = ", ";
            }
        if (sep[0] == ',') td_buf_printf(text, ")");
        return;
    }
}

static void event_text(td_buf *text, const mh_trace_event *e)
{
    static const char *const taken[] = {"IRQ", "NMI", "BRK", "reset"};
    td_buf_printf(text, "cycle %llu line %u.%u pc $%04X: %s ", (unsigned long long)e->cycle,
                  e->line, e->line_cycle, e->pc, e->chip);
    switch (e->kind) {
    case MH_TRACE_EV_TAKEN: td_buf_printf(text, "took %s\n", taken[e->detail & 3]); break;
    case MH_CHIP_EV_IRQ:
    case MH_CHIP_EV_NMI:
        td_buf_printf(text, "raised %s, sources $%02X", e->kind == MH_CHIP_EV_IRQ ? "IRQ" : "NMI",
                      e->detail);
        irq_source_names(text, e->chip, e->detail);
        td_buf_printf(text, "\n");
        break;
    case MH_CHIP_EV_RASTER: td_buf_printf(text, "raster compare hit line %u\n", e->detail); break;
    case MH_CHIP_EV_BADLINE: td_buf_printf(text, "bad line %u\n", e->detail); break;
    case MH_CHIP_EV_SPRITE_DMA: td_buf_printf(text, "sprite DMA, sprites $%02X\n", e->detail); break;
    case MH_CHIP_EV_TIMER: td_buf_printf(text, "timer %u underflow\n", e->detail + 1); break;
    case MH_CHIP_EV_COLLISION:
        td_buf_printf(text, "sprite-%s collision, sprites $%02X\n",
                      (e->detail & MH_CHIP_EV_COLLISION_BG) ? "background" : "sprite",
                      e->detail & 0xFFu);
        break;
    case MH_CHIP_EV_LIGHTPEN:
        td_buf_printf(text, "light pen latched X/2 $%02X line %u\n", e->detail & 0xFFu,
                      e->detail >> 8);
        break;
    default: td_buf_printf(text, "event %u detail %u\n", e->kind, e->detail); break;
    }
}

static void trace_events_get(void *user, mh_call *call)
{
    static const char *const kinds[] = {"all", "irq", "nmi", "raster", "badline",
                                        "sprite_dma", "timer", "collision", "lightpen",
                                        "taken"};
    const size_t taken = sizeof kinds / sizeof kinds[0] - 1; /* the rest are chip event kinds */
    td_call c;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    mh_trace_event *all = NULL;
    size_t *match = NULL;
    if (begin(&c, user, call, "trace_events_get") != 0) goto done;
    int64_t count, offset, size = -1, capacity = 0;
    int oldest;
    size_t kind = 0;
    mh_status s = mh_args_int(c.args, "size", 0, 1 << 22, &size, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_choice(c.args, "kind", kinds, taken + 1, &kind, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (td_page_args(&c, &count, &offset, &oldest) != 0) goto done;
    if (c.plugin->debug->events_config(c.session, size, &capacity) != MH_OK) {
        td_fail(&c, "trace_events_get: cannot set size %lld", (long long)size);
        goto done;
    }
    all = malloc((capacity ? (size_t)capacity : 1) * sizeof *all);
    match = malloc((capacity ? (size_t)capacity : 1) * sizeof *match);
    w = mh_json_writer_new();
    if (!all || !match || !w) {
        td_fail(&c, "trace_events_get: out of memory");
        goto done;
    }
    size_t held = c.plugin->debug->events_copy(c.session, 0, all, (size_t)capacity), n = 0;
    uint32_t want = kind == taken ? MH_TRACE_EV_TAKEN : (uint32_t)kind;
    for (size_t i = 0; i < held; i++)
        if (!want || all[i].kind == want) match[n++] = i;
    size_t shown = td_page_size(n, offset, count);
    mh_json_write_object_begin(w);
    td_page_head(w, (size_t)capacity, n, offset);
    td_buf_printf(&text, "%zu of %zu logged %s events (log size %lld%s), %s first from offset "
                  "%lld:\n", shown, n, kinds[kind], (long long)capacity,
                  capacity ? "" : ": off, turn on with size", oldest ? "oldest" : "newest",
                  (long long)offset);
    mh_json_write_key(w, "events");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < shown; i++) {
        const mh_trace_event *e = &all[match[td_page_index(n, offset, i, oldest)]];
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "cycle");
        mh_json_write_uint(w, e->cycle);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, e->line);
        mh_json_write_key(w, "line_cycle");
        mh_json_write_uint(w, e->line_cycle);
        mh_args_write_address(w, "pc", e->pc);
        mh_json_write_key(w, "kind");
        mh_json_write_string(w, event_name(e->kind));
        mh_json_write_key(w, "chip");
        mh_json_write_string(w, e->chip);
        mh_json_write_key(w, "detail");
        mh_json_write_uint(w, e->detail);
        mh_json_write_object_end(w);
        event_text(&text, e);
    }
    mh_json_write_array_end(w);
    td_page_tail(w, &text, n, offset, shown);
    mh_json_write_object_end(w);
    if (text.failed) {
        td_fail(&c, "trace_events_get: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(match);
    free(all);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- trace_cycles_get / trace_cycles_reset ---- */

static void write_counters(td_call *c, mh_json_writer *w, td_buf *text)
{
    mh_cycle_counter k[32];
    size_t n = c->plugin->debug->counters_copy(c->session, k, 32);
    if (n > 32) n = 32;
    mh_json_write_key(w, "counters");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < n; i++) {
        double avg = k[i].runs ? (double)k[i].total / (double)k[i].runs : 0.0;
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "start", k[i].start);
        if (k[i].end_set) mh_args_write_address(w, "end", k[i].end);
        mh_json_write_key(w, "runs");
        mh_json_write_uint(w, k[i].runs);
        mh_json_write_key(w, "min");
        mh_json_write_uint(w, k[i].min);
        mh_json_write_key(w, "max");
        mh_json_write_uint(w, k[i].max);
        mh_json_write_key(w, "avg");
        mh_json_write_double(w, (double)(int64_t)(avg * 100.0 + 0.5) / 100.0);
        mh_json_write_key(w, "last");
        mh_json_write_uint(w, k[i].last);
        mh_json_write_object_end(w);
        char end[40];
        if (k[i].end_set) snprintf(end, sizeof end, "$%04X", k[i].end);
        else snprintf(end, sizeof end, "its return");
        td_buf_printf(text, "$%04X to %s: %llu runs, min %llu, max %llu, avg %g, last %llu "
                      "cycles\n", k[i].start, end, (unsigned long long)k[i].runs,
                      (unsigned long long)k[i].min, (unsigned long long)k[i].max,
                      (double)(int64_t)(avg * 100.0 + 0.5) / 100.0,
                      (unsigned long long)k[i].last);
    }
    mh_json_write_array_end(w);
    if (!n) td_buf_printf(text, "no cycle counters: give start (and end) to add one\n");
}

static void trace_cycles_get(void *user, mh_call *call)
{
    td_call c;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    if (begin(&c, user, call, "trace_cycles_get") != 0) goto done;
    uint32_t start = 0, end = 0;
    int has_start = address_arg(&c, "start", &start);
    int has_end = has_start < 0 ? -1 : address_arg(&c, "end", &end);
    if (has_start < 0 || has_end < 0) goto done;
    if (has_end && !has_start) {
        td_fail(&c, "trace_cycles_get: end needs a start");
        goto done;
    }
    if (has_start) {
        char error[200] = "";
        if (c.plugin->debug->counter_add(c.session, (uint16_t)start, (uint16_t)end, has_end,
                                         error, sizeof error) != MH_OK) {
            td_fail(&c, "trace_cycles_get: %s", error);
            goto done;
        }
    }
    w = mh_json_writer_new();
    if (!w) {
        td_fail(&c, "trace_cycles_get: out of memory");
        goto done;
    }
    mh_json_write_object_begin(w);
    write_counters(&c, w, &text);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text ? text.text : "");
done:
    mh_json_writer_free(w);
    td_buf_free(&text);
    td_end(&c);
}

static void trace_cycles_reset(void *user, mh_call *call)
{
    td_call c;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    if (begin(&c, user, call, "trace_cycles_reset") != 0) goto done;
    uint32_t start = 0;
    bool remove = false;
    int has_start = address_arg(&c, "start", &start);
    if (has_start < 0) goto done;
    mh_status s = mh_args_bool(c.args, "remove", &remove, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    int index = -1;
    if (has_start) {
        mh_cycle_counter k[32];
        size_t n = c.plugin->debug->counters_copy(c.session, k, 32);
        for (size_t i = 0; i < n && i < 32 && index < 0; i++)
            if (k[i].start == start) index = (int)i;
        if (index < 0) {
            td_fail(&c, "trace_cycles_reset: no counter starts at $%04X", start);
            goto done;
        }
    }
    c.plugin->debug->counters_reset(c.session, index, remove);
    w = mh_json_writer_new();
    if (!w) {
        td_fail(&c, "trace_cycles_reset: out of memory");
        goto done;
    }
    mh_json_write_object_begin(w);
    td_buf_printf(&text, "%s %s.\n", remove ? "Removed" : "Zeroed",
                  index < 0 ? "every counter" : "the counter");
    write_counters(&c, w, &text);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- registration ---- */

#define ADDR(what) "{\"type\":[\"integer\",\"string\"],\"description\":\"" what "\"}"
#define INT(what) "{\"type\":\"integer\",\"description\":\"" what "\"}"
#define PAGE "\"count\":" INT("max 1000") ",\"offset\":" INT("rows to skip") \
             ",\"order\":{\"enum\":[\"newest\",\"oldest\"],\"description\":\"first\"}"
#define OBJ(props) "{\"type\":\"object\",\"properties\":{" props "},\"additionalProperties\":false}"
#define OUT(key) "{\"type\":\"object\",\"required\":[\"" key "\"]}"

static const mh_tool_desc trace_tools[] = {
    {sizeof(mh_tool_desc), "trace_frame_start", "Start a frame trace",
     "Record chip register writes over the next frames.",
     OBJ("\"frames\":" INT("default 1; 0 until stopped") ",\"chip\":{\"type\":\"string\","
         "\"description\":\"instance\"},\"registers\":{\"type\":\"string\",\"description\":"
         "\"names, comma-separated\"},\"address\":" ADDR("from") ",\"end\":" ADDR("to")
         ",\"pc_start\":" ADDR("writer PC from") ",\"pc_end\":" ADDR("to") ",\"capacity\":"
         INT("max writes")),
     OUT("state"), 0, MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_frame_start, NULL},
    {sizeof(mh_tool_desc), "trace_frame_stop", "Stop the frame trace",
     "Stop the frame trace, keeping its writes.", OBJ(""), OUT("state"), 0,
     MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_frame_stop, NULL},
    {sizeof(mh_tool_desc), "trace_frame_get", "Frame trace writes",
     "The frame trace's writes: cycle, raster, PC, register, value, meaning.", OBJ(PAGE),
     OUT("writes"), MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_frame_get, NULL},
    {sizeof(mh_tool_desc), "trace_events_get", "Chip event log",
     "IRQ/NMI sources, raster hits, bad lines, sprite DMA/collisions, light pen, timers.",
     OBJ("\"size\":" INT("log size; 0 off") ",\"kind\":{\"enum\":[\"all\",\"irq\",\"nmi\","
         "\"raster\",\"badline\",\"sprite_dma\",\"timer\",\"collision\",\"lightpen\","
         "\"taken\"],\"description\":\"filter\"},"
         PAGE),
     OUT("events"), 0, MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_events_get, NULL},
    {sizeof(mh_tool_desc), "trace_cycles_get", "Cycle counters",
     "Cycles per run of a routine (to its RTS/RTI) or start to end: min, max, avg.",
     OBJ("\"start\":" ADDR("adds a counter") ",\"end\":" ADDR("end PC")), OUT("counters"), 0,
     MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_cycles_get, NULL},
    {sizeof(mh_tool_desc), "trace_cycles_reset", "Reset cycle counters",
     "Zero or remove one cycle counter or all.",
     OBJ("\"start\":" ADDR("one counter") ",\"remove\":{\"type\":\"boolean\",\"description\":"
         "\"delete\"}"),
     OUT("counters"), 0, MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_cycles_reset, NULL},
};

mh_status td_register_trace(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, trace_tools, sizeof trace_tools / sizeof trace_tools[0]);
}
