/* http_settings.c - the limits of transport-http from the command line
 * (--transport-option NAME=VALUE) and the environment (MCPHOST_HTTP_*), one
 * table of both names. docs/transport-http.md lists them. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport_http.h"

typedef struct http_setting {
    const char *name; /* --transport-option NAME=VALUE */
    const char *env;  /* the environment variable */
    size_t offset;    /* in http_limits */
    int is_unsigned;  /* an unsigned field; else size_t */
} http_setting;

#define SIZE_FIELD(name, env, field) {name, env, offsetof(http_limits, field), 0}
#define UINT_FIELD(name, env, field) {name, env, offsetof(http_limits, field), 1}

static const http_setting settings[] = {
    SIZE_FIELD("max_sessions", "MCPHOST_HTTP_MAX_SESSIONS", max_sessions),
    UINT_FIELD("idle_seconds", "MCPHOST_HTTP_IDLE_SECONDS", idle_seconds),
    UINT_FIELD("evict_idle_seconds", "MCPHOST_HTTP_EVICT_IDLE_SECONDS", evict_idle_seconds),
    SIZE_FIELD("max_streams", "MCPHOST_HTTP_MAX_STREAMS", max_streams),
    SIZE_FIELD("stream_events", "MCPHOST_HTTP_STREAM_EVENTS", ring_events),
    SIZE_FIELD("stream_bytes", "MCPHOST_HTTP_STREAM_BYTES", ring_bytes),
    UINT_FIELD("json_window_ms", "MCPHOST_HTTP_JSON_WINDOW_MS", json_window_ms),
    UINT_FIELD("keepalive_ms", "MCPHOST_HTTP_KEEPALIVE_MS", keepalive_ms),
    SIZE_FIELD("max_connections", "MCPHOST_HTTP_MAX_CONNECTIONS", max_connections),
    SIZE_FIELD("max_pending", "MCPHOST_HTTP_MAX_PENDING", max_pending),
    SIZE_FIELD("max_pending_per_address", "MCPHOST_HTTP_MAX_PENDING_PER_ADDRESS",
               max_pending_per_address),
    UINT_FIELD("header_timeout", "MCPHOST_HTTP_HEADER_TIMEOUT", header_timeout),
    UINT_FIELD("body_timeout", "MCPHOST_HTTP_BODY_TIMEOUT", body_timeout),
};

#define SETTING_COUNT (sizeof settings / sizeof settings[0])

/* Stores text as a positive whole number in the setting's field; -1 when it
 * is not one (or too large for the field). */
static int store(http_limits *limits, const http_setting *setting, const char *text)
{
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    unsigned long long max = setting->is_unsigned ? 0xffffffffull : 1ull << 40;
    if (!*text || *text == '-' || *end || v == 0 || v > max) return -1;
    char *field = (char *)limits + setting->offset;
    if (setting->is_unsigned)
        *(unsigned *)(void *)field = (unsigned)v;
    else
        *(size_t *)(void *)field = (size_t)v;
    return 0;
}

static const http_setting *find_setting(const char *name, size_t length)
{
    for (size_t i = 0; i < SETTING_COUNT; i++)
        if (strlen(settings[i].name) == length && strncmp(settings[i].name, name, length) == 0)
            return &settings[i];
    return NULL;
}

int http_settings_read(http_transport *t, const mh_transport_options *options)
{
    http_limits *limits = &t->limits;
    memset(limits, 0, sizeof *limits);
    http_limits_defaults(limits);
    for (size_t i = 0; i < SETTING_COUNT; i++) {
        const char *text = getenv(settings[i].env);
        if (text && *text && store(limits, &settings[i], text) != 0)
            http_log(t, MH_LOG_WARNING, "ignoring %s=\"%s\": expected a positive whole number",
                     settings[i].env, text);
    }
    if (!MH_TRANSPORT_OPTIONS_HAVE_SETTINGS(options)) return 0; /* an older host */
    for (size_t i = 0; i < options->setting_count; i++) {
        const char *item = options->settings[i];
        const char *eq = strchr(item, '=');
        const http_setting *setting = eq ? find_setting(item, (size_t)(eq - item)) : NULL;
        if (!setting) {
            char names[512] = "";
            for (size_t k = 0; k < SETTING_COUNT; k++) {
                size_t at = strlen(names);
                snprintf(names + at, sizeof names - at, "%s%s", k ? ", " : "", settings[k].name);
            }
            http_log(t, MH_LOG_CRITICAL,
                     "--transport-option \"%.100s\": the http transport takes NAME=VALUE with "
                     "NAME one of %s",
                     item, names);
            return -1;
        }
        if (store(limits, setting, eq + 1) != 0) {
            http_log(t, MH_LOG_CRITICAL,
                     "--transport-option %.100s: %s takes a positive whole number, e.g. %s=%s",
                     item, setting->name, setting->name, setting->is_unsigned ? "30" : "128");
            return -1;
        }
    }
    return 0;
}
