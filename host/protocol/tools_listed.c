/* tools_listed.c - the tools tools/list shows (tools_listed.h). */
#include "tools_listed.h"

#include <stdlib.h>
#include <string.h>

#include "sessions.h"

size_t mh_tools_listed(mh_hostctx *ctx, const char *skip_session, const mh_reg_tool **out,
                       size_t cap)
{
    const mh_registry *reg = &ctx->registry;
    mh_session **live = NULL;
    size_t n = ctx->sessions ? mh_sessions_list(ctx->sessions, &live) : 0;
    size_t kept = 0; /* live sessions that count */
    for (size_t i = 0; i < n; i++) {
        if (skip_session && strcmp(mh_session_name(live[i]), skip_session) == 0)
            mh_session_unref(live[i]);
        else
            live[kept++] = live[i];
    }
    size_t listed = 0;
    for (size_t i = 0; i < reg->tools.count; i++) {
        const mh_reg_tool *t = reg->tools.items[i];
        int runs = !t->requires || kept == 0;
        for (size_t j = 0; j < kept && !runs; j++)
            runs = mh_session_service_impl.find_chip(live[j], t->requires, NULL) != NULL;
        if (!runs) continue;
        if (out && listed < cap) out[listed] = t;
        listed++;
    }
    for (size_t i = 0; i < kept; i++) mh_session_unref(live[i]);
    free(live);
    return listed;
}

uint64_t mh_tools_listed_hash(mh_hostctx *ctx, const char *skip_session)
{
    const size_t count = ctx->registry.tools.count;
    const mh_reg_tool **tools = calloc(count ? count : 1, sizeof *tools);
    if (!tools) return 0;
    const size_t n = mh_tools_listed(ctx, skip_session, tools, count);
    uint64_t hash = 1469598103934665603ull; /* FNV-1a over the names */
    for (size_t i = 0; i < n && i < count; i++) /* each name with its NUL: "ab","c" != "a","bc" */
        for (const char *p = tools[i]->name;; p++) {
            hash = (hash ^ (uint8_t)*p) * 1099511628211ull;
            if (!*p) break;
        }
    free(tools);
    return hash ^ n;
}
