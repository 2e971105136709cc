// Shared set-up for the end-to-end tests: where the mcphost binary and the
// fixture plugins are, and how to start the binary.
//
// The tests are run by CTest (tests/e2e/CMakeLists.txt), which sets
// MCPHOST_BIN and MH_FIXTURE_DIR. To run them by hand:
//   MCPHOST_BIN=build/bin/mcphost MH_FIXTURE_DIR=build/tests/fixtures/plugins \
//     node --test tests/e2e/
import { existsSync, statSync } from 'node:fs';

function requireEnv(name, what) {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: it must name ${what}. CTest sets it (ctest -R e2e in the build ` +
        `directory); by hand run e.g. MCPHOST_BIN=build/bin/mcphost ` +
        `MH_FIXTURE_DIR=build/tests/fixtures/plugins node --test tests/e2e/`
    );
  }
  if (!existsSync(value)) throw new Error(`${name}=${value} does not exist: build it first (${what})`);
  return value;
}

export const MCPHOST_BIN = requireEnv('MCPHOST_BIN', 'the mcphost executable');
export const MH_FIXTURE_DIR = requireEnv('MH_FIXTURE_DIR', 'the directory of the fixture plugins');
if (!statSync(MH_FIXTURE_DIR).isDirectory()) throw new Error(`MH_FIXTURE_DIR=${MH_FIXTURE_DIR} is not a directory`);

/** Command-line arguments that load the fixture plugins, plus extra ones. */
export function hostArgs(...extra) {
  return ['--plugin-dir', MH_FIXTURE_DIR, ...extra];
}

/** The protocol versions mcphost serves, newest first (DESIGN.md section 5). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** MCP tool names must match this (Claude Desktop and the OpenAI API reject others). */
export const TOOL_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

export const CORE_TOOLS = ['ping', 'host_info', 'session_create', 'session_list', 'session_select', 'session_destroy'];
export const FIXTURE_TOOLS = ['fixture_echo', 'fixture_progress', 'fixture_image', 'fixture_fail', 'fixture_counter'];

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a test waits for something that must happen before it calls it a
 * hang. A bound against hangs, not a speed check: speed is measured in
 * bench/, and under ASan with ctest -j2 on a loaded machine a quick answer
 * can take a while. No test asserts a duration below 10 s.
 */
export const HANG_MS = 20000;

/** Settles like promise, or rejects after ms with a message naming what it waited for. */
export function within(ms, what, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * mcphost --transport http --port 0 binds a port the kernel picks and logs
 * "serving MCP (Streamable HTTP) on http://HOST:PORT/mcp"; group 1 is PORT.
 */
export const SERVING_RE = /serving MCP \(Streamable HTTP\) on http:\/\/\S+:(\d+)\/mcp/;
