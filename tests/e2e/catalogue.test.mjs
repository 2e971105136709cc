// End-to-end: the tool catalogue a C64 session lists, as an agent receives
// it from the real mcphost binary over stdio (only the installed plugins,
// no test fixtures). It must stay small (every byte is read by the model on
// every turn): the size of the tools/list answer is printed and held at two
// thirds of what it was before issue 12 trimmed it; every input property
// says what it is; the `instance` example of a chip tool names that tool's
// own chip; capabilities a machine has once take no instance.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { MCPHOST_BIN, within } from './lib/env.mjs';

// tools/list for `mcphost --machine c64` at protocol 2025-11-25, all pages,
// measured before the trim (commit c12dcfc + mh.observe/1, 78 tools): 90547
// bytes of JSON-RPC response lines.
const BASELINE_BYTES = 90547;

function startHost(args) {
  const child = spawn(MCPHOST_BIN, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = new Map();
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    if (waiting.has(message.id)) waiting.get(message.id)(line);
  });
  let nextId = 1;
  return {
    child,
    /** Sends a request; resolves with the raw response line. */
    request(method, params = {}) {
      const id = nextId++;
      const answer = new Promise((resolve) => waiting.set(id, resolve));
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      return within(10000, `the answer to ${method}`, answer);
    },
    notify(method) {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
    },
    async close() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.stdin.end();
      await within(10000, 'mcphost to exit', exited);
    }
  };
}

describe('the tool catalogue of a C64 session', () => {
  let host;
  let tools = [];
  let bytes = 0;
  before(async () => {
    host = startHost(['--machine', 'c64', '--transport', 'stdio']);
    await host.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'catalogue-size', version: '1.0.0' }
    });
    host.notify('notifications/initialized');
    let cursor;
    do {
      const line = await host.request('tools/list', cursor ? { cursor } : {});
      bytes += Buffer.byteLength(line) + 1;
      const { result } = JSON.parse(line);
      tools.push(...result.tools);
      cursor = result.nextCursor;
    } while (cursor);
  });
  after(async () => {
    await host?.close();
  });

  it('tools/list is at most two thirds of its size before the trim', () => {
    const limit = Math.floor((BASELINE_BYTES * 2) / 3);
    console.log(`tools/list for a C64 session: ${bytes} bytes for ${tools.length} tools ` +
      `(baseline ${BASELINE_BYTES}, limit ${limit}, ${((100 * bytes) / BASELINE_BYTES).toFixed(1)}%)`);
    assert.ok(bytes <= limit, `tools/list is ${bytes} bytes; it must stay at or below ${limit}`);
  });

  it('every input property has a description', () => {
    const missing = [];
    const walk = (tool, path, schema) => {
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        if (typeof prop.description !== 'string' || !prop.description) missing.push(`${tool}.${path}${name}`);
        if (prop.properties) walk(tool, `${path}${name}.`, prop);
        if (prop.items?.properties) walk(tool, `${path}${name}[].`, prop.items);
      }
    };
    for (const t of tools) walk(t.name, '', t.inputSchema);
    assert.deepEqual(missing, [], `properties without a description: ${missing.join(' ')}`);
  });

  it('the instance example names the tool\'s own chip; single capabilities take none', () => {
    const example = (name) => tools.find((t) => t.name === name)?.inputSchema.properties.instance?.description;
    assert.match(example('cia_timers_get'), /"cia\d"/);
    assert.match(example('vic2_registers_get'), /"vic2"/);
    assert.match(example('sid_voices_get'), /"sid"/);
    for (const name of ['screen_capture', 'screen_text', 'machine_reset', 'keyboard_type', 'config_list'])
      assert.equal(example(name), undefined, `${name} takes no instance`);
    assert.ok(tools.find((t) => t.name === 'screen_text').inputSchema.properties.session, 'session is added');
  });

  it('one reset tool, and the screen tools instead of the VIC-II ones', () => {
    const names = tools.map((t) => t.name);
    for (const name of ['machine_reset', 'screen_capture', 'screen_text']) assert.ok(names.includes(name), name);
    for (const name of ['execution_reset', 'vic2_screen_capture', 'vic2_screen_text'])
      assert.ok(!names.includes(name), `${name} is gone`);
  });
});
