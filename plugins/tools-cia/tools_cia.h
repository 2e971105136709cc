/* tools_cia.h - what the files of the tools-cia plugin share: the host
 * services, the per-call context (arguments, the CIA chip interface, its
 * instance name and decoded view), result helpers and the tool groups.
 *
 * The toolset works through "mh.chip.cia/1" (mcphost/chip_cia.h) only.
 *
 * Ownership: one tc_plugin per loaded plugin, freed at deinit; a tc_ctx
 * lives for one call. Threads: every tool `requires` the chip, so its
 * handler runs [emu-thread] on the session's thread.
 */
#ifndef TOOLS_CIA_H
#define TOOLS_CIA_H

#include <mcphost/args.h>
#include <mcphost/chip_cia.h>
#include <mcphost/json.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

#include "cia_decode.h"

/* The host services (only registry and call are used). */
typedef mh_toolkit_services tc_plugin;

typedef struct tc_ctx {
    tc_plugin *plugin;
    mh_call *call;
    mh_json_doc *doc;
    const mh_json *args;
    const mh_chip_cia_iface *cia;
    void *chip;
    const char *instance; /* "cia1" */
    mh_chip_io_range io;  /* where its registers are; size 0: unknown */
    mh_chip_cia_view view;
    char err[MH_ARGS_ERROR_SIZE];
} tc_ctx;

/* Parses the arguments, resolves the chip and reads its view. Returns 0,
 * or -1 after answering the call with an error. */
int tc_begin(tc_plugin *plugin, mh_call *call, tc_ctx *ctx);
void tc_end(tc_ctx *ctx);
/* An error result, printf-style (mcphost/toolkit.h). */
#define tc_fail(ctx, ...) mh_toolkit_fail((ctx)->plugin->call, (ctx)->call, __VA_ARGS__)
/* Finishes w as structured content, text first when not NULL; frees w. */
void tc_send(tc_ctx *ctx, mh_json_writer *w, const char *text);
/* The other CIA of the session whose registers are at address, or NULL. */
const char *tc_other_cia_at(tc_ctx *ctx, uint32_t address);
void tc_write_timer(mh_json_writer *w, const char *key, const mh_chip_cia_timer *t);
void tc_write_tod(mh_json_writer *w, const mh_chip_cia_view *v);

mh_status tc_register_registers(tc_plugin *plugin); /* tools_cia_regs.c */
mh_status tc_register_keyboard(tc_plugin *plugin);  /* tools_cia_keyboard.c */

#endif
