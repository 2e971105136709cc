/* mcphost/tool.h - what a toolset registers: MCP tools, resources, resource
 * templates and prompts.
 *
 * Offers: the descriptors passed to the registry (registry.h).
 *
 * Ownership: the host copies every string and schema in a descriptor during
 * registration; the plugin need not keep them. Handlers and their user data
 * must stay valid until the plugin's deinit().
 *
 * Threads: a handler of a tool that needs a machine session (a `requires`
 * interface or MH_TOOL_NEEDS_SESSION) runs [emu-thread] on that session's
 * emulation thread between instructions, so chip state is a consistent
 * snapshot and needs no locks. Other handlers run on a host worker thread
 * and must be [thread-safe] with respect to each other.
 */
#ifndef MCPHOST_TOOL_H
#define MCPHOST_TOOL_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/call.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MCP tool annotations (hints for clients, not guarantees). */
enum {
    MH_TOOL_READ_ONLY = 1u << 0,   /* readOnlyHint */
    MH_TOOL_DESTRUCTIVE = 1u << 1, /* destructiveHint */
    MH_TOOL_IDEMPOTENT = 1u << 2,  /* idempotentHint */
    MH_TOOL_OPEN_WORLD = 1u << 3   /* openWorldHint */
};

/* How the host runs a tool. */
enum {
    MH_TOOL_NEEDS_SESSION = 1u << 0,    /* runs on a machine session's thread */
    /* ABI 1.2: the call gets its machine session (call->session), but the
     * handler runs on a host worker thread, so it may block (waiting for a
     * machine to stop) and must only use [thread-safe] session functions,
     * such as mh.debug/1's run/pause/wait. */
    MH_TOOL_SESSION_ON_WORKER = 1u << 1,
    /* Appended (an older host ignores it): a tool that needs no session and
     * answers at once, never blocking (no ask_client, no waiting): the host
     * runs it on the transport's thread instead of handing it to a worker,
     * one thread hand-off less per call. Ignored with the two above. */
    MH_TOOL_QUICK = 1u << 2
};

typedef void (*mh_handler_fn)(void *user_data, mh_call *call);

typedef struct mh_tool_desc {
    uint32_t struct_size;
    const char *name;          /* ^[a-zA-Z0-9_-]{1,64}$ */
    const char *title;         /* human title, may be NULL */
    const char *description;   /* what it does and when to use it */
    const char *input_schema;  /* JSON Schema (an object schema) text; NULL: no arguments */
    const char *output_schema; /* JSON Schema of structuredContent; NULL: none */
    uint32_t annotations;      /* MH_TOOL_READ_ONLY ... */
    uint32_t flags;            /* MH_TOOL_NEEDS_SESSION */
    /* A chip interface id ("mh.chip.vic2/1") the tool works against. The host
     * resolves it per call from the optional `instance` argument and refuses
     * the call with a clear error on a machine that has no such chip. NULL:
     * none. Implies MH_TOOL_NEEDS_SESSION. */
    const char *requires;
    const char *seed_name;     /* the seed's dotted name, for the catalogue; may be NULL */
    mh_handler_fn call;
    void *user_data;
} mh_tool_desc;

/* A resource (fixed URI) or a resource template (RFC 6570 level-1 URI
 * template such as "mcphost://session/{session}/memory/{address}"). */
typedef struct mh_resource_desc {
    uint32_t struct_size;
    const char *uri;         /* a URI, or a template when is_template */
    int is_template;
    const char *name;
    const char *title;       /* may be NULL */
    const char *description; /* may be NULL */
    const char *mime_type;   /* may be NULL */
    /* Reads the resource: args() is {"uri": "...", <template variables>};
     * write contents with text() or blob(). [worker-thread] */
    mh_handler_fn read;
    /* Completes a template variable: args() is {"argument": NAME, "value":
     * PREFIX}; add candidates with completion(). May be NULL. */
    mh_handler_fn complete;
    void *user_data;
} mh_resource_desc;

typedef struct mh_prompt_arg {
    const char *name;
    const char *description;
    int required;
} mh_prompt_arg;

typedef struct mh_prompt_desc {
    uint32_t struct_size;
    const char *name;
    const char *title;       /* may be NULL */
    const char *description;
    const mh_prompt_arg *arguments; /* copied at registration */
    size_t argument_count;
    /* Builds the prompt: args() holds the arguments (required ones checked);
     * add messages with prompt_message(). [worker-thread] */
    mh_handler_fn get;
    /* Completes an argument: args() is {"argument": NAME, "value": PREFIX};
     * add candidates with completion(). May be NULL. */
    mh_handler_fn complete;
    void *user_data;
} mh_prompt_desc;

#ifdef __cplusplus
}
#endif
#endif
