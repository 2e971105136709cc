/* mcphost/mcphost.h - the whole public plugin ABI in one include. */
#ifndef MCPHOST_MCPHOST_H
#define MCPHOST_MCPHOST_H

#include "mcphost/status.h"
#include "mcphost/plugin.h"
#include "mcphost/log.h"
#include "mcphost/call.h"
#include "mcphost/tool.h"
#include "mcphost/session.h"
#include "mcphost/transport.h"
#include "mcphost/registry.h"
#include "mcphost/machine.h"
#include "mcphost/events.h"
#include "mcphost/debug.h"
#include "mcphost/files.h"
#include "mcphost/frontend.h"
#include "mcphost/observe.h"

#endif
