/* tools_debug.h - what the files of the tools-debug plugin share: the host
 * services looked up once at init, and one registration function per group
 * of tools (each file registers its own tools from a table).
 *
 * Ownership: one td_plugin per loaded plugin, freed at deinit; nothing is
 * global. Threads: handlers run as their tool's flags say (tool.h).
 */
#ifndef TOOLS_DEBUG_H
#define TOOLS_DEBUG_H

#include <pthread.h>

#include <mcphost/debug.h>
#include <mcphost/machine.h>
#include <mcphost/mcphost.h>

typedef struct td_plugin {
    const mh_host *host;
    const mh_registry_service *registry;
    const mh_call_service *call;
    const mh_session_service *sessions;
    const mh_debug_service *debug; /* NULL on a host without mh.debug/1 */
    struct td_store *store; /* symbols and memory snapshots per session (td_store.c) */
    uint64_t annotator;     /* mh.debug/1 stop annotator id (td_where_stop_members), or 0 */
    /* One source line lookup at a time (td_source.c): a stop's event and
     * its answer ask at once, and the second must find what the first read. */
    pthread_mutex_t source_lock;
} td_plugin;

/* Registers one group's tools; returns the first failure. */
typedef mh_status (*td_register_fn)(td_plugin *plugin);

mh_status td_register_execution(td_plugin *plugin);   /* tools_execution.c */
mh_status td_register_breakpoints(td_plugin *plugin); /* tools_breakpoints.c */
mh_status td_register_registers(td_plugin *plugin);   /* tools_registers.c */
mh_status td_register_memory(td_plugin *plugin);      /* tools_memory.c */
mh_status td_register_code(td_plugin *plugin);        /* tools_code.c */
mh_status td_register_history(td_plugin *plugin);     /* tools_history.c */
mh_status td_register_trace(td_plugin *plugin);       /* tools_trace.c */
mh_status td_register_profile(td_plugin *plugin);     /* tools_profile.c */
mh_status td_register_cfg(td_plugin *plugin);         /* tools_cfg.c */
mh_status td_register_usage(td_plugin *plugin);       /* tools_usage.c */
mh_status td_register_travel(td_plugin *plugin);      /* tools_travel.c */

/* A row of the execution and breakpoint tables: registered by
 * td_register_tools() (td_util.c) with user_data = plugin and the same
 * output schema (may be NULL) for every row. */
typedef struct td_tool {
    const char *name, *seed, *title, *description, *schema;
    uint32_t annotations, flags;
    mh_handler_fn fn;
} td_tool;
mh_status td_register_tools(td_plugin *plugin, const td_tool *tools, size_t count,
                            const char *output_schema);

/* Frees plugin->store (NULL is fine); at deinit and after a failed init. */
void td_store_free(struct td_store *store); /* td_store.c */

/* Calls a mh.debug/1 *_json function (state_json, bp_list_json) with a
 * buffer big enough for what it writes; malloc'ed, NULL when out of memory
 * (td_util.c). */
char *td_fetch_json(size_t (*fn)(mh_session *, char *, size_t), mh_session *session);

/* Answers call with json (an object text) as structured content and, as
 * text, summary, a blank line and the facts of json (mh_toolkit_facts_text),
 * so a client that shows only text misses nothing (td_util.c). */
void td_send_with_facts(td_plugin *plugin, mh_call *call, const char *summary, const char *json);

#endif
