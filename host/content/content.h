/* host/content/content.h - the host's built-in MCP content, registered like
 * a toolset plugin with id org.mcphost.content after every plugin loaded
 * (so it sees every machine type):
 *   - resources: the documentation (the .md files of docs/, found beside the installed
 *     binary or in the source tree), each machine's memory map, the symbol
 *     file formats (content_docs.c);
 *   - resource templates of a machine session: screen, memory, registers,
 *     disassembly, BASIC listing, breakpoints, keyboard names, read through
 *     the same tools an agent calls (content_session.c);
 *   - prompts: guided debugging workflows that name this server's tools
 *     (content_prompts.c).
 * docs/resources.md describes them. Thread: handlers run on the transport
 * thread of the request; they only read files and immutable tables. */
#ifndef MH_HOST_CONTENT_H
#define MH_HOST_CONTENT_H

#include "mcphost/plugin.h"

extern const mh_plugin_entry mh_content_entry;

#endif
