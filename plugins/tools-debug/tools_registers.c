/* tools_registers.c - registers_get and registers_set: the CPU's registers
 * through "mh.cpu6502/1", read and written on the session's thread between
 * run slices (a running machine is not paused); execution_clear_error, the
 * seed's way out of its ERROR state (here: a jammed CPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_disasm.h"
#include "td_resolve.h"
#include "td_source.h"
#include "td_util.h"

/* The flags in P, from bit 7 down, as registers_get prints them. */
static const char flag_letters[8] = {'N', 'V', '-', 'B', 'D', 'I', 'Z', 'C'};

/* "Nv-bdIzC": upper case for a set flag, lower case for a clear one, '-'
 * for bit 5 (the stop records of the debug engine print P the same way). */
static void flags_text(uint8_t p, char out[9])
{
    for (int i = 0; i < 8; i++) {
        int bit = 7 - i;
        out[i] = i == 2 ? '-' : (p >> bit) & 1 ? flag_letters[i] : (char)(flag_letters[i] - 'A' + 'a');
    }
    out[8] = '\0';
}

/* registers_get's own form, "Nv-bdIzC" (or with '.' for clear flags):
 * 8 characters, each the flag's letter in either case or '.', '-' third. */
static int positional_flags(const char *text, uint8_t *value)
{
    if (strlen(text) != 8 || text[2] != '-') return 0;
    uint8_t v = 0;
    for (int i = 0; i < 8; i++) {
        char ch = text[i];
        if (i == 2) continue;
        if (ch == flag_letters[i]) v = (uint8_t)(v | 1u << (7 - i));
        else if (ch != '.' && ch != flag_letters[i] - 'A' + 'a') return 0;
    }
    *value = v;
    return 1;
}

/* The registers, flags, cycles and the instruction at PC: the result of
 * both tools. Adds the text summary to text. */
static void write_registers(td_call *c, mh_json_writer *w, td_buf *text)
{
    const mh_cpu6502 *cpu = c->cpu->state(c->cpu_ctx);
    char flags[9];
    flags_text(cpu->p, flags);
    td_write_byte(w, "a", cpu->a);
    td_write_byte(w, "x", cpu->x);
    td_write_byte(w, "y", cpu->y);
    td_write_byte(w, "s", cpu->s);
    td_write_byte(w, "p", cpu->p);
    mh_args_write_address(w, "pc", cpu->pc);
    mh_json_write_key(w, "flags");
    mh_json_write_string(w, flags);
    mh_json_write_key(w, "flag");
    mh_json_write_object_begin(w);
    static const char *const names[] = {"n", "v", "b", "d", "i", "z", "c"};
    static const uint8_t bits[] = {0x80, 0x40, 0x10, 0x08, 0x04, 0x02, 0x01};
    for (size_t i = 0; i < sizeof bits; i++) {
        mh_json_write_key(w, names[i]);
        mh_json_write_bool(w, (cpu->p & bits[i]) != 0);
    }
    mh_json_write_object_end(w);
    mh_json_write_key(w, "cycles");
    mh_json_write_uint(w, cpu->cycles);
    mh_json_write_key(w, "model");
    mh_json_write_string(w, c->cpu->model_name ? c->cpu->model_name(c->cpu_ctx) : "6502");
    int boundary = mh_cpu6502_at_boundary(cpu);
    mh_json_write_key(w, "at_boundary");
    mh_json_write_bool(w, boundary != 0);
    mh_json_write_key(w, "jammed");
    mh_json_write_bool(w, cpu->jammed != 0);
    const char *state = td_exec_state(c);
    if (state) {
        mh_json_write_key(w, "state");
        mh_json_write_string(w, state);
    }
    td_buf_printf(text, "PC=$%04X A=$%02X X=$%02X Y=$%02X S=$%02X P=$%02X %s cycles=%llu",
                  cpu->pc, cpu->a, cpu->x, cpu->y, cpu->s, cpu->p, flags,
                  (unsigned long long)cpu->cycles);
    if (cpu->jammed) td_buf_printf(text, " (JAMMED: only a reset continues)");
    else if (!boundary) td_buf_printf(text, " (mid-instruction or in the reset sequence)");
    if (state) td_buf_printf(text, " state=%s", state);
    if (!c->mem) return;
    td_disasm d;
    td_disasm_begin(&d, c);
    char line[96], hex[12];
    uint8_t bytes[3];
    int length = td_disasm_one(&d, 0, cpu->pc, 0, line, sizeof line, bytes);
    const char *label = td_disasm_symbol(&d, cpu->pc);
    char label_copy[TD_MAX_SYMBOL_NAME + 1] = "";
    if (label) snprintf(label_copy, sizeof label_copy, "%s", label);
    td_disasm_end(&d);
    hex[td_hex_spaced(hex, bytes, (size_t)length)] = '\0';
    mh_json_write_key(w, "instruction");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "text");
    mh_json_write_string(w, line);
    mh_json_write_key(w, "bytes");
    mh_json_write_string(w, hex);
    mh_json_write_key(w, "length");
    mh_json_write_int(w, length);
    if (label) {
        mh_json_write_key(w, "label");
        mh_json_write_string(w, label_copy);
    }
    mh_json_write_object_end(w);
    td_buf_printf(text, "\n$%04X  %-8s  %s%s%s", cpu->pc, hex, line, label ? "    ; " : "",
                  label ? label_copy : "");
    /* Where PC is in the program: label+offset, source line, annotation. */
    td_where where;
    td_where_of(c->plugin, td_session_name(c), cpu->pc, 1, &where);
    td_where_write(w, &where);
    char where_text[sizeof where.symbol + sizeof where.file + sizeof where.text +
                    sizeof where.annotation + 64];
    td_where_text(&where, where_text, sizeof where_text);
    if (where_text[0]) td_buf_printf(text, "\n%s", where_text + 3); /* without " | " */
}

static void registers_get(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "registers_get", TD_NEED_CPU) == 0) {
        const mh_chip *mem = c.plugin->sessions->find_chip(c.session, MH_IFACE_MEMORY, NULL);
        if (mem && ((const mh_memory_iface *)mem->vtable)->struct_size >= MH_MEMORY_IFACE_SIZE_1_0) {
            c.mem = mem->vtable;
            c.mem_ctx = mem->context;
        }
        mh_json_writer *w = mh_json_writer_new();
        td_buf text = {0};
        mh_json_write_object_begin(w);
        write_registers(&c, w, &text);
        mh_json_write_object_end(w);
        td_result(&c, w, text.text);
        td_buf_free(&text);
        mh_json_writer_free(w);
    }
    td_end(&c);
}

/* ---- registers_set ---- */

typedef struct reg_field {
    const char *name;
    const char *what;
    uint32_t max;
} reg_field;

static const reg_field reg_fields[] = {
    {"a", "the accumulator A", 0xFF},  {"x", "index register X", 0xFF},
    {"y", "index register Y", 0xFF},   {"s", "the stack pointer S", 0xFF},
    {"p", "the status register P", 0xFF}, {"pc", "the program counter PC", 0xFFFF},
};

static const struct {
    const char *name;
    uint8_t bit;
} flag_fields[] = {{"n", 0x80}, {"v", 0x40}, {"d", 0x08}, {"i", 0x04}, {"z", 0x02}, {"c", 0x01}};

/* Reads the flags string: the letters of the flags to set, others clear. */
static int parse_flags(td_call *c, const char *text, uint8_t *p)
{
    uint8_t value = 0;
    if (positional_flags(text, &value)) {
        *p = (uint8_t)((*p & 0x30) | (value & 0xCF));
        return 0;
    }
    for (const char *s = text; *s; s++) {
        char ch = *s;
        if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
        switch (ch) {
        case 'N': value |= 0x80; break;
        case 'V': value |= 0x40; break;
        case 'D': value |= 0x08; break;
        case 'I': value |= 0x04; break;
        case 'Z': value |= 0x02; break;
        case 'C': value |= 0x01; break;
        case 'B': case '-': case '.': case ' ': break;
        default:
            return td_fail(c,
                           "flags: '%c' is not a flag; give the letters of the flags to set (N V D "
                           "I Z C, any order or case; the others are cleared), e.g. \"NZC\", or "
                           "registers_get's form \"Nv-bdIzC\" (upper case = set)",
                           (unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7F ? *s : '?');
        }
    }
    *p = (uint8_t)((*p & 0x30) | value);
    return 0;
}

static void registers_set(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "registers_set", TD_NEED_CPU) != 0) {
        td_end(&c);
        return;
    }
    mh_cpu6502 *cpu = c.cpu->state(c.cpu_ctx);
    int64_t values[6];
    int given[6] = {0};
    int any = 0;
    for (size_t i = 0; i < 6; i++) {
        mh_status status;
        const mh_json *value = mh_json_object_get(c.args, reg_fields[i].name);
        if (reg_fields[i].max == 0xFFFF && td_resolve_is_label(value)) { /* PC by label */
            uint32_t address = 0;
            status = td_resolve_value(c.plugin->store, td_session_name(&c), value, reg_fields[i].name,
                                      0xFFFF, &address, c.err, sizeof c.err);
            values[i] = address;
        } else {
            status = mh_args_int(c.args, reg_fields[i].name, INT64_MIN, INT64_MAX, &values[i], c.err,
                                 sizeof c.err);
        }
        if (status == MH_ERR_NOT_FOUND) continue;
        if (status != MH_OK) {
            td_fail_arg(&c);
            goto done;
        }
        if (values[i] < 0 || values[i] > reg_fields[i].max) {
            td_fail(&c, "%s: %lld is out of range: %s takes 0-%u ($00-$%0*X)", reg_fields[i].name,
                    (long long)values[i], reg_fields[i].what, (unsigned)reg_fields[i].max,
                    reg_fields[i].max > 0xFF ? 4 : 2, (unsigned)reg_fields[i].max);
            goto done;
        }
        given[i] = any = 1;
    }
    const char *flags = NULL;
    mh_status status = mh_args_string(c.args, "flags", &flags, NULL, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (flags && given[4]) {
        td_fail(&c, "give either p (the whole status byte) or flags (letters), not both");
        goto done;
    }
    int flag_given[6] = {0};
    bool flag_values[6];
    for (size_t i = 0; i < 6; i++) {
        status = mh_args_bool(c.args, flag_fields[i].name, &flag_values[i], c.err, sizeof c.err);
        if (status == MH_ERR_NOT_FOUND) continue;
        if (status != MH_OK) {
            td_fail_arg(&c);
            goto done;
        }
        flag_given[i] = any = 1;
    }
    if (!any && !flags) {
        td_fail(&c, "registers_set: nothing to set; give at least one of a, x, y, s, p, pc (numbers "
                    "or \"$C000\"), flags (\"NZC\") or n, v, d, i, z, c (true/false)");
        goto done;
    }
    if (!mh_cpu6502_at_boundary(cpu) && !cpu->jammed) {
        td_fail(&c, "registers_set: the CPU is in the middle of an instruction (or of its reset "
                    "sequence), where registers cannot be set; step or run to the next instruction "
                    "first");
        goto done;
    }
    uint8_t p = cpu->p;
    if (flags && parse_flags(&c, flags, &p) != 0) goto done;
    if (given[4]) p = (uint8_t)values[4];
    for (size_t i = 0; i < 6; i++)
        if (flag_given[i]) p = flag_values[i] ? (uint8_t)(p | flag_fields[i].bit) : (uint8_t)(p & ~flag_fields[i].bit);
    p = (uint8_t)((p | MH_CPU6502_FLAG_U) & ~MH_CPU6502_FLAG_B);

    /* Everything is checked: set it. */
    if (given[0]) cpu->a = (uint8_t)values[0];
    if (given[1]) cpu->x = (uint8_t)values[1];
    if (given[2]) cpu->y = (uint8_t)values[2];
    if (given[3]) cpu->s = (uint8_t)values[3];
    if (given[5]) cpu->pc = (uint16_t)values[5];
    cpu->p = p;

    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "changed");
    mh_json_write_array_begin(w);
    td_buf_printf(&text, "set");
    for (size_t i = 0; i < 6; i++) {
        int changed = given[i] || (i == 4 && (flags || flag_given[0] || flag_given[1] || flag_given[2] ||
                                               flag_given[3] || flag_given[4] || flag_given[5]));
        if (!changed) continue;
        mh_json_write_string(w, reg_fields[i].name);
        td_buf_printf(&text, " %s", reg_fields[i].name);
    }
    mh_json_write_array_end(w);
    td_buf_printf(&text, "%s\n", cpu->jammed ? " (the CPU is jammed: execution_clear_error goes on from pc, or reset)" : "");
    write_registers(&c, w, &text);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}

/* The seed's state machine: an emulation error (ERROR) stays until the
 * agent clears it explicitly, after a reset or after moving PC with
 * registers_set. Here the error state is a jammed CPU: a real 6502 stays
 * jammed until reset, so this is a debugger's override. The CPU is put at
 * an instruction boundary at its PC (the JAM opcode's address unless
 * registers_set moved it) and the session becomes paused there. */
static void execution_clear_error(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "execution_clear_error", TD_NEED_CPU) != 0) {
        td_end(&c);
        return;
    }
    mh_cpu6502 *cpu = c.cpu->state(c.cpu_ctx);
    int cleared = cpu->jammed != 0;
    if (cleared) {
        cpu->jammed = 0;
        cpu->state = MH_CPU6502_STATE_FETCH;
        cpu->stop_reason = MH_CPU6502_STOP_NONE;
        cpu->t = 0;
        const mh_debug_service *debug = c.plugin->debug;
        if (debug) debug->machine_changed(c.session, 0, NULL);
    }
    const char *state = td_exec_state(&c);
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "cleared");
    mh_json_write_bool(w, cleared);
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state ? state : "unknown");
    td_buf_printf(&text, cleared ? "jam cleared; %s at $%04X: execution_run or a step goes on "
                                   "from here\n"
                                 : "no error to clear: the CPU is not jammed (%s, pc $%04X)\n",
                  state ? state : "unknown", cpu->pc);
    write_registers(&c, w, &text);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
    td_end(&c);
}

/* ---- registration ---- */

static const char registers_output[] =
    "{\"type\":\"object\",\"required\":[\"a\",\"x\",\"y\",\"s\",\"p\",\"pc\",\"flags\","
    "\"flag\",\"cycles\"],\"properties\":{\"instruction\":{}}}";

static const mh_tool_desc register_tools[] = {
    {sizeof(mh_tool_desc), "registers_get", "Read CPU registers",
     "The CPU registers, the flags as letters (\"Nv-bdIzC\": upper case set), the cycle "
     "counter and the instruction at PC. Never pauses.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     registers_output,
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.registers.get", registers_get, NULL},
    {sizeof(mh_tool_desc), "registers_set", "Set CPU registers",
     "Sets registers at the current instruction boundary (bit 5 of P reads 1, B 0); returns "
     "them after.",
     "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"A, 0-255 (12, \\\"$0C\\\" or \\\"0x0C\\\")\"},"
     "\"x\":{\"type\":[\"integer\",\"string\"],\"description\":\"X, 0-255\"},"
     "\"y\":{\"type\":[\"integer\",\"string\"],\"description\":\"Y, 0-255\"},"
     "\"s\":{\"type\":[\"integer\",\"string\"],\"description\":\"Stack pointer, 0-255\"},"
     "\"p\":{\"type\":[\"integer\",\"string\"],\"description\":\"Status register, 0-255\"},"
     "\"pc\":{\"type\":[\"integer\",\"string\"],\"description\":\"Program counter\"},"
     "\"flags\":{\"type\":\"string\",\"description\":\"Letters of the flags to set, the "
     "others cleared (\\\"NZC\\\" or \\\"Nv-bdIzC\\\")\"},\"n\":{\"type\":\"boolean\","
     "\"description\":\"N (set last)\"},\"v\":{\"type\":\"boolean\","
     "\"description\":\"V (set last)\"},\"d\":{\"type\":\"boolean\","
     "\"description\":\"D (set last)\"},\"i\":{\"type\":\"boolean\","
     "\"description\":\"I (set last)\"},\"z\":{\"type\":\"boolean\","
     "\"description\":\"Z (set last)\"},\"c\":{\"type\":\"boolean\","
     "\"description\":\"C (set last)\"}},\"additionalProperties\":false}",
     registers_output,
     MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.registers.set", registers_set, NULL},
    {sizeof(mh_tool_desc), "execution_clear_error", "Clear a CPU jam",
     "Un-jams a jammed CPU at its PC (set it first with registers_set) and pauses there.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"cleared\",\"state\",\"pc\"]}",
     MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.execution.clear_error", execution_clear_error, NULL},
};

mh_status td_register_registers(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, register_tools, sizeof register_tools / sizeof register_tools[0]);
}
