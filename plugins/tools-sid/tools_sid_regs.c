/* tools_sid_regs.c - sid_registers_get (every register, raw and decoded)
 * and sid_registers_set (by name, number or address; one or a set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_sid.h"

/* ---- decoding from register values ---- */

static void write_hex8(mh_json_writer *w, const char *key, unsigned value)
{
    char text[8];
    snprintf(text, sizeof text, "$%02X", value & 0xFFu);
    mh_json_write_key(w, key);
    mh_json_write_string(w, text);
}

static void write_voice_regs(mh_json_writer *w, const uint8_t *r, unsigned v, uint32_t clock)
{
    const uint8_t *b = r + 7 * v;
    unsigned freq = b[0] | (unsigned)b[1] << 8, pw = b[2] | (unsigned)(b[3] & 15u) << 8;
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "voice");
    mh_json_write_uint(w, v + 1);
    mh_json_write_key(w, "frequency");
    mh_json_write_uint(w, freq);
    mh_json_write_key(w, "frequency_hz");
    mh_json_write_double(w, (double)(long long)(ts_freq_hz(freq, clock) * 1000.0 + 0.5) / 1000.0);
    mh_json_write_key(w, "pulse_width");
    mh_json_write_uint(w, pw);
    mh_json_write_key(w, "control");
    mh_json_write_uint(w, b[4]);
    write_hex8(w, "control_hex", b[4]);
    mh_json_write_key(w, "waveforms");
    ts_write_waveforms(w, b[4]);
    static const char *const bits[4] = {"gate", "sync", "ring", "test"};
    for (int i = 0; i < 4; i++) {
        mh_json_write_key(w, bits[i]);
        mh_json_write_bool(w, (b[4] >> i) & 1u);
    }
    static const char *const env[4] = {"attack", "decay", "sustain", "release"};
    const unsigned nyb[4] = {b[5] >> 4, b[5] & 15u, b[6] >> 4, b[6] & 15u};
    for (int i = 0; i < 4; i++) {
        mh_json_write_key(w, env[i]);
        mh_json_write_uint(w, nyb[i]);
    }
    mh_json_write_object_end(w);
}

static void write_filter(mh_json_writer *w, const uint8_t *r, const mh_chip_sid_filter *f)
{
    (void)r;
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "cutoff");
    mh_json_write_uint(w, f->cutoff);
    mh_json_write_key(w, "cutoff_hz");
    mh_json_write_uint(w, f->cutoff_hz);
    mh_json_write_key(w, "resonance");
    mh_json_write_uint(w, f->resonance);
    mh_json_write_key(w, "voices_filtered");
    mh_json_write_array_begin(w);
    for (unsigned v = 0; v < 3; v++)
        if (f->routing & (1u << v)) mh_json_write_uint(w, v + 1);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "external_filtered");
    mh_json_write_bool(w, (f->routing & 8u) != 0);
    mh_json_write_key(w, "modes");
    mh_json_write_array_begin(w);
    static const char *const modes[3] = {"low_pass", "band_pass", "high_pass"};
    for (unsigned i = 0; i < 3; i++)
        if (f->mode & (1u << i)) mh_json_write_string(w, modes[i]);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "voice3_off");
    mh_json_write_bool(w, (f->mode & 8u) != 0);
    mh_json_write_key(w, "volume");
    mh_json_write_uint(w, f->volume);
    mh_json_write_object_end(w);
}

static void read_all(const mh_chip_sid_iface *sid, void *context, uint8_t r[MH_CHIP_SID_REGISTERS])
{
    for (unsigned i = 0; i < MH_CHIP_SID_REGISTERS; i++) r[i] = sid->peek(context, (uint16_t)i);
}

/* Where the machine put the SID (size 0: it did not say). */
static mh_chip_io_range io_of(const mh_chip_sid_iface *sid, void *context)
{
    mh_chip_io_range io = {0, 0};
    if (MH_CHIP_IFACE_HAS(sid, mh_chip_sid_iface, io_range)) sid->io_range(context, &io);
    return io;
}

/* "address"/"address_hex" of a register, when the machine says where. */
static void write_reg_address(mh_json_writer *w, const mh_chip_io_range *io, unsigned reg)
{
    if (io->size) mh_args_write_address(w, "address", io->base + reg);
}

static void write_register_list(mh_json_writer *w, const mh_chip_io_range *io, const uint8_t *r)
{
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < MH_CHIP_SID_REGISTERS; i++) {
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "number");
        mh_json_write_uint(w, i);
        write_reg_address(w, io, i);
        mh_json_write_key(w, "name");
        mh_json_write_string(w, ts_reg_name(i));
        mh_json_write_key(w, "value");
        mh_json_write_uint(w, r[i]);
        write_hex8(w, "value_hex", r[i]);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
}

/* The whole decoded picture; text gets a short summary. */
static void write_decoded(const ts_plugin *plugin, mh_call *call, const mh_chip_sid_iface *sid,
                          void *context, mh_json_writer *w, char *text, size_t text_size)
{
    uint8_t r[MH_CHIP_SID_REGISTERS];
    read_all(sid, context, r);
    uint32_t clock = sid->clock_hz(context);
    mh_chip_sid_filter f;
    memset(&f, 0, sizeof f);
    f.struct_size = sizeof f;
    sid->filter(context, &f);
    mh_json_write_key(w, "model");
    mh_json_write_string(w, sid->model_name(context));
    mh_json_write_key(w, "clock_hz");
    mh_json_write_uint(w, clock);
    mh_json_write_key(w, "registers");
    const mh_chip_io_range io = io_of(sid, context);
    write_register_list(w, &io, r);
    mh_json_write_key(w, "voices");
    mh_json_write_array_begin(w);
    for (unsigned v = 0; v < 3; v++) write_voice_regs(w, r, v, clock);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "filter");
    write_filter(w, r, &f);
    static const char *const reads[4] = {"potx", "poty", "osc3", "env3"};
    for (unsigned i = 0; i < 4; i++) {
        mh_json_write_key(w, reads[i]);
        mh_json_write_uint(w, r[0x19 + i]);
    }
    ts_write_state(plugin, call, w);

    size_t used = 0;
    int n = snprintf(text, text_size, "SID %s at %u Hz\n", sid->model_name(context), clock);
    used = n > 0 ? (size_t)n : 0;
    for (unsigned v = 0; v < 3 && used < text_size; v++) {
        const uint8_t *b = r + 7 * v;
        char waves[48];
        ts_waveform_text(b[4], waves, sizeof waves);
        unsigned freq = b[0] | (unsigned)b[1] << 8;
        n = snprintf(text + used, text_size - used,
                     "voice %u: freq $%04X (%.2f Hz) pw $%03X %s%s%s%s%s ADSR %X/%X/%X/%X\n",
                     v + 1, freq, ts_freq_hz(freq, clock), b[2] | (b[3] & 15u) << 8, waves,
                     b[4] & 1u ? " gate" : "", b[4] & 2u ? " sync" : "", b[4] & 4u ? " ring" : "",
                     b[4] & 8u ? " test" : "", b[5] >> 4, b[5] & 15u, b[6] >> 4, b[6] & 15u);
        if (n > 0) used += (size_t)n;
    }
    if (used < text_size)
        snprintf(text + used, text_size - used,
                 "filter: cutoff $%03X (%u Hz) resonance %u routing $%X mode $%X; volume %u; "
                 "OSC3 $%02X ENV3 $%02X",
                 f.cutoff, f.cutoff_hz, f.resonance, f.routing, f.mode, f.volume, r[0x1B], r[0x1C]);
}

static void registers_get(void *user, mh_call *call)
{
    ts_plugin *plugin = user;
    void *context = NULL;
    const mh_chip_sid_iface *sid = ts_chip(plugin, call, &context);
    if (!sid) {
        ts_errorf(plugin, call, "sid_registers_get: the SID chip interface is missing or too old");
        return;
    }
    mh_json_writer *w = mh_json_writer_new();
    char text[1024];
    mh_json_write_object_begin(w);
    write_decoded(plugin, call, sid, context, w, text, sizeof text);
    mh_json_write_object_end(w);
    ts_finish(plugin, call, w, text);
}

/* ---- sid_registers_set ---- */

typedef struct reg_write {
    unsigned reg;
    uint8_t value;
} reg_write;

#define TS_MAX_WRITES 64

static const int64_t width_max[5] = {0, 255, 65535, 4095, 2047};
static const char *const width_what[5] = {"", "a byte", "a 16-bit frequency",
                                          "a 12-bit pulse width", "an 11-bit cutoff"};

/* Adds the writes of one (register, value) pair; 0 or -1 with err. */
static int add_write(const char *label, unsigned reg, unsigned width, const mh_json *holder,
                     const char *value_key, reg_write *writes, size_t *count, char *err,
                     size_t err_size)
{
    if (ts_reg_read_only(reg)) {
        snprintf(err, err_size,
                 "register %s (%s) is read-only: writes to registers 25-28 (POTX, POTY, OSC3, "
                 "ENV3) do nothing on a SID; set registers 0-24",
                 label, ts_reg_name(reg));
        return -1;
    }
    int64_t value = 0;
    char msg[MH_ARGS_ERROR_SIZE];
    mh_status status = mh_args_int(holder, value_key, 0, width_max[width], &value, msg, sizeof msg);
    if (status != MH_OK) {
        snprintf(err, err_size, "%s; %s (%s) takes %s, 0-%lld", msg, label, ts_reg_name(reg),
                 width_what[width], (long long)width_max[width]);
        return -1;
    }
    if (*count + 2 > TS_MAX_WRITES) {
        snprintf(err, err_size, "too many registers in one call (at most %d writes)", TS_MAX_WRITES);
        return -1;
    }
    if (width == 1) {
        writes[(*count)++] = (reg_write){reg, (uint8_t)value};
    } else if (width == 4) { /* cutoff: bits 0-2 in $15, 3-10 in $16 */
        writes[(*count)++] = (reg_write){reg, (uint8_t)(value & 7)};
        writes[(*count)++] = (reg_write){reg + 1, (uint8_t)(value >> 3)};
    } else {
        writes[(*count)++] = (reg_write){reg, (uint8_t)(value & 0xFF)};
        writes[(*count)++] = (reg_write){reg + 1, (uint8_t)(value >> 8)};
    }
    return 0;
}

/* `register` (name, number or address) + `value`. */
static int parse_single(const mh_json *args, const mh_chip_io_range *io, reg_write *writes,
                        size_t *count, char *err, size_t err_size)
{
    const mh_json *which = mh_json_object_get(args, "register");
    unsigned reg = 0, width = 1;
    char label[80];
    if (mh_json_typeof(which) == MH_JSON_STRING) {
        const char *text = mh_json_as_string(which, NULL);
        if (ts_reg_parse(text, io, &reg, &width, err, err_size) != 0) return -1;
        snprintf(label, sizeof label, "\"%.*s\"", mh_utf8_prefix(text, 64), text);
    } else {
        int64_t number = 0;
        if (mh_json_as_int64(which, &number) != MH_OK) {
            snprintf(err, err_size, "register: expected a name, a number 0-28 or an address");
            return -1;
        }
        if (ts_reg_from_number(number, io, &reg, err, err_size) != 0) return -1;
        snprintf(label, sizeof label, "%lld", (long long)number);
    }
    if (!mh_json_object_get(args, "value")) {
        snprintf(err, err_size, "value: missing; give the value to write to %s (0-%lld)",
                 ts_reg_name(reg), (long long)width_max[width]);
        return -1;
    }
    return add_write(label, reg, width, args, "value", writes, count, err, err_size);
}

/* `registers`: {"v1_freq": 7217, "$D404": 17, ...}, written in order. */
static int parse_set(const mh_json *set, const mh_chip_io_range *io, reg_write *writes,
                     size_t *count, char *err, size_t err_size)
{
    size_t n = mh_json_object_size(set);
    if (!n) {
        snprintf(err, err_size, "registers: empty; give e.g. {\"v1_freq\": 7217, \"v1_control\": 17}");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t key_length = 0;
        const char *key = mh_json_object_key(set, i, &key_length);
        unsigned reg = 0, width = 1;
        char msg[512];
        if (ts_reg_parse(key, io, &reg, &width, msg, sizeof msg) != 0) {
            snprintf(err, err_size, "registers: %s", msg);
            return -1;
        }
        char label[80];
        snprintf(label, sizeof label, "\"%.*s\"", mh_utf8_prefix(key, 64), key);
        if (add_write(label, reg, width, set, key, writes, count, err, err_size) != 0) return -1;
    }
    return 0;
}

static void registers_set(void *user, mh_call *call)
{
    ts_plugin *plugin = user;
    void *context = NULL;
    const mh_chip_sid_iface *sid = ts_chip(plugin, call, &context);
    if (!sid) {
        ts_errorf(plugin, call, "sid_registers_set: the SID chip interface is missing or too old");
        return;
    }
    char err[1024];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_toolkit_args(plugin->call, call, &doc, err, sizeof err);
    if (!args) return;
    reg_write writes[TS_MAX_WRITES];
    size_t count = 0;
    int bad = 0;
    const mh_json *set = mh_json_object_get(args, "registers");
    int has_single = mh_json_object_get(args, "register") != NULL;
    if (!set && !has_single) {
        snprintf(err, sizeof err,
                 "give `register` and `value` (e.g. {\"register\": \"v1_control\", \"value\": 17}) "
                 "or `registers` (e.g. {\"registers\": {\"v1_freq\": 7217, \"mode_vol\": 15}})");
        bad = 1;
    }
    const mh_chip_io_range io = io_of(sid, context);
    if (!bad && has_single) bad = parse_single(args, &io, writes, &count, err, sizeof err) != 0;
    if (!bad && set) bad = parse_set(set, &io, writes, &count, err, sizeof err) != 0;
    mh_json_free(doc);
    if (bad) {
        ts_errorf(plugin, call, "sid_registers_set: %s", err);
        return;
    }
    for (size_t i = 0; i < count; i++) sid->write(context, (uint16_t)writes[i].reg, writes[i].value);

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "written");
    mh_json_write_array_begin(w);
    char text[2048];
    size_t used = 0;
    int n = snprintf(text, sizeof text, "wrote");
    used = n > 0 ? (size_t)n : 0;
    for (size_t i = 0; i < count; i++) {
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "number");
        mh_json_write_uint(w, writes[i].reg);
        write_reg_address(w, &io, writes[i].reg);
        mh_json_write_key(w, "name");
        mh_json_write_string(w, ts_reg_name(writes[i].reg));
        mh_json_write_key(w, "value");
        mh_json_write_uint(w, writes[i].value);
        write_hex8(w, "value_hex", writes[i].value);
        mh_json_write_object_end(w);
        if (used < sizeof text) {
            n = snprintf(text + used, sizeof text - used, "%s $%04X (%s) = $%02X", i ? "," : "",
                         (unsigned)(io.base + writes[i].reg), ts_reg_name(writes[i].reg),
                         writes[i].value);
            if (n > 0) used += (size_t)n;
        }
    }
    mh_json_write_array_end(w);
    char summary[1024];
    write_decoded(plugin, call, sid, context, w, summary, sizeof summary);
    mh_json_write_object_end(w);
    ts_finish(plugin, call, w, text);
}

/* ---- registration ---- */

static const char get_output[] =
    "{\"type\":\"object\",\"required\":[\"model\",\"registers\",\"voices\",\"filter\","
    "\"state\"]}";

static const char set_input[] =
    "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"string\",\"integer\"],"
    "\"description\":\"A name (v1_freq_lo, v1_control, fc_lo, mode_vol ... or FRELO1 ... "
    "SIGVOL), a composite (v1_freq 16 bits, v1_pw 12, fc 11), a number 0-28 or an address\"},"
    "\"value\":{\"type\":[\"integer\",\"string\"],\"description\":\"The value for register "
    "(composites: their width)\"},\"registers\":{\"type\":\"object\","
    "\"additionalProperties\":{\"type\":[\"integer\",\"string\"]},\"description\":\"Several, "
    "written in this order (control last to gate a note): {\\\"v1_freq\\\": 7217, "
    "\\\"v1_control\\\": 17}\"}},\"additionalProperties\":false}";

static const char set_output[] =
    "{\"type\":\"object\",\"required\":[\"written\",\"registers\",\"state\"]}";

mh_status ts_register_regs(ts_plugin *plugin)
{
    mh_tool_desc tools[2];
    memset(tools, 0, sizeof tools);
    tools[0].struct_size = sizeof tools[0];
    tools[0].name = "sid_registers_get";
    tools[0].title = "SID registers";
    tools[0].description =
        "The SID's registers read without side effects (write-only ones as last written) and "
        "decoded: per voice frequency (Hz), pulse width, waveforms, control bits, ADSR; "
        "filter cutoff (Hz), resonance, routing, modes, volume. sid_voices_get adds the live "
        "envelopes.";
    tools[0].input_schema = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
    tools[0].output_schema = get_output;
    tools[0].annotations = MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT;
    tools[0].requires = MH_CHIP_SID_IFACE;
    tools[0].seed_name = "vice.sid.registers.get";
    tools[0].call = registers_get;
    tools[0].user_data = plugin;

    tools[1] = tools[0];
    tools[1].name = "sid_registers_set";
    tools[1].title = "Set SID registers";
    tools[1].description =
        "Writes SID registers like a CPU write now (gate on starts the attack). Too wide "
        "values, unknown names and read-only registers are refused. Returns the registers "
        "after.";
    tools[1].input_schema = set_input;
    tools[1].output_schema = set_output;
    tools[1].annotations = 0;
    tools[1].seed_name = "vice.sid.registers.set";
    tools[1].call = registers_set;
    return mh_toolkit_register_tools(plugin->host, plugin->registry, tools, 2, NULL, plugin);
}
