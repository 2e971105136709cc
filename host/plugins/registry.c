#include "registry.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip_names.h"
#include "loader.h"
#include "log.h"

#define MH_MIN_SIZE(type, last_field) (offsetof(type, last_field) + sizeof(((type *)0)->last_field))

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static const char *owner_name(const mh_plugin_record *owner)
{
    return owner && owner->entry && owner->entry->name ? owner->entry->name : "host";
}

int mh_tool_name_valid(const char *name)
{
    size_t n = 0;
    if (!name) return 0;
    for (; name[n]; n++) {
        char c = name[n];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-';
        if (!ok || n >= 64) return 0;
    }
    return n >= 1;
}

/* Adds a string property to an object schema unless the tool defines it. */
static void add_convention_property(cJSON *schema, const char *name, const char *description)
{
    cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
    if (!props) props = cJSON_AddObjectToObject(schema, "properties");
    if (!cJSON_IsObject(props) || cJSON_GetObjectItemCaseSensitive(props, name)) return;
    cJSON *prop = cJSON_AddObjectToObject(props, name);
    cJSON_AddStringToObject(prop, "type", "string");
    cJSON_AddStringToObject(prop, "description", description);
}

static cJSON *parse_object_schema(const char *text, const char *what, const char *tool,
                                  const mh_plugin_record *owner)
{
    cJSON *schema = cJSON_Parse(text);
    if (!cJSON_IsObject(schema)) {
        mh_log(MH_LOG_ERROR, owner_name(owner), "tool %s: %s is not a JSON object", tool, what);
        cJSON_Delete(schema);
        return NULL;
    }
    cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "object") != 0) {
        mh_log(MH_LOG_ERROR, owner_name(owner), "tool %s: %s must have \"type\": \"object\"",
               tool, what);
        cJSON_Delete(schema);
        return NULL;
    }
    return schema;
}

static void free_tool(mh_reg_tool *t)
{
    free(t->name);
    free(t->title);
    free(t->description);
    free(t->requires);
    free(t->seed_name);
    cJSON_Delete(t->input_schema);
    cJSON_Delete(t->output_schema);
    free(t);
}

mh_status mh_registry_add_tool(mh_registry *reg, const mh_plugin_record *owner,
                               const mh_tool_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_tool_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "tool descriptor too small (struct_size %u)",
               desc ? desc->struct_size : 0);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!mh_tool_name_valid(desc->name)) {
        mh_log(MH_LOG_ERROR, who,
               "tool name \"%s\" is invalid: it must match ^[a-zA-Z0-9_-]{1,64}$",
               desc->name ? desc->name : "(null)");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!desc->call || !desc->description || !*desc->description) {
        mh_log(MH_LOG_ERROR, who, "tool %s needs a handler and a description", desc->name);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mh_registry_tool(reg, desc->name)) {
        mh_log(MH_LOG_ERROR, who, "tool %s is already registered by %s", desc->name,
               owner_name(mh_registry_tool(reg, desc->name)->owner));
        return MH_ERR_EXISTS;
    }
    mh_reg_tool *t = calloc(1, sizeof *t);
    if (!t) return MH_ERR_NO_MEMORY;
    t->owner = owner;
    t->input_schema = parse_object_schema(
        desc->input_schema ? desc->input_schema : "{\"type\":\"object\",\"properties\":{}}",
        "input schema", desc->name, owner);
    if (desc->output_schema)
        t->output_schema = parse_object_schema(desc->output_schema, "output schema", desc->name,
                                               owner);
    if (!t->input_schema || (desc->output_schema && !t->output_schema)) {
        free_tool(t);
        return MH_ERR_INVALID_ARGUMENT;
    }
    t->name = strdup(desc->name);
    t->title = dup_or_null(desc->title);
    t->description = strdup(desc->description);
    t->requires = dup_or_null(desc->requires);
    t->seed_name = dup_or_null(desc->seed_name);
    t->annotations = desc->annotations;
    t->flags = desc->flags | (desc->requires ? MH_TOOL_NEEDS_SESSION : 0);
    t->call = desc->call;
    t->user_data = desc->user_data;
    /* The shared argument conventions: every session tool takes `session`,
     * every chip tool takes `instance` (a capability a machine has once,
     * such as mh.machine/1, has no instance to choose). */
    if (t->flags & (MH_TOOL_NEEDS_SESSION | MH_TOOL_SESSION_ON_WORKER))
        add_convention_property(t->input_schema, "session", "Session (default: current)");
    const char *example = NULL;
    if (t->requires && mh_chip_takes_instance(t->requires, &example)) {
        char text[96] = "Chip instance (default: first)";
        if (example) snprintf(text, sizeof text, "Chip, e.g. \"%s\" (default: first)", example);
        add_convention_property(t->input_schema, "instance", text);
    }
    if (!t->name || !t->description || mh_ptrvec_push(&reg->tools, t) != 0) {
        free_tool(t);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static void free_resource(mh_reg_resource *r)
{
    free(r->uri);
    free(r->name);
    free(r->title);
    free(r->description);
    free(r->mime_type);
    free(r);
}

static const mh_reg_resource *find_resource(const mh_registry *reg, const char *uri)
{
    for (size_t i = 0; i < reg->resources.count; i++) {
        const mh_reg_resource *r = reg->resources.items[i];
        if (strcmp(r->uri, uri) == 0) return r;
    }
    return NULL;
}

mh_status mh_registry_add_resource(mh_registry *reg, const mh_plugin_record *owner,
                                   const mh_resource_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_resource_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "resource descriptor too small");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!desc->uri || !*desc->uri || !desc->name || !desc->read) {
        mh_log(MH_LOG_ERROR, who, "resource needs a uri, a name and a read handler");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (find_resource(reg, desc->uri)) {
        mh_log(MH_LOG_ERROR, who, "resource %s is already registered", desc->uri);
        return MH_ERR_EXISTS;
    }
    mh_reg_resource *r = calloc(1, sizeof *r);
    if (!r) return MH_ERR_NO_MEMORY;
    r->owner = owner;
    r->uri = strdup(desc->uri);
    r->name = strdup(desc->name);
    r->title = dup_or_null(desc->title);
    r->description = dup_or_null(desc->description);
    r->mime_type = dup_or_null(desc->mime_type);
    r->is_template = desc->is_template != 0;
    r->read = desc->read;
    r->complete = desc->complete;
    r->user_data = desc->user_data;
    if (!r->uri || !r->name || mh_ptrvec_push(&reg->resources, r) != 0) {
        free_resource(r);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static void free_prompt(mh_reg_prompt *p)
{
    for (size_t i = 0; i < p->argument_count; i++) {
        free((char *)p->arguments[i].name);
        free((char *)p->arguments[i].description);
    }
    free(p->arguments);
    free(p->name);
    free(p->title);
    free(p->description);
    free(p);
}

mh_status mh_registry_add_prompt(mh_registry *reg, const mh_plugin_record *owner,
                                 const mh_prompt_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_prompt_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "prompt descriptor too small");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!desc->name || !*desc->name || !desc->get ||
        (desc->argument_count && !desc->arguments)) {
        mh_log(MH_LOG_ERROR, who, "prompt needs a name and a get handler");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mh_registry_prompt(reg, desc->name)) {
        mh_log(MH_LOG_ERROR, who, "prompt %s is already registered", desc->name);
        return MH_ERR_EXISTS;
    }
    mh_reg_prompt *p = calloc(1, sizeof *p);
    if (!p) return MH_ERR_NO_MEMORY;
    p->owner = owner;
    p->name = strdup(desc->name);
    p->title = dup_or_null(desc->title);
    p->description = dup_or_null(desc->description);
    p->get = desc->get;
    p->complete = desc->complete;
    p->user_data = desc->user_data;
    p->arguments = calloc(desc->argument_count ? desc->argument_count : 1, sizeof *p->arguments);
    int ok = p->name && p->arguments;
    for (size_t i = 0; ok && i < desc->argument_count; i++) {
        if (!desc->arguments[i].name) {
            mh_log(MH_LOG_ERROR, who, "prompt %s: argument %zu has no name", desc->name, i);
            free_prompt(p);
            return MH_ERR_INVALID_ARGUMENT;
        }
        p->arguments[i].name = strdup(desc->arguments[i].name);
        p->arguments[i].description = dup_or_null(desc->arguments[i].description);
        p->arguments[i].required = desc->arguments[i].required;
        p->argument_count = i + 1;
        ok = p->arguments[i].name != NULL;
    }
    if (!ok || mh_ptrvec_push(&reg->prompts, p) != 0) {
        free_prompt(p);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static void free_machine(mh_reg_machine *m)
{
    free(m->name);
    free(m->description);
    free(m);
}

mh_status mh_registry_add_machine(mh_registry *reg, const mh_plugin_record *owner,
                                  const mh_machine_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_machine_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "machine descriptor too small");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!mh_tool_name_valid(desc->name) || !desc->create || !desc->destroy || !desc->run ||
        !desc->clock_hz) {
        mh_log(MH_LOG_ERROR, who,
               "machine needs a name of [a-zA-Z0-9_-] and create, destroy, run and clock_hz");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mh_registry_machine(reg, desc->name)) {
        mh_log(MH_LOG_ERROR, who, "machine %s is already registered", desc->name);
        return MH_ERR_EXISTS;
    }
    mh_reg_machine *m = calloc(1, sizeof *m);
    if (!m) return MH_ERR_NO_MEMORY;
    m->owner = owner;
    m->name = strdup(desc->name);
    m->description = strdup(desc->description ? desc->description : desc->name);
    memcpy(&m->desc, desc, sizeof m->desc);
    m->desc.struct_size = sizeof m->desc;
    m->desc.name = m->name;
    m->desc.description = m->description;
    if (!m->name || !m->description || mh_ptrvec_push(&reg->machines, m) != 0) {
        free_machine(m);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static void free_transport(mh_reg_transport *t)
{
    free(t->name);
    free(t->description);
    free(t);
}

mh_status mh_registry_add_transport(mh_registry *reg, const mh_plugin_record *owner,
                                    const mh_transport_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_transport_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "transport descriptor too small");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!mh_tool_name_valid(desc->name) || !desc->serve || !desc->stop) {
        mh_log(MH_LOG_ERROR, who, "transport needs a name, serve and stop");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mh_registry_transport(reg, desc->name)) {
        mh_log(MH_LOG_ERROR, who, "transport %s is already registered", desc->name);
        return MH_ERR_EXISTS;
    }
    mh_reg_transport *t = calloc(1, sizeof *t);
    if (!t) return MH_ERR_NO_MEMORY;
    t->owner = owner;
    t->name = strdup(desc->name);
    t->description = strdup(desc->description ? desc->description : desc->name);
    memcpy(&t->desc, desc, sizeof t->desc);
    t->desc.struct_size = sizeof t->desc;
    t->desc.name = t->name;
    t->desc.description = t->description;
    if (!t->name || !t->description || mh_ptrvec_push(&reg->transports, t) != 0) {
        free_transport(t);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static void free_frontend(mh_reg_frontend *f)
{
    free(f->name);
    free(f->description);
    free(f);
}

mh_status mh_registry_add_frontend(mh_registry *reg, const mh_plugin_record *owner,
                                   const mh_frontend_desc *desc)
{
    const char *who = owner_name(owner);
    if (!desc || desc->struct_size < MH_MIN_SIZE(mh_frontend_desc, user_data)) {
        mh_log(MH_LOG_ERROR, who, "frontend descriptor too small");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (!mh_tool_name_valid(desc->name) || !desc->run || !desc->stop) {
        mh_log(MH_LOG_ERROR, who, "frontend needs a name, run and stop");
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (mh_registry_frontend(reg, desc->name)) {
        mh_log(MH_LOG_ERROR, who, "frontend %s is already registered", desc->name);
        return MH_ERR_EXISTS;
    }
    mh_reg_frontend *f = calloc(1, sizeof *f);
    if (!f) return MH_ERR_NO_MEMORY;
    f->owner = owner;
    f->name = strdup(desc->name);
    f->description = strdup(desc->description ? desc->description : desc->name);
    /* an older plugin's smaller descriptor: the later fields stay NULL */
    memcpy(&f->desc, desc, desc->struct_size < sizeof f->desc ? desc->struct_size : sizeof f->desc);
    f->desc.struct_size = sizeof f->desc;
    f->desc.name = f->name;
    f->desc.description = f->description;
    if (!f->name || !f->description || mh_ptrvec_push(&reg->frontends, f) != 0) {
        free_frontend(f);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

/* One row per kind of entry: its vector, how to free one, where its owner is. */
typedef struct registry_kind {
    size_t vec_offset;
    void (*free_entry)(void *entry);
} registry_kind;

static void free_tool_v(void *e) { free_tool(e); }
static void free_resource_v(void *e) { free_resource(e); }
static void free_prompt_v(void *e) { free_prompt(e); }
static void free_machine_v(void *e) { free_machine(e); }
static void free_transport_v(void *e) { free_transport(e); }
static void free_frontend_v(void *e) { free_frontend(e); }

static const registry_kind registry_kinds[] = {
    {offsetof(mh_registry, tools), free_tool_v},
    {offsetof(mh_registry, resources), free_resource_v},
    {offsetof(mh_registry, prompts), free_prompt_v},
    {offsetof(mh_registry, machines), free_machine_v},
    {offsetof(mh_registry, transports), free_transport_v},
    {offsetof(mh_registry, frontends), free_frontend_v},
};

/* Every entry struct starts with its owner pointer. */
static const mh_plugin_record *entry_owner(const void *entry)
{
    return *(const mh_plugin_record *const *)entry;
}

size_t mh_registry_remove_owner(mh_registry *reg, const mh_plugin_record *owner)
{
    size_t removed = 0;
    for (size_t k = 0; k < sizeof registry_kinds / sizeof registry_kinds[0]; k++) {
        mh_ptrvec *vec = (mh_ptrvec *)((char *)reg + registry_kinds[k].vec_offset);
        for (size_t i = vec->count; i-- > 0;) {
            if (entry_owner(vec->items[i]) != owner) continue;
            registry_kinds[k].free_entry(vec->items[i]);
            mh_ptrvec_remove_at(vec, i);
            removed++;
        }
    }
    return removed;
}

size_t mh_registry_count_owner(const mh_registry *reg, const mh_plugin_record *owner)
{
    size_t count = 0;
    for (size_t k = 0; k < sizeof registry_kinds / sizeof registry_kinds[0]; k++) {
        const mh_ptrvec *vec = (const mh_ptrvec *)((const char *)reg + registry_kinds[k].vec_offset);
        for (size_t i = 0; i < vec->count; i++) count += entry_owner(vec->items[i]) == owner;
    }
    return count;
}

void mh_registry_free(mh_registry *reg)
{
    for (size_t k = 0; k < sizeof registry_kinds / sizeof registry_kinds[0]; k++) {
        mh_ptrvec *vec = (mh_ptrvec *)((char *)reg + registry_kinds[k].vec_offset);
        for (size_t i = 0; i < vec->count; i++) registry_kinds[k].free_entry(vec->items[i]);
        mh_ptrvec_free(vec);
    }
}

/* Entries whose second field is their name. */
#define FIND_BY_NAME(vec, type, key)                                   \
    for (size_t i = 0; i < (vec).count; i++) {                         \
        const type *e = (vec).items[i];                                \
        if (strcmp(e->name, (key)) == 0) return e;                     \
    }                                                                  \
    return NULL

const mh_reg_tool *mh_registry_tool(const mh_registry *reg, const char *name)
{
    FIND_BY_NAME(reg->tools, mh_reg_tool, name);
}
const mh_reg_prompt *mh_registry_prompt(const mh_registry *reg, const char *name)
{
    FIND_BY_NAME(reg->prompts, mh_reg_prompt, name);
}
const mh_reg_machine *mh_registry_machine(const mh_registry *reg, const char *name)
{
    FIND_BY_NAME(reg->machines, mh_reg_machine, name);
}
const mh_reg_transport *mh_registry_transport(const mh_registry *reg, const char *name)
{
    FIND_BY_NAME(reg->transports, mh_reg_transport, name);
}
const mh_reg_frontend *mh_registry_frontend(const mh_registry *reg, const char *name)
{
    FIND_BY_NAME(reg->frontends, mh_reg_frontend, name);
}

/* Matches an RFC 6570 level-1 template ("a/{x}/b/{y}") against uri; each
 * variable matches one or more characters up to the next literal. */
static int match_template(const char *tpl, const char *uri, cJSON *vars)
{
    while (*tpl) {
        if (*tpl != '{') {
            if (*tpl++ != *uri++) return 0;
            continue;
        }
        const char *close = strchr(tpl, '}');
        if (!close) return 0;
        char name[64];
        size_t name_len = (size_t)(close - tpl - 1);
        if (name_len == 0 || name_len >= sizeof name) return 0;
        memcpy(name, tpl + 1, name_len);
        name[name_len] = '\0';
        tpl = close + 1;
        char stop = *tpl; /* the literal after the variable, or end */
        const char *end = uri;
        while (*end && *end != stop && *end != '/') end++;
        if (end == uri) return 0;
        char *value = strndup(uri, (size_t)(end - uri));
        if (!value) return 0;
        cJSON_AddStringToObject(vars, name, value);
        free(value);
        uri = end;
    }
    return *uri == '\0';
}

const mh_reg_resource *mh_registry_resource_for_uri(const mh_registry *reg, const char *uri,
                                                    cJSON **vars)
{
    *vars = NULL;
    for (size_t i = 0; i < reg->resources.count; i++) {
        const mh_reg_resource *r = reg->resources.items[i];
        if (!r->is_template && strcmp(r->uri, uri) == 0) return r;
    }
    for (size_t i = 0; i < reg->resources.count; i++) {
        const mh_reg_resource *r = reg->resources.items[i];
        if (!r->is_template) continue;
        cJSON *found = cJSON_CreateObject();
        if (found && match_template(r->uri, uri, found)) {
            *vars = found;
            return r;
        }
        cJSON_Delete(found);
    }
    return NULL;
}
