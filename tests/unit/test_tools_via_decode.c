/* tools_via.decode - the VIA toolset's pure part against hand-made views:
 * register names and numbers (VIC-20 ranges, where both VIAs repeat), the
 * view as JSON (ports, timers with mode and PB7, shift register, CA/CB
 * lines, IFR/IER as source names) and as text. */
#include <string.h>

#include "json_path.h"
#include "mh_test.h"
#include "via_decode.h"

static const mh_chip_io_range via1 = {0x9110, 0x2F0}, via2 = {0x9120, 0x2E0};

static void test_registers(void)
{
    CU_ASSERT_STRING_EQUAL(tvia_register_name(4), "T1CL");
    CU_ASSERT_STRING_EQUAL(tvia_register_name(15), "ORA_NH");
    CU_ASSERT_EQUAL(tvia_register_by_name("t1ch"), 5);
    CU_ASSERT_EQUAL(tvia_register_by_name("IER"), 14);
    CU_ASSERT_EQUAL(tvia_register_by_name("CRA"), -1);
    CU_ASSERT_EQUAL(tvia_register(14, &via1, &via2), 14);
    CU_ASSERT_EQUAL(tvia_register(0x9114, &via1, &via2), 4);
    CU_ASSERT_EQUAL(tvia_register(0x912E, &via2, &via1), 14);
    /* The other VIA's own 16 bytes are the other's. */
    CU_ASSERT_EQUAL(tvia_register(0x9124, &via1, &via2), -2);
    CU_ASSERT_EQUAL(tvia_register(0x911F, &via2, &via1), -2);
    /* A mirror further up is accepted for the chip asked for. */
    CU_ASSERT_EQUAL(tvia_register(0x9135, &via1, &via2), 5);
    CU_ASSERT_EQUAL(tvia_register(0x9100, &via1, &via2), -1);
    CU_ASSERT_EQUAL(tvia_register(0x9400, &via1, NULL), -1);
    CU_ASSERT_EQUAL(tvia_register(0x9114, NULL, NULL), -1);
    CU_ASSERT_STRING_EQUAL(tvia_sr_mode_name(MH_CHIP_VIA_SR_OUT_FREE_T2), "out_free_t2");
    CU_ASSERT_STRING_EQUAL(tvia_c2_mode_name(MH_CHIP_VIA_C2_HANDSHAKE), "handshake");
    CU_ASSERT_STRING_EQUAL(tvia_irq_name(6), "t1");
}

static void make_view(mh_chip_via_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->model = "6522";
    v->ora = 0x12, v->ddra = 0xF0, v->pa_pins = 0x1F, v->ira = 0x1F;
    v->orb = 0xF7, v->ddrb = 0xFF, v->pb_pins = 0xF7, v->irb = 0xF7, v->pb_latching = 1;
    v->t1 = (mh_chip_via_timer){.counter = 0x1234, .latch = 0x4826, .free_run = 1, .pb_out = 1,
                                .pb_level = 1, .armed = 1, .timeouts = 77};
    v->t2 = (mh_chip_via_timer){.counter = 0xFFF0, .latch = 0x00AB, .pulse_count = 1};
    v->sr = 0x5A, v->sr_mode = MH_CHIP_VIA_SR_IN_CB1, v->sr_bits_left = 3;
    v->acr = 0xEE, v->pcr = 0xDE;
    v->ca = (mh_chip_via_control){.c1_positive = 0, .c1_level = 1, .c2_mode = 7, .c2_output = 1,
                                  .c2_level = 1};
    v->cb = (mh_chip_via_control){.c1_positive = 1, .c2_mode = 6, .c2_output = 1};
    v->ifr = 0xC2, v->ier = 0xC0, v->irq = 1;
    for (unsigned i = 0; i < 16; i++) v->regs[i] = (uint8_t)(i * 3);
}

static void test_view_json(void)
{
    mh_chip_via_view v;
    make_view(&v);
    mh_json_writer *w = mh_json_writer_new();
    tvia_write_view(w, "via2", &via2, &v);
    mh_json_doc *doc = json_path_finish(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "instance"), "via2");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "address_hex"), "$9120");
    CU_ASSERT_EQUAL(json_path_num(doc, "port_a.ddr"), 0xF0);
    CU_ASSERT_EQUAL(json_path_num(doc, "port_a.pins"), 0x1F);
    CU_ASSERT_EQUAL(json_path_bool(doc, "port_b.latching"), 1);
    CU_ASSERT_EQUAL(json_path_num(doc, "t1.counter"), 0x1234);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "t1.latch_hex"), "$4826");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "t1.mode"), "free_run");
    CU_ASSERT_EQUAL(json_path_bool(doc, "t1.pb7_output"), 1);
    CU_ASSERT_EQUAL(json_path_num(doc, "t1.timeouts"), 77);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "t2.mode"), "pulse_count");
    CU_ASSERT_EQUAL(json_path_bool(doc, "t2.running"), 0);
    CU_ASSERT_EQUAL(json_path_bool(doc, "t2.pb7_output"), -1); /* T1 only */
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "shift_register.mode"), "in_cb1");
    CU_ASSERT_EQUAL(json_path_num(doc, "shift_register.bits_left"), 3);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "ca.c2_mode"), "high");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "cb.c1_edge"), "positive");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "cb.c2_mode"), "low");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "interrupts.pending.0"), "ca1");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "interrupts.pending.1"), "t1");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "interrupts.enabled.0"), "t1");
    CU_ASSERT_PTR_NULL(json_path_get(doc, "interrupts.enabled.1"));
    CU_ASSERT_EQUAL(json_path_bool(doc, "interrupts.irq"), 1);
    CU_ASSERT_EQUAL(json_path_num(doc, "registers.15"), 45);
    mh_json_free(doc);

    w = mh_json_writer_new();
    tvia_write_timers(w, "via1", &v);
    doc = json_path_finish(w);
    CU_ASSERT_EQUAL(json_path_num(doc, "t2.counter"), 0xFFF0);
    CU_ASSERT_PTR_NULL(json_path_get(doc, "port_a"));
    mh_json_free(doc);
}

static void test_text(void)
{
    mh_chip_via_view v;
    make_view(&v);
    char text[512];
    int n = tvia_view_text(text, sizeof text, "via2", &v);
    CU_ASSERT_TRUE(n > 0 && (size_t)n < sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "T1 $1234 (latch $4826) free-run, PB7 output high"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "T2 $FFF0 (latch $AB) counting PB6 pulses"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "IRQ asserted"));
    char tiny[16];
    n = tvia_view_text(tiny, sizeof tiny, "via2", &v); /* cut, terminated */
    CU_ASSERT_TRUE(n >= (int)sizeof tiny);
    CU_ASSERT_EQUAL(strlen(tiny), sizeof tiny - 1);
}

MH_SUITE("tools_via.decode", NULL, NULL, MH_TEST(test_registers), MH_TEST(test_view_json),
         MH_TEST(test_text))
