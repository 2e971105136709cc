// End-to-end: the host's own MCP content (docs/resources.md) through the
// real binary and the official SDK client on a C64 session: the docs,
// memory map, symbol formats and condition language as resources; the
// session templates (screen, memory, registers, disassembly, BASIC,
// breakpoints, keyboard) read through the tools and compared with what the
// tools answer; resources/subscribe with notifications/resources/updated
// after a change (and none after a read or once unsubscribed); the prompts,
// each of whose named tools must be in tools/list; completion of session
// names; and the stateless revision 2026-07-28 (server/discover, per-request
// _meta) over raw stdio.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { spawnHost, INITIALIZE } from './lib/raw.mjs';
import { sleep } from './lib/env.mjs';
import { startHost as startHttpHost, post, connect as connectHttp } from './lib/http.mjs';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs');
const QUIET_MS = 600; // how long "no notification" is watched for

async function rejectsWithCode(promise, code) {
  let error;
  await assert.rejects(promise, (e) => {
    error = e;
    return e.code === code;
  });
  return error;
}

describe('host content on a C64 session', () => {
  let host, session;
  const { call, ok } = toolCallers(() => host);
  const updates = [];

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64'] });
    host.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
    const list = await ok('session_list');
    session = list.structuredContent.sessions.find((s) => s.current).name;
    await ok('execution_run_until', { frames: 50 }); // to READY: BASIC's pointers set up
  });
  after(async () => host?.close());

  const uri = (tail) => `mcphost://session/${session}/${tail}`;
  const read = async (u) => (await host.client.readResource({ uri: u })).contents;
  /** Waits until an update for u arrived after index from (or fails). */
  const updateFor = async (u, from, ms = 5000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (updates.slice(from).includes(u)) return;
      await sleep(20);
    }
    assert.fail(`no notifications/resources/updated for ${u}; got ${JSON.stringify(updates.slice(from))}`);
  };

  it('lists the docs, the memory map, the symbol formats and the condition language', async () => {
    const { resources } = await host.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const u of ['mcphost://docs/tools', 'mcphost://docs/expressions', 'mcphost://machine/c64/memory-map',
      'mcphost://reference/symbol-formats', 'mcphost://reference/expressions'])
      assert.ok(uris.includes(u), `${u} is listed: ${JSON.stringify(uris)}`);
    assert.ok(resources.every((r) => r.mimeType === 'text/markdown' || !r.uri.startsWith('mcphost://docs/')));
  });

  it('reads a doc as the installed file says, and a section of one', async () => {
    const [doc] = await read('mcphost://docs/expressions');
    assert.equal(doc.text, readFileSync(join(DOCS, 'expressions.md'), 'utf8'));
    assert.equal(doc.mimeType, 'text/markdown');
    const [map] = await read('mcphost://machine/c64/memory-map');
    assert.match(map.text, /^## Memory map/);
    assert.ok(readFileSync(join(DOCS, 'machine-c64.md'), 'utf8').includes(map.text.trimEnd()),
      'the memory map is a section of docs/machine-c64.md');
    assert.ok(!/\n## (?!#)/.test(map.text.slice(3)), 'the section ends at the next heading of its level');
    const [symbols] = await read('mcphost://reference/symbol-formats');
    assert.match(symbols.text, /^## Symbol files/);
  });

  it('lists the session templates', async () => {
    const { resourceTemplates } = await host.client.listResourceTemplates();
    const listed = resourceTemplates.map((t) => t.uriTemplate);
    for (const tail of ['screen.png', 'memory/{start}-{end}', 'registers', 'disassembly/{address}', 'basic',
      'breakpoints', 'keyboard'])
      assert.ok(listed.includes(`mcphost://session/{session}/${tail}`), `${tail}: ${JSON.stringify(listed)}`);
  });

  it('reads registers, memory and disassembly as the tools answer them', async () => {
    await ok('memory_write', { address: '$C000', bytes: 'A9 01 8D 20 D0 60' });
    const [regs] = await read(uri('registers'));
    assert.equal(regs.mimeType, 'application/json');
    const tool = await ok('registers_get');
    assert.deepEqual(JSON.parse(regs.text), tool.structuredContent);
    const [mem] = await read(uri('memory/$C000-$C005'));
    assert.match(mem.text, /C000 {2}A9 01 8D 20 D0 60/);
    assert.equal(mem.text, resultText(await ok('memory_read', { address: '$C000', end: '$C005' })));
    const [dis] = await read(uri('disassembly/$C000'));
    assert.match(dis.text, /LDA #\$01/);
    assert.match(dis.text, /STA \$D020/);
  });

  it('reads the screen as a PNG and the BASIC listing', async () => {
    const [screen] = await read(uri('screen.png'));
    assert.equal(screen.mimeType, 'image/png');
    assert.deepEqual([...Buffer.from(screen.blob, 'base64').subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    const [basic] = await read(uri('basic'));
    assert.equal(basic.text, resultText(await ok('basic_list')));
  });

  it('reads the breakpoints and the keyboard names', async () => {
    await ok('breakpoints_set', { address: '$C000' });
    const [bps] = await read(uri('breakpoints'));
    assert.ok(bps.text.includes('49152'), `the breakpoint at $C000 is there: ${bps.text}`);
    const [keys] = await read(uri('keyboard'));
    const names = keys.text.split('\n').filter(Boolean);
    for (const k of ['RETURN', 'SPACE', 'A', 'F1']) assert.ok(names.includes(k), `${k} in ${names}`);
    await ok('keyboard_press', { key: names[names.length - 1] });
    await ok('breakpoints_delete', { all: true });
  });

  it('a missing session or a bad address is an error naming it', async () => {
    const missing = await rejectsWithCode(host.client.readResource({ uri: 'mcphost://session/nope/registers' }), -32002);
    assert.match(missing.message, /nope/);
    const bad = await rejectsWithCode(host.client.readResource({ uri: uri('memory/$ZZZZ-$C000') }), -32603);
    assert.match(bad.message, /address/);
  });

  it('hostile URIs: huge, malformed or of a vanished session, answered briefly', async () => {
    const huge = await rejectsWithCode(
      host.client.readResource({ uri: `mcphost://session/${'x'.repeat(100000)}/registers` }), -32002);
    assert.ok(huge.message.length < 1000, `the message is cut: ${huge.message.length}`);
    await rejectsWithCode(host.client.readResource({ uri: 'mcphost://session//registers' }), -32002);
    await rejectsWithCode(host.client.readResource({ uri: 'mcphost://session/{session}/registers' }), -32002);
    await rejectsWithCode(host.client.readResource({ uri: uri('memory/$C000') }), -32002);
    const doubled = await rejectsWithCode(host.client.readResource({ uri: uri('memory/1-2-3') }), -32603);
    assert.match(doubled.message, /end/);
    await rejectsWithCode(host.client.subscribeResource({ uri: 'mcphost://docs/../../etc/passwd' }), -32002);
    const big = await host.client.subscribeResource({ uri: `mcphost://session/${'y'.repeat(5000)}/screen.png` });
    assert.deepEqual(big, {}, 'a subscription to a session that does not exist yet is kept');
    await host.client.unsubscribeResource({ uri: `mcphost://session/${'y'.repeat(5000)}/screen.png` });
  });

  it('resources/subscribe: an update arrives after a change, none after a read or once unsubscribed', async () => {
    const mem = uri('memory/$C000-$C00F');
    await host.client.subscribeResource({ uri: mem });
    await host.client.subscribeResource({ uri: uri('registers') });
    await host.client.subscribeResource({ uri: uri('screen.png') });
    let from = updates.length;
    await read(uri('screen.png'));
    await read(mem);
    await sleep(QUIET_MS);
    assert.deepEqual(updates.slice(from), [], 'reading is no change');
    from = updates.length;
    await ok('memory_write', { address: '$C000', bytes: [0xea] });
    await updateFor(mem, from);
    from = updates.length;
    await ok('execution_step', { count: 1 });
    await updateFor(uri('registers'), from);
    await host.client.unsubscribeResource({ uri: mem });
    await host.client.unsubscribeResource({ uri: uri('registers') });
    await host.client.unsubscribeResource({ uri: uri('screen.png') });
    from = updates.length;
    await ok('memory_write', { address: '$C000', bytes: [0xa9] });
    await sleep(QUIET_MS);
    assert.deepEqual(updates.slice(from), [], 'no updates once unsubscribed');
  });

  it('while the machine runs, the screen is reported at most once a second', async () => {
    const screen = uri('screen.png');
    await host.client.subscribeResource({ uri: screen });
    await host.client.subscribeResource({ uri: uri('breakpoints') });
    const from = updates.length;
    await ok('execution_run');
    await sleep(2600);
    await ok('execution_pause');
    const during = updates.slice(from);
    await host.client.unsubscribeResource({ uri: screen });
    await host.client.unsubscribeResource({ uri: uri('breakpoints') });
    const screens = during.filter((u) => u === screen).length;
    // frames at 1/s for ~2.6 s, plus the stop of execution_pause
    assert.ok(screens >= 2 && screens <= 5, `screen updates while running: ${JSON.stringify(during)}`);
    // breakpoints follow no frames: only the tool calls and the stop (run, pause, stopped)
    const bps = during.filter((u) => u === uri('breakpoints')).length;
    assert.ok(bps >= 1 && bps <= 3, `breakpoints updates: ${JSON.stringify(during)}`);
  });

  it('completes the session of a template', async () => {
    const { completion } = await host.client.complete({
      ref: { type: 'ref/resource', uri: 'mcphost://session/{session}/registers' },
      argument: { name: 'session', value: session.slice(0, 2) }
    });
    assert.ok(completion.values.includes(session), JSON.stringify(completion));
    const none = await host.client.complete({
      ref: { type: 'ref/resource', uri: 'mcphost://session/{session}/registers' },
      argument: { name: 'session', value: 'zz' }
    });
    assert.deepEqual(none.completion.values, []);
  });

  it('completes labels for address arguments of prompts and templates', async () => {
    await ok('assemble', { address: '$C100', source: 'irq_handler: nop\nirq_exit: rts\nmy_irq: nop', keep_labels: true });
    const prompt = await host.client.complete({
      ref: { type: 'ref/prompt', name: 'explain_routine' },
      argument: { name: 'routine', value: 'IRQ_' }
    });
    assert.deepEqual(prompt.completion.values.sort(), ['irq_exit', 'irq_handler']);
    const template = await host.client.complete({
      ref: { type: 'ref/resource', uri: 'mcphost://session/{session}/disassembly/{address}' },
      argument: { name: 'address', value: 'my' },
      context: { arguments: { session } }
    });
    assert.deepEqual(template.completion.values, ['my_irq']);
    const typed = await host.client.complete({
      ref: { type: 'ref/prompt', name: 'explain_routine' },
      argument: { name: 'routine', value: '$C1' }
    });
    assert.deepEqual(typed.completion.values, [], 'an address being typed is not a label');
  });

  const PROMPTS = {
    debug_crash: { program: '/tmp/game.prg' },
    find_memory_corruption: { address: '$0801' },
    raster_flicker: {},
    profile_routine: { routine: '$C000' },
    explain_routine: { routine: 'irq_handler' },
    write_and_test_routine: { task: 'multiply two 8-bit numbers' }
  };

  it('lists the prompts with their arguments', async () => {
    const { prompts } = await host.client.listPrompts();
    for (const name of Object.keys(PROMPTS)) {
      const p = prompts.find((x) => x.name === name);
      assert.ok(p, `${name} is listed`);
      assert.ok(p.description && p.arguments.every((a) => a.description), `${name} describes itself`);
      for (const arg of Object.keys(PROMPTS[name]))
        assert.ok(p.arguments.some((a) => a.name === arg && a.required), `${name} requires ${arg}`);
    }
  });

  it('every tool a prompt names is in tools/list, and its arguments are filled in', async () => {
    const tools = new Set();
    let cursor;
    do {
      const page = await host.client.listTools(cursor ? { cursor } : {});
      page.tools.forEach((t) => tools.add(t.name));
      cursor = page.nextCursor;
    } while (cursor);
    for (const [name, args] of Object.entries(PROMPTS)) {
      const got = await host.client.getPrompt({ name, arguments: args });
      assert.equal(got.messages[0].role, 'user');
      const text = got.messages[0].content.text;
      const named = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      assert.ok(named.length >= 4, `${name} names tools: ${named}`);
      for (const tool of named) assert.ok(tools.has(tool), `${name} names \`${tool}\`, which tools/list lacks`);
      for (const value of Object.values(args)) assert.ok(text.includes(value), `${name} carries ${value}`);
      assert.ok(!/\{[a-z_]+\}/.test(text), `${name} has no unfilled {argument}: ${text}`);
    }
    await rejectsWithCode(host.client.getPrompt({ name: 'debug_crash', arguments: {} }), -32602);
  });
});

describe('the stateless revision 2026-07-28 (raw stdio)', () => {
  let host;
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  let id = 100;
  const req = (method, params = {}, meta = META) =>
    host.request({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: meta } });

  before(() => {
    host = spawnHost(['--machine', 'c64']);
  });
  after(async () => host?.close());

  it('server/discover names the versions, capabilities and server', async () => {
    const res = await req('server/discover');
    assert.equal(res.result.resultType, 'complete');
    assert.deepEqual(res.result.supportedVersions, ['2026-07-28']);
    assert.equal(res.result.serverInfo.name, 'mcphost');
    assert.ok(res.result.capabilities.tools && res.result.capabilities.resources && res.result.capabilities.prompts);
    assert.equal(res.result.capabilities.logging, undefined, 'logging is not part of the revision');
  });

  it('serves requests without initialize, each in its own version', async () => {
    const tools = await req('tools/list');
    assert.equal(tools.result.resultType, 'complete');
    assert.ok(tools.result.tools.some((t) => t.name === 'registers_get'));
    const read = await req('resources/read', { uri: 'mcphost://machine/c64/memory-map' });
    assert.match(read.result.contents[0].text, /^## Memory map/);
    // 2026-07-28 reports a missing resource as invalid params
    const missing = await req('resources/read', { uri: 'mcphost://nothing' });
    assert.equal(missing.error.code, -32602);
    const called = await req('tools/call', { name: 'registers_get', arguments: {} });
    assert.equal(called.result.isError, false);
    assert.equal(called.result.resultType, 'complete');
    // A request without the _meta is of the initialize era: not initialized.
    const legacy = await host.request({ jsonrpc: '2.0', id: id++, method: 'tools/list' });
    assert.equal(legacy.error.code, -32600);
  });

  it('refuses an unknown version with the versions it serves', async () => {
    const res = await req('tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
    assert.equal(res.error.code, -32022);
    assert.equal(res.error.data.requested, '2099-01-01');
    assert.ok(res.error.data.supported.includes('2026-07-28') && res.error.data.supported.includes('2025-11-25'));
  });

  it('refuses missing client capabilities and what the revision removed', async () => {
    const res = await req('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    assert.equal(res.error.code, -32602);
    assert.match(res.error.message, /clientCapabilities/);
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
      const removed = await req(method, { level: 'info', uri: 'mcphost://docs/tools' });
      assert.equal(removed.error.code, -32601, method);
    }
  });

  it('initialize asking for 2026-07-28 gets the newest initialize-era version', async () => {
    const res = await host.request(INITIALIZE(id++, '2026-07-28'));
    assert.equal(res.result.protocolVersion, '2025-11-25');
    assert.equal(res.result.capabilities.resources.subscribe, true);
  });
});

describe('the stateless revision 2026-07-28 over Streamable HTTP', () => {
  let host;
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const HEADERS = { 'mcp-protocol-version': '2026-07-28' };

  before(async () => {
    host = await startHttpHost({ args: ['--machine', 'c64'] });
  });
  after(async () => host?.stop());

  it('answers server/discover and a tool call without initialize or Mcp-Session-Id', async () => {
    const discover = await post(host.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
      { headers: HEADERS });
    assert.equal(discover.status, 200, discover.text);
    assert.equal(discover.headers.get('mcp-session-id'), null, 'no session is made');
    assert.deepEqual(discover.json.result.supportedVersions, ['2026-07-28']);
    const called = await post(host.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'registers_get', arguments: {}, _meta: META } },
      { headers: HEADERS });
    assert.equal(called.status, 200, called.text);
    assert.equal(called.json.result.resultType, 'complete');
    assert.equal(called.json.result.isError, false);
    const read = await post(host.url,
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'mcphost://docs/tools', _meta: META } },
      { headers: HEADERS });
    assert.match(read.json.result.contents[0].text, /^# Tool catalogue/);
  });

  it('an unknown version is HTTP 400 with -32022', async () => {
    const res = await post(host.url, { jsonrpc: '2.0', id: 5, method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, -32022);
  });

  it('an initialize-era session gets notifications/resources/updated on its GET stream', async () => {
    const agent = await connectHttp(host.url);
    try {
      const seen = [];
      agent.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => seen.push(n.params.uri));
      const list = await agent.client.callTool({ name: 'session_list', arguments: {} });
      const name = list.structuredContent.sessions.find((x) => x.current).name;
      const regs = `mcphost://session/${name}/registers`;
      await agent.client.subscribeResource({ uri: regs });
      await sleep(200); // the SDK opens its GET stream after initialize
      await agent.client.callTool({ name: 'execution_step', arguments: { count: 1 } });
      const end = Date.now() + 5000;
      while (!seen.includes(regs) && Date.now() < end) await sleep(20);
      assert.ok(seen.includes(regs), `an update for ${regs}: ${JSON.stringify(seen)}`);
      const [read] = (await agent.client.readResource({ uri: regs })).contents;
      assert.equal(JSON.parse(read.text).pc_hex.length, 5);
    } finally {
      await agent.close();
    }
  });

  it('a request of the initialize era still needs its session', async () => {
    const res = await post(host.url, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    assert.equal(res.status, 400);
  });
});
