/* tools_sid_plugin.c - the tools-sid plugin entry: host services, the
 * helpers every handler shares, registration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_sid.h"

static const ts_register_fn groups[] = {ts_register_regs, ts_register_voices};

const mh_chip_sid_iface *ts_chip(const ts_plugin *plugin, mh_call *call, void **context)
{
    /* io_range (ABI 1.3) is optional: checked where used. */
    const mh_chip *chip =
        mh_toolkit_chip(plugin->call, call, offsetof(mh_chip_sid_iface, io_range));
    if (!chip) return NULL;
    *context = chip->context;
    return chip->vtable;
}

void ts_finish(const ts_plugin *plugin, mh_call *call, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(plugin->call, call, w, text) != MH_OK)
        ts_errorf(plugin, call, "internal error building the result: %s",
                  mh_json_writer_error(w));
    mh_json_writer_free(w);
}

void ts_write_state(const ts_plugin *plugin, mh_call *call, mh_json_writer *w)
{
    mh_session *session = plugin->call->session(call);
    const char *state = "unknown";
    if (plugin->debug && plugin->debug->state && session)
        state = mh_exec_state_name((uint32_t)plugin->debug->state(session));
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state);
}

static void tools_sid_deinit(void *data) { free(data); }

static mh_status tools_sid_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 1, data);
}

MH_PLUGIN_DEFINE("org.mcphost.tools-sid", "tools-sid", "0.1.0",
                 "SID tools: registers and voices",
                 MH_PLUGIN_TOOLSET, tools_sid_init, tools_sid_deinit);
