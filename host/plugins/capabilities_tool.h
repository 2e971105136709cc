/* host/plugins/capabilities_tool.h - machine_capabilities, a host core tool
 * (capabilities_tool.c): what loaded for a session (CPU, chips, memory
 * spaces, video, media) and which toolsets and tools work on it, with the
 * reason for those that do not. It needs the host registry, so it lives in
 * the host and is one row of core_tools.c's table (MH_CAPABILITIES_TOOL).
 * Thread: the handler runs [emu-thread] on the session's thread. */
#ifndef MH_HOST_CAPABILITIES_TOOL_H
#define MH_HOST_CAPABILITIES_TOOL_H

#include "mcphost/tool.h"

void mh_tool_machine_capabilities(void *user, mh_call *call);
extern const char mh_capabilities_output_schema[];

#define MH_CAPABILITIES_TOOL                                                                 \
    {sizeof(mh_tool_desc), "machine_capabilities", "Machine capabilities",                   \
     "What works on this session: CPU, chips with instance names, memory spaces, video, "     \
     "media, and each toolset and tool with the reason when it does not.",                 \
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",            \
     mh_capabilities_output_schema,                                                          \
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,                    \
     "vice.machine.capabilities", mh_tool_machine_capabilities, NULL}

#endif
