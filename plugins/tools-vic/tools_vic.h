/* tools_vic.h - what the files of the tools-vic plugin share: the per-call
 * context (arguments, the VIC chip interface, its io_range and decoded
 * view), result helpers and the tool groups.
 *
 * The toolset works through "mh.chip.vic/1" (mcphost/chip_vic.h) and the
 * host's debug engine (mh.debug/1) only.
 *
 * Ownership: the plugin data is an mh_toolkit_services, freed at deinit;
 * a tvic_ctx lives for one call. Threads: every tool `requires` the chip,
 * so its handler runs [emu-thread] on the session's thread.
 */
#ifndef TOOLS_VIC_H
#define TOOLS_VIC_H

#include <mcphost/args.h>
#include <mcphost/chip_vic.h>
#include <mcphost/json.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

#include "vic_decode.h"

typedef struct tvic_ctx {
    mh_toolkit_services *services;
    mh_call *call;
    mh_json_doc *doc;
    const mh_json *args;
    const mh_chip_vic_iface *vic;
    void *chip;
    const char *instance;
    mh_chip_io_range io;
    mh_chip_vic_view view;
    char err[MH_ARGS_ERROR_SIZE];
} tvic_ctx;

/* Parses the arguments, resolves the chip and reads its view. Returns 0,
 * or -1 after answering the call with an error. tvic_end() either way. */
int tvic_begin(mh_toolkit_services *services, mh_call *call, tvic_ctx *ctx);
void tvic_end(tvic_ctx *ctx);
#define tvic_fail(ctx, ...) mh_toolkit_fail((ctx)->services->call, (ctx)->call, __VA_ARGS__)
/* Answers with w as structured content (text first when not NULL); frees w. */
void tvic_send(tvic_ctx *ctx, mh_json_writer *w, const char *text);

mh_status tvic_register_raster(mh_toolkit_services *services); /* tools_vic_raster.c */

#endif
