/* capabilities_tool.c - machine_capabilities (capabilities_tool.h): reads the
 * session's chips and capability interfaces (mcphost/machine.h) on its
 * thread, and the host registry for which tools and toolsets work there.
 *
 * A tool is unavailable on a session when it needs a session and its
 * `requires` interface is not among the session's chips; a toolset is
 * available when at least one of its tools is. */
#include "capabilities_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "chip_names.h"
#include "hostctx.h"
#include "loader.h"
#include "mcphost/machine.h"
#include "registry.h"
#include "server.h"
#include "sessions.h"

const char mh_capabilities_output_schema[] =
    "{\"type\":\"object\",\"required\":[\"session\",\"machine\",\"chips\",\"toolsets\","
    "\"tools\"],\"properties\":{\"memory_spaces\":{}}}";

/* The chip of an interface when its vtable is at least size bytes. */
static const mh_chip *chip_of(mh_session *s, const char *iface, size_t size)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(s, iface, NULL);
    return chip && chip->vtable && *(const uint32_t *)chip->vtable >= size ? chip : NULL;
}

/* Why tool t cannot run on s (into buf), or NULL when it can. */
static const char *why_unavailable(const mh_reg_tool *t, mh_session *s, char *buf, size_t size)
{
    if (!(t->flags & (MH_TOOL_NEEDS_SESSION | MH_TOOL_SESSION_ON_WORKER)) || !t->requires)
        return NULL;
    if (mh_session_service_impl.find_chip(s, t->requires, NULL)) return NULL;
    snprintf(buf, size, "the %s machine has no %s (%s)", mh_session_machine_name(s),
             mh_chip_human_name(t->requires), t->requires);
    return buf;
}

static const char *machine_description(mh_hostctx *ctx, const char *name)
{
    for (size_t i = 0; ctx && i < ctx->registry.machines.count; i++) {
        const mh_reg_machine *m = ctx->registry.machines.items[i];
        if (strcmp(m->name, name) == 0) return m->description;
    }
    return "";
}

static void add_hardware(cJSON *out, mh_session *s, char *text, size_t size)
{
    const mh_chip *caps_chip = chip_of(s, MH_IFACE_CAPS, sizeof(mh_caps_iface));
    const mh_machine_caps *caps =
        caps_chip ? ((const mh_caps_iface *)caps_chip->vtable)->caps(caps_chip->context) : NULL;
    const mh_chip *cpu_chip = chip_of(s, MH_IFACE_CPU6502, sizeof(mh_cpu6502_iface));
    const mh_cpu6502_iface *cpu = cpu_chip ? cpu_chip->vtable : NULL;
    const char *cpu_name = caps && caps->cpu ? caps->cpu
                           : cpu && cpu->model_name ? cpu->model_name(cpu_chip->context)
                                                    : NULL;
    if (cpu_name) cJSON_AddStringToObject(out, "cpu", cpu_name);
    else cJSON_AddNullToObject(out, "cpu");
    size_t used = strlen(text);
    snprintf(text + used, size - used, "CPU: %s\n", cpu_name ? cpu_name : "none");

    cJSON *chips = cJSON_AddArrayToObject(out, "chips");
    size_t n = mh_session_service_impl.chip_count(s);
    for (size_t i = 0; i < n; i++) {
        const mh_chip *c = mh_session_service_impl.chip_at(s, i);
        cJSON *chip = cJSON_CreateObject();
        cJSON_AddStringToObject(chip, "instance", c->instance);
        cJSON_AddStringToObject(chip, "interface", c->interface_id);
        cJSON_AddStringToObject(chip, "kind", mh_chip_human_name(c->interface_id));
        cJSON_AddStringToObject(chip, "description", c->description ? c->description : "");
        cJSON_AddItemToArray(chips, chip);
        used = strlen(text);
        snprintf(text + used, size - used, "  %-10s %-18s %s: %s\n", c->instance, c->interface_id,
                 mh_chip_human_name(c->interface_id), c->description ? c->description : "");
    }

    cJSON *spaces = cJSON_AddArrayToObject(out, "memory_spaces");
    const mh_chip *mem_chip = chip_of(s, MH_IFACE_MEMORY, MH_MEMORY_IFACE_SIZE_1_0);
    if (mem_chip) {
        const mh_memory_iface *mem = mem_chip->vtable;
        used = strlen(text);
        snprintf(text + used, size - used, "memory spaces:\n");
        for (size_t i = 0; i < mem->space_count(mem_chip->context); i++) {
            const mh_memory_space *sp = mem->space(mem_chip->context, i);
            if (!sp) continue;
            cJSON *space = cJSON_CreateObject();
            cJSON_AddStringToObject(space, "name", sp->name);
            cJSON_AddStringToObject(space, "description", sp->description ? sp->description : "");
            cJSON_AddNumberToObject(space, "size", sp->size);
            cJSON_AddNumberToObject(space, "base", sp->base);
            char hex[16];
            snprintf(hex, sizeof hex, "$%04X", (unsigned)sp->base);
            cJSON_AddStringToObject(space, "base_hex", hex);
            cJSON_AddBoolToObject(space, "writable", sp->writable != 0);
            cJSON_AddItemToArray(spaces, space);
            used = strlen(text);
            snprintf(text + used, size - used, "  %-8s %u bytes at %s%s: %s\n", sp->name,
                     (unsigned)sp->size, hex, sp->writable ? "" : " (read-only)",
                     sp->description ? sp->description : "");
        }
    }

    cJSON *video = cJSON_AddObjectToObject(out, "video");
    const mh_chip *video_chip = chip_of(s, MH_IFACE_VIDEO, sizeof(mh_video_iface));
    const char *standard =
        video_chip ? ((const mh_video_iface *)video_chip->vtable)->standard(video_chip->context)
                   : NULL;
    if (standard) cJSON_AddStringToObject(video, "standard", standard);
    else cJSON_AddNullToObject(video, "standard");
    cJSON_AddStringToObject(video, "standards", caps && caps->video_standards ? caps->video_standards : "");

    cJSON *media = cJSON_AddObjectToObject(out, "media");
    const char *kinds = caps && caps->media ? caps->media : "";
    cJSON_AddStringToObject(media, "kinds", kinds);
    cJSON *attached = cJSON_AddObjectToObject(media, "attached");
    const mh_chip *media_chip = chip_of(s, MH_IFACE_MEDIA, sizeof(mh_media_iface));
    char kind[32];
    for (const char *k = kinds; media_chip && *k;) {
        size_t len = strcspn(k, ",");
        if (len && len < sizeof kind) {
            memcpy(kind, k, len);
            kind[len] = '\0';
            const char *path =
                ((const mh_media_iface *)media_chip->vtable)->attached(media_chip->context, kind);
            if (path) cJSON_AddStringToObject(attached, kind, path);
            else cJSON_AddNullToObject(attached, kind);
        }
        k += len + (k[len] == ',');
    }
    used = strlen(text);
    snprintf(text + used, size - used, "video: %s (%s); media: %s", standard ? standard : "none",
             caps && caps->video_standards ? caps->video_standards : "", kinds[0] ? kinds : "none");
    const cJSON *item;
    cJSON_ArrayForEach(item, attached)
    {
        used = strlen(text);
        snprintf(text + used, size - used, "; %s: %s", item->string,
                 cJSON_IsString(item) ? item->valuestring : "none attached");
    }
    used = strlen(text);
    snprintf(text + used, size - used, "\n");
    if (caps && caps->description) cJSON_AddStringToObject(out, "description", caps->description);
    const char *basic = caps && caps->struct_size >= offsetof(mh_machine_caps, basic) + sizeof caps->basic
                            ? caps->basic : NULL;
    if (basic && basic[0]) cJSON_AddStringToObject(out, "basic", basic);
    else cJSON_AddNullToObject(out, "basic");
    used = strlen(text);
    snprintf(text + used, size - used, "BASIC: %s\n", basic && basic[0] ? basic : "none");
    if (caps && caps->description) {
        used = strlen(text);
        snprintf(text + used, size - used, "%s\n", caps->description);
    }
}

static void add_tools(cJSON *out, mh_hostctx *ctx, mh_session *s, char *text, size_t size)
{
    cJSON *toolsets = cJSON_AddArrayToObject(out, "toolsets");
    cJSON *tools = cJSON_AddArrayToObject(out, "tools");
    size_t used = strlen(text);
    snprintf(text + used, size - used, "toolsets:\n");
    for (size_t p = 0; ctx && p < ctx->plugins.count; p++) {
        const mh_plugin_record *rec = ctx->plugins.items[p];
        if (rec->entry->kind != MH_PLUGIN_TOOLSET) continue;
        size_t available = 0, unavailable = 0;
        char first_reason[256] = "", names[2048] = "";
        cJSON *missing = cJSON_CreateArray();
        for (size_t i = 0; i < ctx->registry.tools.count; i++) {
            const mh_reg_tool *t = ctx->registry.tools.items[i];
            if (t->owner != rec) continue;
            char buf[256];
            const char *why = why_unavailable(t, s, buf, sizeof buf);
            cJSON *tool = cJSON_CreateObject();
            cJSON_AddStringToObject(tool, "name", t->name);
            cJSON_AddStringToObject(tool, "toolset", rec->entry->name);
            cJSON_AddBoolToObject(tool, "available", why == NULL);
            if (why) {
                cJSON_AddStringToObject(tool, "reason", why);
                cJSON_AddItemToArray(missing, cJSON_CreateString(t->name));
                if (!first_reason[0]) snprintf(first_reason, sizeof first_reason, "%s", why);
                unavailable++;
            } else {
                available++;
            }
            cJSON_AddItemToArray(tools, tool);
            size_t nlen = strlen(names);
            snprintf(names + nlen, sizeof names - nlen, "%s%s%s", nlen ? ", " : "", t->name,
                     why ? " (unavailable)" : "");
        }
        cJSON *set = cJSON_CreateObject();
        cJSON_AddStringToObject(set, "name", rec->entry->name);
        cJSON_AddStringToObject(set, "id", rec->entry->id);
        cJSON_AddBoolToObject(set, "available", available > 0);
        cJSON_AddNumberToObject(set, "tools_available", (double)available);
        cJSON_AddNumberToObject(set, "tools_unavailable", (double)unavailable);
        if (unavailable) {
            cJSON_AddStringToObject(set, "reason", first_reason);
            cJSON_AddItemToObject(set, "unavailable_tools", missing);
        } else {
            cJSON_Delete(missing);
        }
        cJSON_AddItemToArray(toolsets, set);
        used = strlen(text);
        if (!available && unavailable)
            snprintf(text + used, size - used, "  %-14s (%s) unavailable: %s; its %zu tools: %s\n",
                     rec->entry->name, rec->entry->id, first_reason, unavailable, names);
        else if (unavailable)
            snprintf(text + used, size - used, "  %-14s (%s) %zu tools; %zu unavailable (%s): %s\n",
                     rec->entry->name, rec->entry->id, available, unavailable, first_reason, names);
        else
            snprintf(text + used, size - used, "  %-14s (%s) %zu tools: %s\n", rec->entry->name,
                     rec->entry->id, available, names);
    }
}

void mh_tool_machine_capabilities(void *user, mh_call *call)
{
    (void)user;
    mh_session *s = call->session;
    mh_hostctx *ctx = call->req ? mh_request_host(call->req) : NULL;
    if (!s) {
        mh_call_errorf(call, "machine_capabilities needs a machine session; create one with "
                             "session_create");
        return;
    }
    static const size_t text_size = 32768;
    char *text = calloc(1, text_size);
    cJSON *out = cJSON_CreateObject();
    if (!text || !out) {
        free(text);
        cJSON_Delete(out);
        mh_call_errorf(call, "machine_capabilities: out of memory");
        return;
    }
    const char *machine = mh_session_machine_name(s);
    cJSON_AddStringToObject(out, "session", mh_session_name(s));
    cJSON_AddStringToObject(out, "machine", machine);
    cJSON_AddStringToObject(out, "machine_description", machine_description(ctx, machine));
    snprintf(text, text_size, "session %s: %s (%s)\n", mh_session_name(s), machine,
             machine_description(ctx, machine));
    add_hardware(out, s, text, text_size);
    add_tools(out, ctx, s, text, text_size);
    char *json = cJSON_PrintUnformatted(out);
    mh_call_service_impl.text(call, text);
    mh_call_service_impl.structured(call, json ? json : "{}");
    cJSON_free(json);
    cJSON_Delete(out);
    free(text);
}
