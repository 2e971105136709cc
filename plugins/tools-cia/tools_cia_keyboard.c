/* tools_cia_keyboard.c - cia_keyboard_matrix: which keys of the matrix a
 * CIA scans are held down. */
#include <stdio.h>
#include <string.h>

#include "tools_cia.h"

#define END_CALL { tc_end(&c); return; }

static void keyboard_matrix(void *user, mh_call *call)
{
    tc_ctx c;
    if (tc_begin(user, call, &c) != 0) END_CALL
    uint8_t held[8] = {0};
    if (!c.cia->keyboard || c.cia->keyboard(c.chip, held) != MH_OK) {
        tc_fail(&c, "no keyboard is wired to %s: on a C64 the keyboard matrix is on cia1 "
                    "(give instance \"cia1\")", c.instance);
        END_CALL
    }
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "instance");
    mh_json_write_string(w, c.instance);
    mh_json_write_key(w, "keys_down");
    mh_json_write_array_begin(w);
    char text[1024];
    int n = snprintf(text, sizeof text, "keys down:");
    int any = 0;
    for (unsigned col = 0; col < 8; col++)
        for (unsigned row = 0; row < 8; row++) {
            if (!(held[col] & (1u << row))) continue;
            const char *name = c.cia->key_name ? c.cia->key_name(c.chip, col, row) : NULL;
            char fallback[24];
            if (!name) {
                snprintf(fallback, sizeof fallback, "column %u row %u", col, row);
                name = fallback;
            }
            mh_json_write_string(w, name);
            if (n > 0 && (size_t)n < sizeof text)
                n += snprintf(text + n, sizeof text - (size_t)n, "%s %s", any ? "," : "", name);
            any = 1;
        }
    mh_json_write_array_end(w);
    /* matrix[column]: 8 characters, row 0 first, '1' where a key is down. */
    mh_json_write_key(w, "matrix");
    mh_json_write_array_begin(w);
    for (unsigned col = 0; col < 8; col++) {
        char bits[9];
        for (unsigned row = 0; row < 8; row++) bits[row] = (held[col] >> row) & 1u ? '1' : '0';
        bits[8] = '\0';
        mh_json_write_string(w, bits);
    }
    mh_json_write_array_end(w);
    mh_args_write_byte(w, "port_a_driven", c.view.pa_out);
    mh_args_write_byte(w, "port_b_pins", c.view.pb_pins);
    mh_json_write_object_end(w);
    if (!any) snprintf(text, sizeof text, "no key is down");
    else if (n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n,
                 "\n(PA drives the columns: $%02X now; PB reads the rows: $%02X)", c.view.pa_out,
                 c.view.pb_pins);
    tc_send(&c, w, text);
    tc_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "cia_keyboard_matrix", "Keyboard matrix",
     "The keys held in the matrix this CIA scans (cia1 on a C64) by name, the 8x8 matrix, and "
     "what the ports drive and read now.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"keys_down\",\"matrix\"]}",
     MH_TOOL_READ_ONLY, 0, NULL,
     "vice.cia.keyboard.matrix", keyboard_matrix, NULL},
};

mh_status tc_register_keyboard(tc_plugin *plugin)
{
    return mh_toolkit_register_tools(plugin->host, plugin->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_CHIP_CIA_IFACE, plugin);
}
