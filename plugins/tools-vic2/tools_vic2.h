/* tools_vic2.h - what the files of the tools-vic2 plugin share: the host
 * services looked up at init, the per-call context (arguments, the VIC-II
 * chip interface and its decoded view), result helpers, and one
 * registration function per group of tools.
 *
 * The toolset knows nothing of any machine: it works through
 * "mh.chip.vic2/1" (mcphost/chip_vic2.h), and for pokes through
 * "mh.memory/1" (mcphost/machine.h).
 *
 * Ownership: one tv_plugin per loaded plugin, freed at deinit; a tv_ctx
 * lives for one call. Threads: every tool `requires` the chip, so its
 * handler runs [emu-thread] on the session's thread.
 */
#ifndef TOOLS_VIC2_H
#define TOOLS_VIC2_H

#include <mcphost/args.h>
#include <mcphost/chip_vic2.h>
#include <mcphost/debug.h>
#include <mcphost/json.h>
#include <mcphost/machine.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

#include "vic2_decode.h"

/* The host services (debug NULL on a host without mh.debug/1). */
typedef mh_toolkit_services tv_plugin;

/* One call: parsed arguments, the chip and its view. */
typedef struct tv_ctx {
    tv_plugin *plugin;
    mh_call *call;
    mh_json_doc *doc;
    const mh_json *args;
    const mh_chip_vic2_iface *vic;
    void *chip;
    mh_chip_vic2_view view;
    mh_chip_io_range io; /* where its registers are; size 0: unknown */
    char err[MH_ARGS_ERROR_SIZE];
} tv_ctx;

/* Parses the arguments, resolves the chip and reads its view. Returns 0,
 * or -1 after answering the call with an error. */
int tv_begin(tv_plugin *plugin, mh_call *call, tv_ctx *ctx);
void tv_end(tv_ctx *ctx);
/* Answers with an error (printf-style message; mcphost/toolkit.h). */
#define tv_fail(ctx, ...) mh_toolkit_fail((ctx)->plugin->call, (ctx)->call, __VA_ARGS__)
/* Finishes w (an object) as structured content, with text first when not
 * NULL; frees w. */
void tv_send(tv_ctx *ctx, mh_json_writer *w, const char *text);
/* Another capability of the session (NULL when absent). */
const void *tv_find(tv_ctx *ctx, const char *interface_id, void **context);

/* "key": n, "key_name": "light blue" for a colour. */
void tv_write_color(mh_json_writer *w, const char *key, unsigned color);
/* One sprite as an object. */
void tv_write_sprite(mh_json_writer *w, unsigned n, const mh_chip_vic2_sprite *s);
/* Reads `sprite` (0-7) into *out; required 1 makes it mandatory. Returns 0,
 * or -1 after answering with an error. */
int tv_sprite_arg(tv_ctx *ctx, int required, unsigned *out);

/* Registers a table of tools with requires = "mh.chip.vic2/1". */
#define tv_register_table(plugin, tools, count)                                                  \
    mh_toolkit_register_tools((plugin)->host, (plugin)->registry, (tools), (count),              \
                              MH_CHIP_VIC2_IFACE, (plugin))

mh_status tv_register_registers(tv_plugin *plugin); /* tools_vic2_regs.c */
mh_status tv_register_sprites(tv_plugin *plugin);   /* tools_vic2_sprites.c */
mh_status tv_register_borders(tv_plugin *plugin);   /* tools_vic2_borders.c */
mh_status tv_register_breakpoints(tv_plugin *plugin); /* tools_vic2_breakpoints.c */

#endif
