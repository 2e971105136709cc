/* td_code.h - handlers of the code tools that live in their own files,
 * registered by tools_code.c: symbols_load and symbols_list
 * (td_symbols.c), backtrace and cycles_stopwatch (td_backtrace.c).
 * Threads: [emu-thread] (MH_TOOL_NEEDS_SESSION). */
#ifndef TD_CODE_H
#define TD_CODE_H

#include "tools_debug.h"

void td_symbols_load(void *user, mh_call *call);
void td_symbols_list(void *user, mh_call *call);
void td_backtrace(void *user, mh_call *call);
void td_cycles_stopwatch(void *user, mh_call *call);

#endif
