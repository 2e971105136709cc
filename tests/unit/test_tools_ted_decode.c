/* tools_ted.decode - the TED toolset's pure part against a hand-made view:
 * register numbers, names, the view as JSON (mode, addresses, colours as
 * hue/luminance/RGB, cursor row and column, timers, voices, IRQ sources,
 * clock, ROM) and text. */
#include <string.h>

#include "json_path.h"
#include "mh_test.h"
#include "ted_decode.h"

static void test_names_numbers(void)
{
    const mh_chip_io_range ted = {0xFF00, 0x40};
    CU_ASSERT_EQUAL(tted_register(0x19, &ted), 0x19);
    CU_ASSERT_EQUAL(tted_register(0xFF3F, &ted), 0x3F);
    CU_ASSERT_EQUAL(tted_register(0xFF40, &ted), -1);
    CU_ASSERT_EQUAL(tted_register(0xFD30, &ted), -1);
    CU_ASSERT_STRING_EQUAL(tted_mode_name(MH_CHIP_TED_MODE_MC_BITMAP), "multicolor_bitmap");
    CU_ASSERT_STRING_EQUAL(tted_hue_name(14), "dark blue");
    CU_ASSERT_STRING_EQUAL(tted_irq_name(1), "raster");
    CU_ASSERT_STRING_EQUAL(tted_irq_name(6), "timer3");
    CU_ASSERT_PTR_NULL(tted_irq_name(5));
}

static void make_view(mh_chip_ted_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->model = "7360", v->standard = "PAL", v->cycles_per_line = 57, v->lines_per_frame = 312;
    v->mode = MH_CHIP_TED_MODE_TEXT, v->rows25 = 1, v->columns40 = 1, v->yscroll = 3;
    v->screen_address = 0x0C00, v->attribute_address = 0x0800, v->charset_address = 0xD000;
    v->charset_in_rom = 1;
    v->border = (mh_chip_ted_color){.value = 0x6E, .hue = 14, .luminance = 6, .rgb = 0xCBAAFF};
    v->background[0] = (mh_chip_ted_color){.value = 0x71, .hue = 1, .luminance = 7, .rgb = 0xFFFFFF};
    v->cursor_position = 205, v->cursor_visible = 1;
    v->timers[0] = (mh_chip_ted_timer){.counter = 0x3391, .reload = 0x39F1, .running = 1,
                                       .underflows = 101};
    v->timers[2] = (mh_chip_ted_timer){.counter = 0x1DAB, .running = 0};
    v->voices[1] = (mh_chip_ted_voice){.frequency = 0x3F0, .on = 1, .noise = 1, .hz = 1100.5};
    v->volume = 8;
    v->raster_line = 107, v->raster_compare = 161, v->irq_flags = 0x8A, v->irq_mask = 0x0A;
    v->irq = 1, v->rom_enabled = 1, v->cpu_hz_single = 886724;
}

static void test_view_json(void)
{
    mh_chip_ted_view v;
    make_view(&v);
    const mh_chip_io_range io = {0xFF00, 0x40};
    mh_json_writer *w = mh_json_writer_new();
    tted_write_view(w, "ted", &io, &v);
    mh_json_doc *doc = json_path_finish(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "address_hex"), "$FF00");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "mode"), "text");
    CU_ASSERT_EQUAL(json_path_num(doc, "columns"), 40);
    CU_ASSERT_EQUAL(json_path_num(doc, "rows"), 25);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "memory.screen_hex"), "$0C00");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "memory.attributes_hex"), "$0800");
    CU_ASSERT_EQUAL(json_path_bool(doc, "memory.charset_in_rom"), 1);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "colors.border.hue_name"), "dark blue");
    CU_ASSERT_EQUAL(json_path_num(doc, "colors.border.luminance"), 6);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "colors.border.rgb"), "#CBAAFF");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "colors.background.0.rgb"), "#FFFFFF");
    CU_ASSERT_EQUAL(json_path_num(doc, "cursor.row"), 5);
    CU_ASSERT_EQUAL(json_path_num(doc, "cursor.column"), 5);
    CU_ASSERT_EQUAL(json_path_num(doc, "timers.0.reload"), 0x39F1);
    CU_ASSERT_EQUAL(json_path_bool(doc, "timers.2.running"), 0);
    CU_ASSERT_EQUAL(json_path_bool(doc, "sound.voices.1.noise"), 1);
    CU_ASSERT_EQUAL(json_path_bool(doc, "sound.voices.0.noise"), -1); /* voice 2 only */
    CU_ASSERT_DOUBLE_EQUAL(json_path_num(doc, "sound.voices.1.hz"), 1100.5, 0.001);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "irq.pending.0"), "raster");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "irq.pending.1"), "timer1");
    CU_ASSERT_EQUAL(json_path_bool(doc, "irq.asserted"), 1);
    CU_ASSERT_EQUAL(json_path_num(doc, "clock.single_hz"), 886724);
    CU_ASSERT_EQUAL(json_path_bool(doc, "rom_enabled"), 1);
    CU_ASSERT_PTR_NOT_NULL(json_path_get(doc, "registers.63"));
    mh_json_free(doc);

    w = mh_json_writer_new();
    tted_write_timers(w, "ted", &v);
    doc = json_path_finish(w);
    CU_ASSERT_EQUAL(json_path_num(doc, "timers.0.underflows"), 101);
    CU_ASSERT_PTR_NULL(json_path_get(doc, "mode"));
    mh_json_free(doc);

    char text[1024];
    tted_view_text(text, sizeof text, &v);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "timer 1: $3391 (reload $39F1) running, 101 underflows"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "border $6E (dark blue, luminance 6)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(noise) 1100.5 Hz"));
}

MH_SUITE("tools_ted.decode", NULL, NULL, MH_TEST(test_names_numbers), MH_TEST(test_view_json))
