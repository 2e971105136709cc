/* host/protocol/content_forward.h - resource reads and completions that a
 * tool answers: when a handler set call->forward_tool (host content only),
 * the tool runs through tools/call on the requester's own connection
 * (mh_request_internal(): validation, sessions, chips and observers as for
 * the client's own calls) and its result becomes the answer. Each function
 * answers req exactly once, later, on the thread the tool finishes on.
 * Used by methods_content.c. */
#ifndef MH_HOST_CONTENT_FORWARD_H
#define MH_HOST_CONTENT_FORWARD_H

#include <cjson/cJSON.h>
#include "call.h"
#include "server.h"

/* resources/read of uri: the tool's result as contents of mime_type
 * (application/json: structuredContent; image/...: the image; else text). */
void mh_forward_read(mh_request *req, mh_call *call, const char *mime_type, const char *uri);
/* completion/complete: names from the tool's structuredContent list, those
 * starting with prefix (any case). */
void mh_forward_completion(mh_request *req, mh_call *call, const char *prefix);
/* {"completion": {values, total, hasMore}} from candidate strings (at most
 * 100 values); with a prefix, only those that start with it (any case). */
cJSON *mh_completion_result(const cJSON *candidates, const char *prefix);

#endif
