/* host/plugins/registry.h - everything plugins registered: tools, resources,
 * prompts, machine types, transports and frontends, each recorded with the plugin that
 * owns it so a failed or unloaded plugin can be removed completely.
 *
 * Entries own copies of every string and a parsed copy of every schema.
 * Thread: registration and removal happen on the main thread before serving
 * starts (or after it ends); lookups are read-only while serving and need no
 * lock. */
#ifndef MH_HOST_REGISTRY_H
#define MH_HOST_REGISTRY_H

#include <cjson/cJSON.h>
#include "mcphost/registry.h"
#include "ptrvec.h"

struct mh_plugin_record;

typedef struct mh_reg_tool {
    const struct mh_plugin_record *owner;
    char *name, *title, *description, *requires, *seed_name;
    cJSON *input_schema;  /* always an object schema */
    cJSON *output_schema; /* NULL when none */
    uint32_t annotations, flags;
    mh_handler_fn call;
    void *user_data;
} mh_reg_tool;

typedef struct mh_reg_resource {
    const struct mh_plugin_record *owner;
    char *uri, *name, *title, *description, *mime_type;
    int is_template;
    mh_handler_fn read, complete;
    void *user_data;
} mh_reg_resource;

typedef struct mh_reg_prompt {
    const struct mh_plugin_record *owner;
    char *name, *title, *description;
    mh_prompt_arg *arguments; /* names and descriptions owned */
    size_t argument_count;
    mh_handler_fn get, complete;
    void *user_data;
} mh_reg_prompt;

typedef struct mh_reg_machine {
    const struct mh_plugin_record *owner;
    char *name, *description;
    mh_machine_desc desc; /* copy; strings point at name/description above */
} mh_reg_machine;

typedef struct mh_reg_transport {
    const struct mh_plugin_record *owner;
    char *name, *description;
    mh_transport_desc desc;
} mh_reg_transport;

typedef struct mh_reg_frontend {
    const struct mh_plugin_record *owner;
    char *name, *description;
    mh_frontend_desc desc;
} mh_reg_frontend;

typedef struct mh_registry {
    mh_ptrvec tools, resources, prompts, machines, transports, frontends;
} mh_registry;

/* Each add validates and copies the descriptor; errors are logged with the
 * owner's name and what is wrong. */
mh_status mh_registry_add_tool(mh_registry *reg, const struct mh_plugin_record *owner,
                               const mh_tool_desc *desc);
mh_status mh_registry_add_resource(mh_registry *reg, const struct mh_plugin_record *owner,
                                   const mh_resource_desc *desc);
mh_status mh_registry_add_prompt(mh_registry *reg, const struct mh_plugin_record *owner,
                                 const mh_prompt_desc *desc);
mh_status mh_registry_add_machine(mh_registry *reg, const struct mh_plugin_record *owner,
                                  const mh_machine_desc *desc);
mh_status mh_registry_add_transport(mh_registry *reg, const struct mh_plugin_record *owner,
                                    const mh_transport_desc *desc);

mh_status mh_registry_add_frontend(mh_registry *reg, const struct mh_plugin_record *owner,
                                   const mh_frontend_desc *desc);

/* Removes and frees everything owner registered. Returns how many entries. */
size_t mh_registry_remove_owner(mh_registry *reg, const struct mh_plugin_record *owner);
/* How many entries owner has registered. */
size_t mh_registry_count_owner(const mh_registry *reg, const struct mh_plugin_record *owner);
void mh_registry_free(mh_registry *reg);

const mh_reg_tool *mh_registry_tool(const mh_registry *reg, const char *name);
const mh_reg_prompt *mh_registry_prompt(const mh_registry *reg, const char *name);
const mh_reg_machine *mh_registry_machine(const mh_registry *reg, const char *name);
const mh_reg_transport *mh_registry_transport(const mh_registry *reg, const char *name);
const mh_reg_frontend *mh_registry_frontend(const mh_registry *reg, const char *name);
/* The resource whose URI equals uri, or the template matching it; vars
 * receives the template's variables (caller deletes) when one matched. */
const mh_reg_resource *mh_registry_resource_for_uri(const mh_registry *reg, const char *uri,
                                                    cJSON **vars);

/* Tool names: ^[a-zA-Z0-9_-]{1,64}$ */
int mh_tool_name_valid(const char *name);

#endif
