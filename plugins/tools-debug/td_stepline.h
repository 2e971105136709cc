/* td_stepline.h - execution_step with unit "line": runs to the next
 * address that starts a different source line of the session's line
 * table (td_lines.h). Code without lines (a JSR into the KERNAL, an
 * interrupt) is left with a step out, so stepping comes back in lined
 * code; at most TD_STEPLINE_MAX_STEPS steps and timeout_ms in all, so it
 * cannot hang. A breakpoint, jam or exit on the way ends it there.
 * Threads: [worker-thread], from a MH_TOOL_SESSION_ON_WORKER handler.
 */
#ifndef TD_STEPLINE_H
#define TD_STEPLINE_H

#include <stdint.h>

#include "tools_debug.h"

#define TD_STEPLINE_MAX_STEPS 100000

/* Steps (over JSRs when over is 1); writes the result or an error. The
 * report function writes the session's state with a note (tools_execution.c). */
void td_step_line(td_plugin *plugin, mh_call *call, int over, int64_t timeout_ms,
                  void (*report)(td_plugin *, mh_call *, mh_session *, const char *note));

#endif
