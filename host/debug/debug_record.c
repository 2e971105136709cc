/* debug_record.c - what the debug engine reports: stop records, the
 * breakpoint list and the tracepoint log, all as JSON text, and the "log"
 * events of tracepoints. [emu-thread] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_internal.h"
#include "mcphost/args.h"
#include "mcphost/disasm6502.h"
#include "mcphost/events.h"
#include "server.h"
#include "sessions.h"

/* Tracepoint hits sent as events per slice at most; the rest stay in the log. */
#define TRACE_EVENTS_PER_SLICE 32

const char *dbg_bp_kind_name(uint32_t kinds)
{
    static const struct {
        uint32_t kinds;
        const char *name;
    } table[] = {
        {MH_BP_EXEC, "exec"},
        {MH_BP_READ, "read"},
        {MH_BP_WRITE, "write"},
        {MH_BP_CHANGE, "change"},
        {MH_BP_READ | MH_BP_WRITE, "access"},
        {MH_BP_CHECK, "check"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].kinds == kinds) return table[i].name;
    return "watch";
}

static void write_kinds(mh_json_writer *w, uint32_t kinds)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } bits[] = {{MH_BP_EXEC, "exec"},     {MH_BP_READ, "read"}, {MH_BP_WRITE, "write"},
                {MH_BP_CHANGE, "change"}, {MH_BP_CHECK, "check"}};
    mh_json_write_key(w, "kinds");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (kinds & bits[i].bit) mh_json_write_string(w, bits[i].name);
    mh_json_write_array_end(w);
}

static uint8_t read_byte(void *user, uint16_t address) { return dbg_peek(user, address); }

/* "NV-BDIZC" with set flags in capitals and clear ones in lower case. */
static void flags_text(uint8_t p, char out[9])
{
    static const char letters[] = "nv-bdizc";
    for (int i = 0; i < 8; i++) {
        int set = (p >> (7 - i)) & 1;
        out[i] = letters[i] == '-' ? '-' : (char)(set ? letters[i] - 32 : letters[i]);
    }
    out[8] = '\0';
}

void mh_dbg_write_position(mh_dbg *dbg, mh_json_writer *w)
{
    const mh_cpu6502 *cpu = dbg->cpu_state;
    mh_args_write_address(w, "pc", cpu->pc);
    char instruction[48];
    mh_disasm6502(NULL, read_byte, dbg, cpu->pc, instruction, sizeof instruction);
    mh_json_write_key(w, "instruction");
    mh_json_write_string(w, instruction);
    char flags[9];
    flags_text(cpu->p, flags);
    char regs[64];
    snprintf(regs, sizeof regs, "A=$%02X X=$%02X Y=$%02X S=$%02X P=%s", cpu->a, cpu->x, cpu->y,
             cpu->s, flags);
    mh_json_write_key(w, "registers");
    mh_json_write_object_begin(w);
    const struct {
        const char *name;
        uint8_t value;
    } regs8[] = {{"a", cpu->a}, {"x", cpu->x}, {"y", cpu->y}, {"s", cpu->s}, {"p", cpu->p}};
    for (size_t i = 0; i < sizeof regs8 / sizeof regs8[0]; i++) {
        mh_json_write_key(w, regs8[i].name);
        mh_json_write_uint(w, regs8[i].value);
    }
    mh_json_write_key(w, "text");
    mh_json_write_string(w, regs);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "flags");
    mh_json_write_string(w, flags);
    if (dbg->video) {
        uint32_t line = 0, cycle = 0;
        dbg->video->beam(dbg->video_ctx, &line, &cycle);
        mh_json_write_key(w, "raster");
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, line);
        mh_json_write_key(w, "cycle");
        mh_json_write_uint(w, cycle);
        mh_json_write_object_end(w);
        mh_video_frame frame = {sizeof frame, 0, 0, 0, NULL, NULL, 0, 0, 0.0};
        if (dbg->video->frame(dbg->video_ctx, &frame) == MH_OK) {
            mh_json_write_key(w, "frame");
            mh_json_write_uint(w, frame.frame_number);
        }
    }
    mh_json_write_key(w, "cycles");
    mh_json_write_uint(w, cpu->cycles + dbg->cycle_offset);
    if (cpu->jammed) {
        mh_json_write_key(w, "jammed");
        mh_json_write_bool(w, true);
    }
}

/* Up to `before` instructions that decode into pc from a little earlier
 * (a heuristic: 6502 code cannot be decoded backwards for certain). */
static uint16_t listing_start(mh_dbg *dbg, uint16_t pc, int before)
{
    for (int back = 3 * before; back > 0; back--) {
        uint16_t a = (uint16_t)(pc - back);
        int count = 0;
        while (a != pc && count <= before && (uint16_t)(pc - a) <= (uint16_t)back) {
            a = (uint16_t)(a + mh_op6502_get(dbg_peek(dbg, a))->length);
            count++;
        }
        if (a == pc && count == before) return (uint16_t)(pc - back);
    }
    return pc;
}

static void write_disassembly(mh_dbg *dbg, mh_json_writer *w, uint16_t pc)
{
    mh_json_write_key(w, "disassembly");
    mh_json_write_array_begin(w);
    uint16_t a = listing_start(dbg, pc, 3);
    for (int i = 0; i < 9; i++) {
        char text[48], bytes[12] = "";
        int length = mh_disasm6502(NULL, read_byte, dbg, a, text, sizeof text);
        for (int b = 0; b < length; b++)
            snprintf(bytes + (b ? 3 * b - 1 : 0), sizeof bytes - (size_t)(b ? 3 * b - 1 : 0),
                     b ? " %02X" : "%02X",
                     dbg_peek(dbg, (uint16_t)(a + b)));
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", a);
        mh_json_write_key(w, "bytes");
        mh_json_write_string(w, bytes);
        mh_json_write_key(w, "text");
        mh_json_write_string(w, text);
        if (a == pc) {
            mh_json_write_key(w, "current");
            mh_json_write_bool(w, true);
        }
        mh_json_write_object_end(w);
        a = (uint16_t)(a + length);
    }
    mh_json_write_array_end(w);
}

static void write_access(mh_json_writer *w, const dbg_access *access)
{
    mh_json_write_key(w, "access");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "kind");
    mh_json_write_string(w, access->write ? "write" : "read");
    mh_args_write_address(w, "address", access->address);
    mh_args_write_byte(w, "value", access->value);
    if (access->write) {
        mh_args_write_byte(w, "old_value", access->old_value);
    }
    mh_args_write_address(w, "by_pc", access->pc);
    mh_json_write_object_end(w);
}

static const char *goal_reason(uint32_t goal)
{
    static const char *const names[] = {"pause",      "step",          "step_over", "step_out",
                                        "cycles",     "until_address", "frames"};
    return goal < sizeof names / sizeof names[0] ? names[goal] : "goal";
}

static const char *reason_name(const mh_dbg *dbg, mh_dbg_reason reason)
{
    static const char *const names[] = {"none",  "pause", "breakpoint", "watchpoint", "check",
                                        "goal",  "jam",   "exit",       "cycle_limit"};
    if (reason == MH_DBG_GOAL) return goal_reason(dbg->goal.goal);
    return (size_t)reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

static void write_bp_fields(mh_json_writer *w, const dbg_bp *bp)
{
    mh_json_write_key(w, "id");
    mh_json_write_uint(w, bp->id);
    mh_json_write_key(w, "kind");
    mh_json_write_string(w, dbg_bp_kind_name(bp->kinds));
    write_kinds(w, bp->kinds);
    mh_json_write_key(w, "label");
    mh_json_write_string(w, bp->label);
    if (!(bp->kinds & MH_BP_CHECK)) {
        mh_args_write_address(w, "start", bp->start);
        mh_args_write_address(w, "end", bp->end);
    }
    if (bp->condition) {
        mh_json_write_key(w, "condition");
        mh_json_write_string(w, mh_expr_text(bp->condition));
    }
    mh_json_write_key(w, "enabled");
    mh_json_write_bool(w, bp->enabled);
    mh_json_write_key(w, "hits");
    mh_json_write_uint(w, bp->hits);
    mh_json_write_key(w, "ignore_count");
    mh_json_write_uint(w, bp->ignore_count);
    mh_json_write_key(w, "temporary");
    mh_json_write_bool(w, (bp->flags & MH_BP_TEMPORARY) != 0);
    mh_json_write_key(w, "log_only");
    mh_json_write_bool(w, (bp->flags & MH_BP_LOG_ONLY) != 0);
    if (bp->group) {
        mh_json_write_key(w, "group");
        mh_json_write_string(w, bp->group);
    }
}

static void write_detail(mh_json_writer *w, const char *detail)
{
    if (!detail || !*detail) return;
    /* detail is a member list from a plugin; check it parses first. */
    char *object = malloc(strlen(detail) + 3);
    if (!object) return;
    sprintf(object, "{%s}", detail);
    mh_json_doc *doc = mh_json_parse(object, strlen(object), NULL, NULL);
    if (doc) {
        mh_json_write_key(w, "detail");
        mh_json_write_raw(w, object, strlen(object));
    }
    mh_json_free(doc);
    free(object);
}

void mh_dbg_set_requested_by(mh_dbg *dbg, const char *client)
{
    snprintf(dbg->requested_by, sizeof dbg->requested_by, "%s", client ? client : "");
}

char *mh_dbg_stop_record(mh_dbg *dbg, mh_exec_state state, mh_dbg_reason reason, int exit_code,
                         uint64_t stop_id)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "state");
    mh_json_write_string(w, mh_exec_state_name(state));
    mh_json_write_key(w, "reason");
    mh_json_write_string(w, reason_name(dbg, reason));
    mh_json_write_key(w, "stop_id");
    mh_json_write_uint(w, stop_id);
    if (reason == MH_DBG_PAUSE && dbg->requested_by[0]) {
        mh_json_write_key(w, "requested_by");
        mh_json_write_string(w, dbg->requested_by);
    }
    dbg->requested_by[0] = '\0';
    if (reason == MH_DBG_EXIT) {
        mh_json_write_key(w, "exit_code");
        mh_json_write_int(w, exit_code);
    }
    if ((reason == MH_DBG_BREAKPOINT || reason == MH_DBG_WATCHPOINT || reason == MH_DBG_CHECK) &&
        dbg->pending_bp_id) {
        mh_json_write_key(w, "breakpoint");
        mh_json_write_object_begin(w);
        if (dbg->pending_bp) {
            write_bp_fields(w, dbg->pending_bp);
        } else {
            mh_json_write_key(w, "id");
            mh_json_write_uint(w, dbg->pending_bp_id);
        }
        write_detail(w, dbg->pending_detail);
        mh_json_write_object_end(w);
    }
    if (dbg->pending_has_access && reason == MH_DBG_WATCHPOINT)
        write_access(w, &dbg->pending_access);
    mh_dbg_write_position(dbg, w);
    mh_json_write_key(w, "stopwatch");
    mh_json_write_uint(w, dbg->cycles - dbg->stopwatch_mark);
    write_disassembly(dbg, w, dbg->cpu_state->pc);
    mh_json_write_object_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    return json;
}

char *mh_dbg_bp_list_json(mh_dbg *dbg)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < dbg->bps.count; i++) {
        const dbg_bp *bp = dbg->bps.items[i];
        if (bp->dead) continue;
        mh_json_write_object_begin(w);
        write_bp_fields(w, bp);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    return json;
}

/* ---- tracepoints ---- */

void dbg_trace_add(mh_dbg *dbg, const dbg_bp *bp, const char *detail, int has_access)
{
    dbg_trace_entry *e = &dbg->trace[dbg->trace_next % DBG_TRACE_SIZE];
    const mh_cpu6502 *cpu = dbg->cpu_state;
    memset(e, 0, sizeof *e);
    e->seq = dbg->trace_next++;
    e->cycles = cpu->cycles + dbg->cycle_offset;
    e->bp_id = bp->id;
    e->pc = has_access ? dbg->current.pc : cpu->pc;
    if (dbg->video) {
        uint32_t line = 0, cycle = 0;
        dbg->video->beam(dbg->video_ctx, &line, &cycle);
        e->line = (uint16_t)line;
        e->line_cycle = (uint16_t)cycle;
    }
    e->has_access = has_access;
    if (has_access) e->access = dbg->current;
    snprintf(e->detail, sizeof e->detail, "%s", detail ? detail : "");
}

static void write_trace_entry(mh_json_writer *w, const mh_dbg *dbg, const dbg_trace_entry *e)
{
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "seq");
    mh_json_write_uint(w, e->seq);
    mh_json_write_key(w, "breakpoint");
    mh_json_write_uint(w, e->bp_id);
    mh_args_write_address(w, "pc", e->pc);
    mh_json_write_key(w, "cycles");
    mh_json_write_uint(w, e->cycles);
    if (dbg->video) {
        mh_json_write_key(w, "raster");
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, e->line);
        mh_json_write_key(w, "cycle");
        mh_json_write_uint(w, e->line_cycle);
        mh_json_write_object_end(w);
    }
    if (e->has_access) write_access(w, &e->access);
    write_detail(w, e->detail);
    mh_json_write_object_end(w);
}

char *mh_dbg_trace_json(mh_dbg *dbg, uint64_t since)
{
    uint64_t oldest = dbg->trace_next > DBG_TRACE_SIZE ? dbg->trace_next - DBG_TRACE_SIZE : 0;
    uint64_t first = since > oldest ? since : oldest;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "next");
    mh_json_write_uint(w, dbg->trace_next);
    mh_json_write_key(w, "dropped");
    mh_json_write_uint(w, since < oldest ? oldest - since : 0);
    mh_json_write_key(w, "entries");
    mh_json_write_array_begin(w);
    for (uint64_t seq = first; seq < dbg->trace_next; seq++)
        write_trace_entry(w, dbg, &dbg->trace[seq % DBG_TRACE_SIZE]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    return json;
}

void dbg_post_trace_events(mh_dbg *dbg)
{
    uint64_t oldest = dbg->trace_next > DBG_TRACE_SIZE ? dbg->trace_next - DBG_TRACE_SIZE : 0;
    if (dbg->trace_posted < oldest) dbg->trace_posted = oldest;
    uint64_t sent = 0;
    for (; dbg->trace_posted < dbg->trace_next && sent < TRACE_EVENTS_PER_SLICE; sent++) {
        mh_json_writer *w = mh_json_writer_new();
        write_trace_entry(w, dbg, &dbg->trace[dbg->trace_posted % DBG_TRACE_SIZE]);
        char *json = mh_json_writer_finish(w, NULL);
        mh_json_writer_free(w);
        if (json) mh_events_service_impl.post(dbg->session, MH_EVENT_LOG, json);
        free(json);
        dbg->trace_posted++;
    }
    /* What did not fit waits in the log (trace_get); events skip ahead. */
    dbg->trace_posted = dbg->trace_next;
}
