/* sid_names.c - register names and numbers, waveform names, envelope
 * times and note names: the pure knowledge about the SID the tools share. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools_sid.h"

typedef struct reg_info {
    const char *name;  /* canonical */
    const char *label; /* Mapping the Commodore 64 */
    const char *what;
} reg_info;

static const reg_info regs[MH_CHIP_SID_REGISTERS] = {
    {"v1_freq_lo", "FRELO1", "voice 1 frequency, low byte"},
    {"v1_freq_hi", "FREHI1", "voice 1 frequency, high byte"},
    {"v1_pw_lo", "PWLO1", "voice 1 pulse width, low byte"},
    {"v1_pw_hi", "PWHI1", "voice 1 pulse width, bits 8-11"},
    {"v1_control", "VCREG1", "voice 1 control: noise pulse saw tri test ring sync gate"},
    {"v1_attack_decay", "ATDCY1", "voice 1 attack (high nybble), decay (low)"},
    {"v1_sustain_release", "SUREL1", "voice 1 sustain level (high nybble), release (low)"},
    {"v2_freq_lo", "FRELO2", "voice 2 frequency, low byte"},
    {"v2_freq_hi", "FREHI2", "voice 2 frequency, high byte"},
    {"v2_pw_lo", "PWLO2", "voice 2 pulse width, low byte"},
    {"v2_pw_hi", "PWHI2", "voice 2 pulse width, bits 8-11"},
    {"v2_control", "VCREG2", "voice 2 control: noise pulse saw tri test ring sync gate"},
    {"v2_attack_decay", "ATDCY2", "voice 2 attack (high nybble), decay (low)"},
    {"v2_sustain_release", "SUREL2", "voice 2 sustain level (high nybble), release (low)"},
    {"v3_freq_lo", "FRELO3", "voice 3 frequency, low byte"},
    {"v3_freq_hi", "FREHI3", "voice 3 frequency, high byte"},
    {"v3_pw_lo", "PWLO3", "voice 3 pulse width, low byte"},
    {"v3_pw_hi", "PWHI3", "voice 3 pulse width, bits 8-11"},
    {"v3_control", "VCREG3", "voice 3 control: noise pulse saw tri test ring sync gate"},
    {"v3_attack_decay", "ATDCY3", "voice 3 attack (high nybble), decay (low)"},
    {"v3_sustain_release", "SUREL3", "voice 3 sustain level (high nybble), release (low)"},
    {"fc_lo", "CUTLO", "filter cutoff, bits 0-2"},
    {"fc_hi", "CUTHI", "filter cutoff, bits 3-10"},
    {"res_filt", "RESON", "resonance (high nybble), filter routing: ext v3 v2 v1"},
    {"mode_vol", "SIGVOL", "voice 3 off, high/band/low pass (bits 7-4), volume (low nybble)"},
    {"potx", "POTX", "paddle X (read only)"},
    {"poty", "POTY", "paddle Y (read only)"},
    {"osc3", "RANDOM", "voice 3 waveform output, upper 8 bits (read only)"},
    {"env3", "ENV3", "voice 3 envelope level (read only)"},
};

/* Composite values written low byte first. */
typedef struct composite {
    const char *name;
    unsigned reg, width;
} composite;

static const composite composites[] = {
    {"v1_freq", 0x00, 2}, {"v2_freq", 0x07, 2}, {"v3_freq", 0x0E, 2},
    {"v1_pw", 0x02, 3},   {"v2_pw", 0x09, 3},   {"v3_pw", 0x10, 3},
    {"fc", 0x15, 4},
};

const char *ts_reg_name(unsigned reg) { return reg < MH_CHIP_SID_REGISTERS ? regs[reg].name : "?"; }

const char *ts_reg_description(unsigned reg)
{
    return reg < MH_CHIP_SID_REGISTERS ? regs[reg].what : "?";
}

int ts_reg_read_only(unsigned reg) { return reg >= 0x19 && reg <= 0x1C; }

/* "an address $D400-$D41C" for the SID's first copy in the CPU's map, or
 * nothing when the machine did not say where it is. */
static void address_hint(const mh_chip_io_range *io, char *out, size_t out_size)
{
    if (io && io->size)
        snprintf(out, out_size, ", an address $%04X-$%04X", (unsigned)io->base,
                 (unsigned)(io->base + MH_CHIP_SID_REGISTERS - 1));
    else if (out_size)
        out[0] = '\0';
}

int ts_reg_from_number(int64_t value, const mh_chip_io_range *io, unsigned *reg, char *err,
                       size_t err_size)
{
    int found = value >= 0 && value <= 0xFFFF
                    ? mh_chip_io_register(io, MH_CHIP_SID_REGISTERS, 32, (uint32_t)value)
                    : -1;
    if (found >= 0) {
        *reg = (unsigned)found;
        return 0;
    }
    char hint[48];
    address_hint(io, hint, sizeof hint);
    snprintf(err, err_size,
             "register %lld ($%llX) is not a SID register: use a number 0-28%s, or a name such "
             "as \"v1_freq_lo\" or \"mode_vol\"",
             (long long)value, (unsigned long long)value, hint);
    return -1;
}

static int looks_numeric(const char *text)
{
    return text[0] == '$' || text[0] == '%' || isdigit((unsigned char)text[0]);
}

int ts_reg_parse(const char *text, const mh_chip_io_range *io, unsigned *reg, unsigned *width,
                 char *err, size_t err_size)
{
    *width = 1;
    for (unsigned i = 0; i < MH_CHIP_SID_REGISTERS; i++) {
        if (strcasecmp(text, regs[i].name) == 0 || strcasecmp(text, regs[i].label) == 0) {
            *reg = i;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof composites / sizeof composites[0]; i++) {
        if (strcasecmp(text, composites[i].name) == 0) {
            *reg = composites[i].reg;
            *width = composites[i].width;
            return 0;
        }
    }
    if (looks_numeric(text)) {
        /* Reuse the SDK's address forms: "$D404", "0xD404", "54276", "4". */
        char doc_text[96];
        snprintf(doc_text, sizeof doc_text, "{\"r\":\"%.*s\"}", mh_utf8_prefix(text, 64), text);
        mh_json_doc *doc = NULL;
        const mh_json *obj = strchr(text, '"') || strchr(text, '\\')
                                 ? NULL : mh_args_parse(doc_text, &doc, NULL, 0);
        uint32_t value = 0;
        mh_status status = obj ? mh_args_address(obj, "r", 0xFFFF, &value, NULL, 0)
                               : MH_ERR_INVALID_ARGUMENT;
        mh_json_free(doc);
        if (status == MH_OK) return ts_reg_from_number(value, io, reg, err, err_size);
    }
    char hint[48];
    address_hint(io, hint, sizeof hint);
    snprintf(err, err_size,
             "unknown SID register \"%.*s\": use a name (v1_freq_lo ... v3_sustain_release, "
             "fc_lo, fc_hi, res_filt, mode_vol; composite v1_freq, v1_pw, fc; or the labels "
             "FRELO1 ... SIGVOL) or a number 0-28%s",
             mh_utf8_prefix(text, 64), text, hint);
    return -1;
}

static const char *const wave_names[4] = {"triangle", "sawtooth", "pulse", "noise"};

void ts_write_waveforms(mh_json_writer *w, uint8_t control)
{
    mh_json_write_array_begin(w);
    for (int i = 0; i < 4; i++)
        if (control & (0x10u << i)) mh_json_write_string(w, wave_names[i]);
    mh_json_write_array_end(w);
}

void ts_waveform_text(uint8_t control, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 4; i++) {
        if (!(control & (0x10u << i))) continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? "+" : "", wave_names[i]);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
    if (!used) snprintf(buf, size, "none");
}

/* Cycles per envelope step for rate values 0-15 (the SID's rate counter
 * periods; datasheet attack times 2 ms ... 8 s at 1 MHz). */
static const uint16_t rate_periods[16] = {9,    32,   63,   95,    149,   220,   267,   313,
                                          392,  977,  1954, 3126,  3907,  11720, 19532, 31251};

uint32_t ts_rate_period(unsigned rate) { return rate_periods[rate & 15u]; }

double ts_attack_ms(unsigned rate, uint32_t clock_hz)
{
    return 255.0 * ts_rate_period(rate) * 1000.0 / (double)clock_hz;
}

/* The exponential counter: periods per step by level (set when the level
 * reaches 255, 93, 54, 26, 14, 6). */
static unsigned exp_period(unsigned level)
{
    if (level > 93) return 1;
    if (level > 54) return 2;
    if (level > 26) return 4;
    if (level > 14) return 8;
    if (level > 6) return 16;
    return 30;
}

double ts_decay_ms(unsigned rate, unsigned from, unsigned to, uint32_t clock_hz)
{
    uint64_t periods = 0;
    for (unsigned level = from; level > to; level--) periods += exp_period(level);
    return (double)periods * ts_rate_period(rate) * 1000.0 / (double)clock_hz;
}

double ts_freq_hz(uint32_t freq, uint32_t clock_hz)
{
    return (double)freq * (double)clock_hz / 16777216.0;
}
