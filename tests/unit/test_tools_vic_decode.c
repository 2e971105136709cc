/* tools_vic.decode - the VIC toolset's pure part against a hand-made view:
 * register names and numbers, the view as JSON (addresses CPU and VIC
 * side, geometry, colours by name, voices with Hz) and text, and the
 * raster breakpoint's state machine. */
#include <string.h>

#include "json_path.h"
#include "mh_test.h"
#include "mcphost/toolkit.h"
#include "vic_decode.h"

static void test_registers(void)
{
    const mh_chip_io_range vic = {0x9000, 0x100};
    CU_ASSERT_STRING_EQUAL(tvic_register_name(15), "CRF");
    CU_ASSERT_EQUAL(tvic_register("crf", 0, &vic), 15);
    CU_ASSERT_EQUAL(tvic_register("CR5", 0, &vic), 5);
    CU_ASSERT_EQUAL(tvic_register("border", 0, &vic), -1);
    CU_ASSERT_EQUAL(tvic_register(NULL, 3, &vic), 3);
    CU_ASSERT_EQUAL(tvic_register(NULL, 0x900F, &vic), 15);
    CU_ASSERT_EQUAL(tvic_register(NULL, 0x9025, &vic), 5); /* mirror */
    CU_ASSERT_EQUAL(tvic_register(NULL, 0x9100, &vic), -1);
    CU_ASSERT_STRING_EQUAL(tvic_color_name(6), "blue");
    CU_ASSERT_STRING_EQUAL(tvic_color_name(15), "light yellow");
    CU_ASSERT_STRING_EQUAL(tvic_voice_name(3), "noise");
}

static void make_view(mh_chip_vic_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->model = "6561", v->standard = "PAL", v->clock_hz = 1108405;
    v->cycles_per_line = 71, v->lines_per_frame = 312;
    v->screen_address = 0x1E00, v->screen_vic_address = 0x3E00, v->color_address = 0x9600;
    v->charset_address = 0x8000, v->charset_vic_address = 0x0000, v->charset_in_rom = 1;
    v->columns = 22, v->rows = 23, v->char_height = 8, v->origin_x = 12, v->origin_y = 38;
    v->raster_line = 100, v->raster_cycle = 7, v->frame = 9;
    v->border_color = 3, v->background_color = 1, v->auxiliary_color = 0;
    v->voices[2] = (mh_chip_vic_voice){.reg = 0xE0, .on = 1, .value = 0x60, .frequency_hz = 1082.4};
    v->volume = 15;
}

static void test_view_json(void)
{
    mh_chip_vic_view v;
    make_view(&v);
    const mh_chip_io_range io = {0x9000, 0x100};
    mh_json_writer *w = mh_json_writer_new();
    tvic_write_view(w, "vic", &io, &v);
    mh_json_doc *doc = json_path_finish(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "model"), "6561");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "address_hex"), "$9000");
    CU_ASSERT_EQUAL(json_path_num(doc, "screen.address"), 0x1E00);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "screen.vic_address_hex"), "$3E00");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "color_ram.address_hex"), "$9600");
    CU_ASSERT_EQUAL(json_path_bool(doc, "charset.in_rom"), 1);
    CU_ASSERT_EQUAL(json_path_num(doc, "columns"), 22);
    CU_ASSERT_EQUAL(json_path_num(doc, "rows"), 23);
    CU_ASSERT_EQUAL(json_path_num(doc, "origin.y"), 38);
    CU_ASSERT_EQUAL(json_path_num(doc, "raster.line"), 100);
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "colors.border.name"), "cyan");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "colors.background.name"), "white");
    CU_ASSERT_STRING_EQUAL(json_path_str(doc, "sound.voices.2.name"), "soprano");
    CU_ASSERT_EQUAL(json_path_bool(doc, "sound.voices.2.on"), 1);
    CU_ASSERT_DOUBLE_EQUAL(json_path_num(doc, "sound.voices.2.hz"), 1082.4, 0.001);
    CU_ASSERT_EQUAL(json_path_bool(doc, "sound.voices.0.on"), 0);
    CU_ASSERT_EQUAL(json_path_num(doc, "sound.volume"), 15);
    mh_json_free(doc);
    char text[512];
    tvic_view_text(text, sizeof text, &v);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "screen $1E00"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "soprano 1082.4 Hz"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "bass off"));
}

static void test_raster_state(void)
{
    mh_toolkit_raster st;
    mh_toolkit_raster_init(&st, 100, 100, 0, 100); /* set on the line: waits a frame */
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 100));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 101));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 311));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 0));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 100));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 100)); /* once per entry */
    mh_toolkit_raster_init(&st, 10, 12, 1, 5);          /* every line of a range */
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 10));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 10));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 11));
    CU_ASSERT_TRUE(mh_toolkit_raster_step(&st, 12));
    CU_ASSERT_FALSE(mh_toolkit_raster_step(&st, 13));
}

MH_SUITE("tools_vic.decode", NULL, NULL, MH_TEST(test_registers), MH_TEST(test_view_json),
         MH_TEST(test_raster_state))
