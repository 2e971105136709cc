/* tools_screen.h - what the files of the tools-screen plugin share: the
 * host services (mcphost/toolkit.h) and one registration function per tool
 * group. The toolset knows no machine and no video chip: screen_capture
 * works through "mh.video/1", screen_text through "mh.textscreen/1".
 *
 * Threads: every tool `requires` its capability, so its handler runs
 * [emu-thread] on the session's thread.
 */
#ifndef TOOLS_SCREEN_H
#define TOOLS_SCREEN_H

#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

mh_status tsc_register_capture(mh_toolkit_services *plugin); /* screen_capture.c */
mh_status tsc_register_text(mh_toolkit_services *plugin);    /* screen_text.c */

#endif
