/* tools_audio_plugin.c - the tools-audio plugin entry: host services, the
 * helpers every handler shares, the last-capture store, registration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_audio.h"

int ta_source_of(const ta_plugin *plugin, mh_call *call, const char *tool, ta_source *out)
{
    memset(out, 0, sizeof *out);
    const mh_chip *chip = mh_toolkit_chip(plugin->svc.call, call, sizeof(mh_audio_iface));
    if (!chip) {
        ta_errorf(plugin, call, "%s: the machine's audio interface (%s) is missing or too old",
                  tool, MH_IFACE_AUDIO);
        return -1;
    }
    out->audio = chip->vtable;
    out->audio_context = chip->context;
    mh_session *session = plugin->svc.call->session(call);
    const mh_chip *sid = session ? plugin->svc.sessions->find_chip(session, MH_CHIP_SID_IFACE, NULL)
                                 : NULL;
    if (sid && ((const mh_chip_sid_iface *)sid->vtable)->struct_size >=
                   sizeof(mh_chip_sid_iface)) {
        out->sid = sid->vtable;
        out->sid_context = sid->context;
    }
    return 0;
}

void ta_finish(const ta_plugin *plugin, mh_call *call, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(plugin->svc.call, call, w, text) != MH_OK)
        ta_errorf(plugin, call, "internal error building the result: %s",
                  mh_json_writer_error(w));
    mh_json_writer_free(w);
}

void ta_write_state(const ta_plugin *plugin, mh_call *call, mh_json_writer *w)
{
    mh_session *session = plugin->svc.call->session(call);
    const char *state = "unknown";
    if (plugin->svc.debug && plugin->svc.debug->state && session)
        state = mh_exec_state_name((uint32_t)plugin->svc.debug->state(session));
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state);
}

void ta_write_db(mh_json_writer *w, double db)
{
    if (isfinite(db)) mh_json_write_double(w, round(db * 100.0) / 100.0);
    else mh_json_write_null(w);
}

void ta_audio_free(ta_audio *audio)
{
    free(audio->mixed);
    for (int v = 0; v < 3; v++) free(audio->voice[v]);
    memset(audio, 0, sizeof *audio);
}

void ta_store_put(ta_plugin *plugin, mh_session *session, const char *name, ta_audio *audio)
{
    pthread_mutex_lock(&plugin->lock);
    ta_store_slot *slot = NULL;
    for (unsigned i = 0; i < TA_STORE_SLOTS && !slot; i++)
        if (plugin->store[i].session == session && strcmp(plugin->store[i].name, name) == 0)
            slot = &plugin->store[i];
    if (!slot) slot = &plugin->store[plugin->store_next++ % TA_STORE_SLOTS];
    ta_audio_free(&slot->audio);
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
int ta_store_get(ta_plugin *plugin, mh_session *session, const char *name, ta_audio *out)
{
    int found = 0;
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&plugin->lock);
    for (unsigned i = 0; i < TA_STORE_SLOTS && !found; i++) {
        const ta_store_slot *slot = &plugin->store[i];
        if (slot->session != session || strcmp(slot->name, name) != 0 || !slot->audio.mixed)
            continue;
        *out = slot->audio;
        out->mixed = copy_samples(slot->audio.mixed, slot->audio.count);
        for (int v = 0; v < 3; v++)
            out->voice[v] = copy_samples(slot->audio.voice[v], slot->audio.count);
        found = out->mixed != NULL ? 1 : -1;
    }
    pthread_mutex_unlock(&plugin->lock);
    return found;
}

static void tools_audio_deinit(void *data)
{
    ta_plugin *plugin = data;
    if (!plugin) return;
    for (unsigned i = 0; i < TA_STORE_SLOTS; i++) ta_audio_free(&plugin->store[i].audio);
    pthread_mutex_destroy(&plugin->lock);
    free(plugin);
}

static mh_status tools_audio_init(const mh_host *host, void **data)
{
    ta_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->observe = host->get_service(host, MH_OBSERVE_SERVICE_ID);
    if (mh_toolkit_services_get(host, &plugin->svc) != MH_OK || !plugin->svc.sessions) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    pthread_mutex_init(&plugin->lock, NULL);
    mh_status status = ta_register_tools(plugin);
    if (status != MH_OK) {
        tools_audio_deinit(plugin); /* the host removes what was registered */
        return status;
    }
    *data = plugin;
    return MH_OK;
}

MH_PLUGIN_DEFINE("org.mcphost.tools-audio", "tools-audio", "0.1.0",
                 "Audio tools for every machine's sound: capture (WAV) and analysis",
                 MH_PLUGIN_TOOLSET, tools_audio_init, tools_audio_deinit);
