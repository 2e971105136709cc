/* via_decode.c - the pure part of the VIA toolset (via_decode.h). */
#include "via_decode.h"

#include <stdio.h>
#include <strings.h>

#include <mcphost/args.h>

static const char *const register_names[16] = {"ORB", "ORA",  "DDRB", "DDRA", "T1CL", "T1CH",
                                                "T1LL", "T1LH", "T2CL", "T2CH", "SR",   "ACR",
                                                "PCR", "IFR",  "IER",  "ORA_NH"};

const char *tvia_register_name(unsigned reg) { return register_names[reg & 15u]; }

int tvia_register_by_name(const char *name)
{
    for (int i = 0; name && i < 16; i++)
        if (strcasecmp(name, register_names[i]) == 0) return i;
    return -1;
}

int tvia_register(uint32_t value, const mh_chip_io_range *range, const mh_chip_io_range *other)
{
    if (value < 16) return (int)value;
    /* Both VIAs of a VIC-20 repeat through $9100-$93FF; only the first 16
     * bytes of each range are certainly that chip's alone. */
    if (other && other->size && value >= other->base && value < other->base + 16u) return -2;
    return mh_chip_io_register(range, 16, 16, value);
}

const char *tvia_sr_mode_name(unsigned mode)
{
    static const char *const names[8] = {"disabled",    "in_t2",  "in_phi2",  "in_cb1",
                                         "out_free_t2", "out_t2", "out_phi2", "out_cb1"};
    return names[mode & 7u];
}

const char *tvia_c2_mode_name(unsigned mode)
{
    static const char *const names[8] = {"in_negative", "in_negative_independent",
                                         "in_positive", "in_positive_independent",
                                         "handshake",   "pulse",
                                         "low",         "high"};
    return names[mode & 7u];
}

const char *tvia_irq_name(unsigned bit)
{
    static const char *const names[7] = {"ca2", "ca1", "sr", "cb2", "cb1", "t2", "t1"};
    return bit < 7 ? names[bit] : "any";
}

static void write_port(mh_json_writer *w, const char *key, uint8_t out, uint8_t ddr, uint8_t pins,
                       uint8_t input, int latching, uint8_t latch)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "output", out);
    mh_args_write_byte(w, "ddr", ddr);
    mh_args_write_byte(w, "pins", pins);
    mh_args_write_byte(w, "read", input);
    mh_args_write_bool(w, "latching", latching);
    mh_args_write_byte(w, "latch", latch);
    mh_json_write_object_end(w);
}

static void write_timer(mh_json_writer *w, const char *key, const mh_chip_via_timer *t, int t1)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "counter", t->counter);
    mh_args_write_address(w, "latch", t->latch);
    mh_args_write_string(w, "mode", t1 ? (t->free_run ? "free_run" : "one_shot")
                       : (t->pulse_count ? "pulse_count" : "one_shot"));
    /* T1 and a T2 in timed mode count every cycle; a pulse counting T2
     * only on PB6's negative edges. */
    mh_args_write_bool(w, "running", t1 || !t->pulse_count);
    mh_args_write_bool(w, "armed", t->armed);
    if (t1) {
        mh_args_write_bool(w, "pb7_output", t->pb_out);
        mh_args_write_uint(w, "pb7_level", t->pb_level);
    }
    mh_args_write_uint(w, "timeouts", t->timeouts);
    mh_json_write_object_end(w);
}

static void write_control(mh_json_writer *w, const char *key, const mh_chip_via_control *c)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "c1_edge", c->c1_positive ? "positive" : "negative");
    mh_args_write_uint(w, "c1_level", c->c1_level);
    mh_args_write_string(w, "c2_mode", tvia_c2_mode_name(c->c2_mode));
    mh_args_write_bool(w, "c2_output", c->c2_output);
    mh_args_write_uint(w, "c2_level", c->c2_level);
    mh_json_write_object_end(w);
}

void tvia_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_via_view *v)
{
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "instance", instance);
    mh_args_write_string(w, "model", v->model ? v->model : "6522");
    if (io && io->size) mh_args_write_address(w, "address", io->base);
    write_port(w, "port_a", v->ora, v->ddra, v->pa_pins, v->ira, v->pa_latching, v->pa_latch);
    write_port(w, "port_b", v->orb, v->ddrb, v->pb_pins, v->irb, v->pb_latching, v->pb_latch);
    write_timer(w, "t1", &v->t1, 1);
    write_timer(w, "t2", &v->t2, 0);
    mh_json_write_key(w, "shift_register");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "value", v->sr);
    mh_args_write_string(w, "mode", tvia_sr_mode_name(v->sr_mode));
    mh_args_write_uint(w, "bits_left", v->sr_bits_left);
    mh_json_write_object_end(w);
    mh_args_write_byte(w, "acr", v->acr);
    mh_args_write_byte(w, "pcr", v->pcr);
    write_control(w, "ca", &v->ca);
    write_control(w, "cb", &v->cb);
    mh_json_write_key(w, "interrupts");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "ifr", v->ifr);
    mh_args_write_byte(w, "ier", v->ier);
    mh_args_write_bit_names(w, "pending", v->ifr, 7, tvia_irq_name);
    mh_args_write_bit_names(w, "enabled", v->ier, 7, tvia_irq_name);
    mh_args_write_bool(w, "irq", v->irq);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "registers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 16; i++) mh_json_write_uint(w, v->regs[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
}

void tvia_write_timers(mh_json_writer *w, const char *instance, const mh_chip_via_view *v)
{
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "instance", instance);
    write_timer(w, "t1", &v->t1, 1);
    write_timer(w, "t2", &v->t2, 0);
    mh_json_write_object_end(w);
}

int tvia_timers_text(char *out, size_t size, const char *instance, const mh_chip_via_view *v)
{
    return snprintf(out, size,
                    "%s T1 $%04X (latch $%04X) %s, PB7 %s; T2 $%04X (latch $%02X) %s\n", instance,
                    v->t1.counter, v->t1.latch, v->t1.free_run ? "free-run" : "one-shot",
                    v->t1.pb_out ? (v->t1.pb_level ? "output high" : "output low") : "off",
                    v->t2.counter, v->t2.latch & 0xFFu,
                    v->t2.pulse_count ? "counting PB6 pulses" : "one-shot");
}

int tvia_view_text(char *out, size_t size, const char *instance, const mh_chip_via_view *v)
{
    int n = snprintf(out, size,
                     "%s (%s): PA out $%02X DDR $%02X pins $%02X; PB out $%02X DDR $%02X pins "
                     "$%02X\n",
                     instance, v->model ? v->model : "6522", v->ora, v->ddra, v->pa_pins, v->orb,
                     v->ddrb, v->pb_pins);
    if (n < 0 || (size_t)n >= size) return n;
    int m = tvia_timers_text(out + n, size - (size_t)n, instance, v);
    if (m < 0 || (size_t)(n + m) >= size) return n + m;
    n += m;
    return n + snprintf(out + n, size - (size_t)n,
                        "SR $%02X %s; ACR $%02X PCR $%02X (CA2 %s, CB2 %s); IFR $%02X IER $%02X%s\n",
                        v->sr, tvia_sr_mode_name(v->sr_mode), v->acr, v->pcr,
                        tvia_c2_mode_name(v->ca.c2_mode), tvia_c2_mode_name(v->cb.c2_mode), v->ifr,
                        v->ier, v->irq ? ", IRQ asserted" : "");
}
