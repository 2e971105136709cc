/* content_plugin.c - the built-in plugin org.mcphost.content: its state and
 * the registration of its resources, templates and prompts. */
#include <stdlib.h>

#include "content.h"
#include "content_internal.h"
#include "loader.h"

static mh_status content_init(const mh_host *host, void **data)
{
    const mh_registry_service *reg = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    mh_plugin_record *rec = mh_plugin_from_host(host);
    content_state *st = calloc(1, sizeof *st);
    *data = st;
    if (!st || !reg || !rec) return MH_ERR_NO_MEMORY;
    st->ctx = rec->hostctx;
    mh_status status = content_docs_register(st, host, reg);
    if (status == MH_OK) status = content_session_register(st, host, reg);
    if (status == MH_OK) status = content_prompts_register(st, host, reg);
    return status;
}

static void content_deinit(void *data);

static mh_status content_init_or_free(const mh_host *host, void **data)
{
    mh_status status = content_init(host, data);
    if (status != MH_OK) { /* the loader does not call deinit after a failed init */
        content_deinit(*data);
        *data = NULL;
    }
    return status;
}

static void content_deinit(void *data)
{
    content_state *st = data;
    if (!st) return;
    content_docs_free(st);
    free(st);
}

const mh_plugin_entry mh_content_entry = {
    sizeof(mh_plugin_entry), MH_ABI_MAJOR, MH_ABI_MINOR, "org.mcphost.content", "content",
    MH_HOST_VERSION, "Host content: documentation resources, session resource templates, prompts",
    MH_PLUGIN_TOOLSET, content_init_or_free, content_deinit,
};
