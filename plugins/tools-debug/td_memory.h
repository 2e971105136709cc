/* td_memory.h - the handlers of memory_search (td_search.c) and
 * memory_compare (td_compare.c), registered by tools_memory.c with the
 * other memory tools. Threads: [emu-thread] (MH_TOOL_NEEDS_SESSION). */
#ifndef TD_MEMORY_H
#define TD_MEMORY_H

#include "tools_debug.h"

void td_memory_search(void *user, mh_call *call);
void td_memory_compare(void *user, mh_call *call);

#endif
