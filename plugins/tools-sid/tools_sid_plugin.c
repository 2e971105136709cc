/* tools_sid_plugin.c - the tools-sid plugin entry: host services, the
 * helpers every handler shares, the last-capture store, registration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_sid.h"

static const ts_register_fn groups[] = {ts_register_regs, ts_register_voices, ts_register_audio};

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
    if (mh_toolkit_send_json(plugin->call, call, w, text) != MH_OK)
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

void ts_audio_free(ts_audio *audio)
{
    free(audio->mixed);
    for (int v = 0; v < 3; v++) free(audio->voice[v]);
    memset(audio, 0, sizeof *audio);
}

void ts_store_put(ts_plugin *plugin, mh_session *session, const char *name, ts_audio *audio)
{
    pthread_mutex_lock(&plugin->lock);
    ts_store_slot *slot = NULL;
    for (unsigned i = 0; i < TS_STORE_SLOTS && !slot; i++)
        if (plugin->store[i].session == session && strcmp(plugin->store[i].name, name) == 0)
            slot = &plugin->store[i];
    if (!slot) slot = &plugin->store[plugin->store_next++ % TS_STORE_SLOTS];
    ts_audio_free(&slot->audio);
    slot->session = session;
    snprintf(slot->name, sizeof slot->name, "%s", name);
    slot->audio = *audio;
    memset(audio, 0, sizeof *audio);
    pthread_mutex_unlock(&plugin->lock);
}

static int16_t *copy_samples(const int16_t *from, size_t count)
{
    if (!from) return NULL;
    int16_t *to = malloc(count ? count * sizeof *to : 1);
    if (to && count) memcpy(to, from, count * sizeof *to);
    return to;
}

int ts_store_get(ts_plugin *plugin, mh_session *session, const char *name, ts_audio *out)
{
    int found = 0;
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&plugin->lock);
    for (unsigned i = 0; i < TS_STORE_SLOTS && !found; i++) {
        const ts_store_slot *slot = &plugin->store[i];
        if (slot->session != session || strcmp(slot->name, name) != 0 || !slot->audio.mixed)
            continue;
        *out = slot->audio;
        out->mixed = copy_samples(slot->audio.mixed, slot->audio.count);
        for (int v = 0; v < 3; v++) out->voice[v] = copy_samples(slot->audio.voice[v], slot->audio.count);
        found = out->mixed != NULL ? 1 : -1;
    }
    pthread_mutex_unlock(&plugin->lock);
    return found;
}

static void tools_sid_deinit(void *data)
{
    ts_plugin *plugin = data;
    if (!plugin) return;
    for (unsigned i = 0; i < TS_STORE_SLOTS; i++) ts_audio_free(&plugin->store[i].audio);
    pthread_mutex_destroy(&plugin->lock);
    free(plugin);
}

static mh_status tools_sid_init(const mh_host *host, void **data)
{
    ts_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->host = host;
    plugin->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    plugin->sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
    plugin->debug = host->get_service(host, MH_DEBUG_SERVICE_ID);
    plugin->files = host->get_service(host, MH_FILES_SERVICE_ID);
    plugin->observe = host->get_service(host, MH_OBSERVE_SERVICE_ID);
    if (!plugin->registry || !plugin->call || !plugin->sessions) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    pthread_mutex_init(&plugin->lock, NULL);
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        mh_status status = groups[i](plugin);
        if (status != MH_OK) {
            tools_sid_deinit(plugin); /* the host removes what was registered */
            return status;
        }
    }
    *data = plugin;
    return MH_OK;
}

MH_PLUGIN_DEFINE("org.mcphost.tools-sid", "tools-sid", "0.1.0",
                 "SID tools: registers, voices, audio capture (WAV) and analysis",
                 MH_PLUGIN_TOOLSET, tools_sid_init, tools_sid_deinit);
