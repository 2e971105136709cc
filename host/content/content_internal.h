/* host/content/content_internal.h - what the files of the content plugin
 * share: its state (owned by the plugin from init to deinit) and the
 * registration function of each part. */
#ifndef MH_HOST_CONTENT_INTERNAL_H
#define MH_HOST_CONTENT_INTERNAL_H

#include <limits.h>

#include "call.h"
#include "hostctx.h"
#include "mcphost/registry.h"
#include "ptrvec.h"

typedef struct content_state {
    mh_hostctx *ctx;
    char docs_dir[PATH_MAX]; /* "" when no documentation was found */
    mh_ptrvec doc_items;     /* content_doc*: user data of the doc resources */
} content_state;

/* content_docs.c: the docs directory and the resources read from it. */
mh_status content_docs_register(content_state *st, const mh_host *host,
                                const mh_registry_service *reg);
void content_docs_free(content_state *st);
/* content_session.c: the session resource templates. */
mh_status content_session_register(content_state *st, const mh_host *host,
                                   const mh_registry_service *reg);
/* Completes a label (an argument named in label_arguments whose value does
 * not start like a number) with the session's symbols: the answer comes
 * from symbols_list (call->forward_tool). session NULL: the current one.
 * Returns 1 when it did. */
int content_complete_label(mh_call *call, const char *argument, const char *value,
                           const char *session);
/* content_prompts.c: the prompts. */
mh_status content_prompts_register(content_state *st, const mh_host *host,
                                   const mh_registry_service *reg);

#endif
