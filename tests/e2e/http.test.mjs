// End-to-end: the real mcphost binary over Streamable HTTP (transport-http),
// driven by the official MCP TypeScript SDK client
// (StreamableHTTPClientTransport) through the same agent session as
// stdio.test.mjs, plus what only HTTP has: several clients with their own
// MCP sessions, the GET notification stream, resumption with Last-Event-ID,
// and hostile input sent with raw HTTP requests.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { ErrorCode, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resultText } from './lib/client.mjs';
import { MCPHOST_BIN, CORE_TOOLS, FIXTURE_TOOLS, HANG_MS, TOOL_NAME_RE, hostArgs, sleep, within } from './lib/env.mjs';
import {
  INIT,
  JSON_HEADERS,
  startHost,
  connect,
  post,
  rawSession,
  parseSse,
  openStream,
  sseReader,
  rawRequest,
  rejectsWithCode
} from './lib/http.mjs';

describe('http, an agent session through the SDK client (--machine fixture)', () => {
  let host;
  let agent;
  const logs = [];

  before(async () => {
    host = await startHost();
    agent = await connect(host.url);
    agent.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  });
  after(async () => {
    await agent?.close();
    const exit = await host?.stop();
    assert.equal(exit?.code, 0, `mcphost exits 0 on SIGTERM: ${host?.stderr}`);
  });

  it('initialize negotiates 2025-11-25 and issues an Mcp-Session-Id', () => {
    const init = agent.received.find((m) => m.result?.protocolVersion);
    assert.equal(init.result.protocolVersion, '2025-11-25');
    assert.match(agent.transport.sessionId, /^[0-9a-f]{32}$/);
    assert.equal(agent.client.getServerVersion().name, 'mcphost');
    const caps = agent.client.getServerCapabilities();
    for (const cap of ['tools', 'resources', 'prompts', 'logging', 'completions']) assert.ok(caps[cap], cap);
  });

  it('ping (protocol and tool) and tools/list', async () => {
    assert.deepEqual(await agent.client.ping(), {});
    const pong = await agent.client.callTool({ name: 'ping', arguments: {} });
    assert.equal(pong.structuredContent.reply, 'pong');
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of tools) assert.match(t.name, TOOL_NAME_RE);
    for (const name of [...CORE_TOOLS, ...FIXTURE_TOOLS]) assert.ok(names.includes(name), `${name} is listed`);
  });

  it('fixture_echo: structured content; invalid arguments are tool errors naming them', async () => {
    const res = await agent.client.callTool({ name: 'fixture_echo', arguments: { message: 'hello', times: 2 } });
    assert.deepEqual(res.structuredContent, { message: 'hello', times: 2 });
    for (const [args, argument] of [
      [{ message: 5 }, 'message'],
      [{ message: 'a', times: 9 }, 'times'],
      [{ message: 'a', bogus: 1 }, 'bogus'],
      [{}, 'message']
    ]) {
      const bad = await agent.client.callTool({ name: 'fixture_echo', arguments: args });
      assert.equal(bad.isError, true);
      assert.ok(resultText(bad).includes(argument), resultText(bad));
    }
    const error = await rejectsWithCode(agent.client.callTool({ name: 'no_such_tool', arguments: {} }), ErrorCode.InvalidParams);
    assert.match(error.message, /no_such_tool/);
  });

  it('fixture_progress: progress notifications come on the request\'s SSE stream before the response', async () => {
    const seen = [];
    const from = agent.received.length;
    const res = await agent.client.callTool({ name: 'fixture_progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p.progress)
    });
    assert.equal(resultText(res), 'done');
    const wire = agent.received.slice(from);
    const progress = wire.filter((m) => m.method === 'notifications/progress');
    assert.deepEqual(progress.map((m) => m.params.progress), [1, 2, 3]);
    const answer = wire.findIndex((m) => m.result?.content?.[0]?.text === 'done');
    assert.ok(wire.indexOf(progress[2]) < answer, 'progress precedes the response');
    assert.ok(seen.length >= 2, `onprogress was called ${seen.length} times`);
  });

  it('cancellation: an aborted call rejects, gets no response, and the server keeps serving', async () => {
    const controller = new AbortController();
    const call = agent.client.callTool({ name: 'fixture_progress', arguments: { steps: 25 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(new Error('e2e cancel'))
    });
    await assert.rejects(within(HANG_MS, 'the cancelled call', call), /e2e cancel/);
    const token = agent.received.find((m) => m.method === 'notifications/progress' && m.params.progress === 1 && m.params.total === 25)?.params.progressToken;
    assert.notEqual(token, undefined, 'a progress notification arrived before the abort');
    assert.deepEqual(await within(HANG_MS, 'ping after cancel', agent.client.ping()), {});
    // A call started after the cancel and three times as long: were the
    // cancelled one (25 steps) not stopped, it would answer first.
    await agent.client.callTool({ name: 'fixture_progress', arguments: { steps: 75 } });
    assert.equal(agent.received.find((m) => m.id === token && (m.result || m.error)), undefined, 'no response to the cancelled call');
  });

  it('logging/setLevel info: tool log lines arrive as notifications/message', async () => {
    await agent.client.setLoggingLevel('info');
    logs.length = 0;
    await agent.client.callTool({ name: 'fixture_progress', arguments: { steps: 2 } });
    // A later line that must come after any copy of the first call's.
    await agent.client.callTool({ name: 'fixture_progress', arguments: { steps: 1 } });
    await within(HANG_MS, 'the later log line', (async () => {
      while (!logs.some((l) => l.data === 'step 1 of 1')) await sleep(10);
    })());
    const steps = logs.map((l) => l.data).filter((d) => /^step \d of 2$/.test(d));
    assert.deepEqual(steps, ['step 1 of 2', 'step 2 of 2']);
    await agent.client.setLoggingLevel('error');
  });

  it('resources, templates, prompts and completion', async () => {
    const { resources } = await agent.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'fixture://hello'));
    const read = await agent.client.readResource({ uri: 'fixture://hello' });
    assert.equal(read.contents[0].text, 'Hello from the fixture resource');
    const echo = await agent.client.readResource({ uri: 'fixture://echo/abc' });
    assert.equal(echo.contents[0].text, 'abc');
    await rejectsWithCode(agent.client.readResource({ uri: 'fixture://nope' }), -32002);
    const got = await agent.client.getPrompt({ name: 'fixture_prompt', arguments: { topic: 'sprites' } });
    assert.deepEqual(got.messages[0].content, { type: 'text', text: 'Explain sprites on the C64.' });
    const { completion } = await agent.client.complete({
      ref: { type: 'ref/prompt', name: 'fixture_prompt' },
      argument: { name: 'topic', value: 'gam' }
    });
    assert.deepEqual(completion.values, ['gamma', 'gammon']);
  });

  it('sessions: create, select, read the chip, destroy', async () => {
    const created = await agent.client.callTool({ name: 'session_create', arguments: { machine: 'fixture', name: 'second' } });
    assert.equal(created.isError, false, resultText(created));
    const counter = await agent.client.callTool({ name: 'fixture_counter', arguments: {} });
    assert.equal(counter.isError, false, resultText(counter));
    assert.equal(typeof counter.structuredContent.cycles, 'number');
    await agent.client.callTool({ name: 'session_select', arguments: { session: 'fixture-1' } });
    const destroyed = await agent.client.callTool({ name: 'session_destroy', arguments: { session: 'second' } });
    assert.equal(destroyed.isError, false);
    const list = (await agent.client.callTool({ name: 'session_list', arguments: {} })).structuredContent;
    assert.deepEqual(list.sessions.map((s) => s.name), ['fixture-1']);
    assert.equal(list.current, 'fixture-1');
  });

  it('host_info lists transport-http and the http transport', async () => {
    const info = (await agent.client.callTool({ name: 'host_info', arguments: {} })).structuredContent;
    const plugin = info.plugins.find((p) => p.id === 'org.mcphost.transport-http');
    assert.equal(plugin?.kind, 'transport');
    assert.ok(info.transports.includes('http'));
  });

  it('two clients at once have separate MCP sessions with their own current machine session', async () => {
    const other = await connect(host.url);
    try {
      assert.notEqual(other.transport.sessionId, agent.transport.sessionId);
      const created = await other.client.callTool({ name: 'session_create', arguments: { machine: 'fixture', name: 'theirs' } });
      assert.equal(created.structuredContent.current, true);
      const [mine, theirs] = await Promise.all([
        agent.client.callTool({ name: 'session_list', arguments: {} }),
        other.client.callTool({ name: 'session_list', arguments: {} })
      ]);
      assert.equal(mine.structuredContent.current, 'fixture-1', 'the first client still works on fixture-1');
      assert.equal(theirs.structuredContent.current, 'theirs');
      // Both at once, interleaved.
      const calls = [];
      for (let i = 0; i < 10; i++) {
        calls.push(agent.client.callTool({ name: 'fixture_echo', arguments: { message: `a${i}` } }));
        calls.push(other.client.callTool({ name: 'fixture_echo', arguments: { message: `b${i}` } }));
      }
      const results = await Promise.all(calls);
      results.forEach((r, i) => assert.equal(r.structuredContent.message, `${i % 2 ? 'b' : 'a'}${i >> 1}`));
      await other.client.callTool({ name: 'session_destroy', arguments: { session: 'theirs' } });
      // DELETE ends the other MCP session; this one goes on.
      await other.transport.terminateSession();
      assert.deepEqual(await agent.client.ping(), {});
    } finally {
      await other.close();
    }
  });

  it('older protocol versions over HTTP: the MCP-Protocol-Version header may be absent or any served version', async () => {
    for (const version of ['2025-06-18', '2025-03-26']) {
      const session = await rawSession(host.url, version);
      const none = await post(host.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { session });
      assert.equal(none.status, 200);
      const named = await post(host.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { session, headers: { 'mcp-protocol-version': version } });
      assert.deepEqual(named.json, { jsonrpc: '2.0', id: 3, result: {} });
    }
  });

  it('the SDK saw no transport errors', () => {
    const tolerated = /progress notification for an unknown token|SSE stream disconnected|AbortError|aborted/i;
    assert.deepEqual(agent.errors.map(String).filter((e) => !tolerated.test(e)), []);
  });
});

describe('http, the GET notification stream and resumption', () => {
  let host;
  before(async () => {
    host = await startHost();
  });
  after(async () => {
    await host?.stop();
  });

  it('server notifications (exchange-less log lines) go to the GET stream, with event ids', async () => {
    const session = await rawSession(host.url);
    const stream = await openStream(host.url, session);
    assert.equal(stream.status, 200);
    assert.equal(stream.res.headers.get('content-type'), 'text/event-stream');
    await post(host.url, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'info' } }, { session });
    const created = await post(host.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'session_create', arguments: { machine: 'fixture', name: 'g1' } } }, { session });
    assert.equal(created.status, 200);
    const log = await stream.waitFor((m) => m.method === 'notifications/message' && /g1/.test(m.params.data), 'the log line of session_create');
    assert.match(log.id, /^\d+-\d+$/);
    const priming = stream.events[0];
    assert.equal(priming.data, '', 'the stream starts with a priming event');
    assert.match(priming.id, /^\d+-0$/);
    assert.ok(Number(priming.retry) > 0, 'with a retry time');
    stream.close();
  });

  it('resumption: a GET with Last-Event-ID replays what the client missed on that stream', async () => {
    const session = await rawSession(host.url);
    await post(host.url, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'info' } }, { session });
    const first = await openStream(host.url, session);
    await post(host.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'session_create', arguments: { machine: 'fixture', name: 'r1' } } }, { session });
    const seen = await first.waitFor((m) => /session r1 \(fixture\) created/.test(m.params?.data), 'the first log line');
    first.close(); // a resuming GET takes the stream over even before the server notices
    // While no GET is open: more notifications for that stream.
    await post(host.url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'session_destroy', arguments: { session: 'r1' } } }, { session });
    await post(host.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'session_create', arguments: { machine: 'fixture', name: 'r2' } } }, { session });
    const resumed = await openStream(host.url, session, { lastEventId: seen.id });
    await resumed.waitFor((m) => /session r2 \(fixture\) created/.test(m.params?.data), 'the missed log lines');
    const ids = resumed.events.map((e) => e.id);
    const [streamId, seq] = seen.id.split('-').map(Number);
    assert.ok(ids.every((id) => id.startsWith(`${streamId}-`)), `the same stream continues: ${ids}`);
    assert.deepEqual(ids.map((id) => Number(id.split('-')[1])), ids.map((_, i) => seq + 1 + i), 'no event is repeated or skipped');
    const texts = resumed.messages().map((m) => m.params.data);
    assert.ok(texts.some((t) => /session r1 destroyed/.test(t)), `the destroy line was replayed: ${texts}`);
    resumed.close();
    await post(host.url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'session_destroy', arguments: { session: 'r2' } } }, { session });
  });

  it('resumption of a POST stream: the rest of a tool call\'s progress and its response come on the GET', async () => {
    const session = await rawSession(host.url);
    const controller = new AbortController();
    const res = await fetch(host.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'fixture_progress', arguments: { steps: 10 }, _meta: { progressToken: 'p7' } } }),
      signal: controller.signal
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream', 'a request with a progressToken is answered as SSE');
    const postStream = sseReader(res, controller);
    const firstProgress = await postStream.waitFor((m) => m.method === 'notifications/progress', 'the first progress');
    postStream.close(); // the client "loses" the connection
    const resumed = await openStream(host.url, session, { lastEventId: firstProgress.id });
    const answer = await resumed.waitFor((m) => m.id === 7 && m.result, 'the response on the resumed stream');
    assert.equal(answer.result.content[0].text, 'done');
    const progress = resumed.messages().filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress);
    assert.deepEqual(progress, progress.slice().sort((a, b) => a - b), 'in order');
    assert.ok(!progress.includes(firstProgress.params.progress), 'what was read is not repeated');
    assert.equal(progress.at(-1), 10);
    await resumed.waitEnd();
  });

  it('several streams per session: POST streams run side by side with a GET stream', async () => {
    const session = await rawSession(host.url);
    const get = await openStream(host.url, session);
    const calls = await Promise.all(
      [1, 2, 3].map((i) =>
        post(host.url, { jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'fixture_progress', arguments: { steps: 3 }, _meta: { progressToken: `s${i}` } } }, { session })
      )
    );
    for (const [i, c] of calls.entries()) {
      assert.equal(c.headers.get('content-type'), 'text/event-stream');
      assert.ok(c.json.every((m) => m.id === 101 + i || m.params?.progressToken === `s${i + 1}`), 'each stream carries only its own request');
      assert.equal(c.json.at(-1).result.content[0].text, 'done');
    }
    get.close();
  });
});

describe('http, machine events on the GET stream', () => {
  let host;
  after(async () => {
    await host?.stop();
  });

  it('events_subscribe, then notifications/mcphost/event "exited" arrives on the GET stream', async () => {
    // The fixture machine exits after 2.5 M cycles at 1 MHz (real time);
    // --limit-cycles runs it, and its end also stops serving.
    host = await startHost({ args: ['--machine', 'fixture', '--config', 'exit_after=2500000', '--config', 'exit_code=3', '--limit-cycles', '100000000'] });
    const session = await rawSession(host.url);
    const stream = await openStream(host.url, session);
    const sub = await post(host.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'events_subscribe', arguments: {} } }, { session });
    assert.equal(sub.status, 200);
    assert.equal(sub.json.result.isError, false, sub.text);
    const event = await stream.waitFor((m) => m.method === 'notifications/mcphost/event', 'the exited event');
    assert.equal(event.params.type, 'exited');
    assert.equal(event.params.session, 'fixture-1');
    assert.equal(event.params.detail.exitCode, 3);
    await stream.waitEnd(10000); // the run's end stopped the server: the stream ends cleanly
    const exit = await host.stop();
    assert.equal(exit.code, 3, 'the run\'s exit code');
  });
});

describe('http, hostile and malformed requests', () => {
  let host;
  let session;
  before(async () => {
    host = await startHost({ env: { MCPHOST_HTTP_MAX_STREAMS: '4', MCPHOST_HTTP_STREAM_EVENTS: '32' } });
    session = await rawSession(host.url);
  });
  after(async () => {
    await host?.stop();
  });

  const expectError = (res, status, code) => {
    assert.equal(res.status, status, res.text);
    assert.equal(res.json?.jsonrpc, '2.0', `a JSON-RPC error body: ${res.text}`);
    if (code !== undefined) assert.equal(res.json.error.code, code);
    assert.ok(res.json.error.message.length > 10, 'the message says what to do');
  };

  it('malformed JSON is 400 with a -32700 body', async () => {
    expectError(await post(host.url, '{"jsonrpc": "2.0", "id": 1,', { session }), 400, -32700);
    expectError(await post(host.url, '', { session }), 400, -32700);
  });

  it('a batch is 400 -32600; a body over 4 MiB is 413', async () => {
    expectError(await post(host.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { session }), 400, -32600);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } });
    expectError(await post(host.url, big, { session }), 413);
  });

  it('wrong Content-Type is 415; an Accept without JSON or SSE is 406', async () => {
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session, headers: { 'content-type': 'text/plain' } }), 415);
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session, headers: { accept: 'text/html' } }), 406);
    const get = await fetch(host.url, { headers: { accept: 'application/json', 'mcp-session-id': session } });
    assert.equal(get.status, 406);
  });

  it('a missing session id is 400, an unknown or ended one 404', async () => {
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }), 400);
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session: 'f'.repeat(32) }), 404, -32001);
    const doomed = await rawSession(host.url);
    const del = await fetch(host.url, { method: 'DELETE', headers: { 'mcp-session-id': doomed } });
    assert.equal(del.status, 200);
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session: doomed }), 404, -32001);
    const again = await fetch(host.url, { method: 'DELETE', headers: { 'mcp-session-id': doomed } });
    assert.equal(again.status, 404);
    const noGet = await fetch(host.url, { headers: { accept: 'text/event-stream' } });
    assert.equal(noGet.status, 400);
  });

  it('an unsupported MCP-Protocol-Version is 400; initialize with a session id is 400', async () => {
    expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session, headers: { 'mcp-protocol-version': '1999-01-01' } }), 400);
    expectError(await post(host.url, INIT(), { session }), 400);
  });

  it('a foreign Origin is 403; loopback origins and no Origin are served', async () => {
    for (const origin of ['http://evil.example.com', 'null', 'https://localhost.evil.com', 'http://127.0.0.1.evil.com:80',
      'http://localhost@evil.example', `http://localhost:${host.port}@evil.example`, 'http://evil.example@localhost'])
      expectError(await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session, headers: { origin } }), 403);
    for (const origin of [`http://localhost:${host.port}`, 'http://127.0.0.1:9999', 'http://[::1]:1234', 'https://localhost'])
      assert.equal((await post(host.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { session, headers: { origin } })).status, 200, origin);
  });

  it('a Host that is not this server is refused (DNS rebinding): 421', async () => {
    const body = JSON.stringify(INIT());
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const evil = await rawRequest(host.port, { headers: { ...headers, host: `evil.example.com:${host.port}` }, body });
    assert.equal(evil.status, 421, evil.text);
    assert.equal(JSON.parse(evil.text).error.code, -32000);
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const ok = await rawRequest(host.port, { headers: { ...headers, host: `${name}:${host.port}` }, body });
      assert.equal(ok.status, 200, `${name}: ${ok.text}`);
    }
  });

  it('other paths are 404, other methods 405', async () => {
    assert.equal((await fetch(host.url.replace('/mcp', '/other'))).status, 404);
    const put = await fetch(host.url, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(put.status, 405);
    assert.match(put.headers.get('allow'), /POST/);
  });

  it('notifications and responses from the client are 202 with no body', async () => {
    const n = await post(host.url, { jsonrpc: '2.0', method: 'notifications/whatever' }, { session });
    assert.equal(n.status, 202);
    assert.equal(n.text, '');
    const r = await post(host.url, { jsonrpc: '2.0', id: 'mh-999', result: {} }, { session });
    assert.equal(r.status, 202);
  });

  it('the stream limit: a GET beyond MCPHOST_HTTP_MAX_STREAMS is 429 with a JSON-RPC error', async () => {
    const s = await rawSession(host.url);
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await openStream(host.url, s));
    assert.ok(open.every((o) => o.status === 200));
    const refused = await fetch(host.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': s } });
    assert.equal(refused.status, 429);
    assert.match((await refused.json()).error.message, /at most 4/);
    for (const o of open) o.close();
  });

  it('100 concurrent connections are all answered and the server keeps serving', async () => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: 200 });
    const one = (i) =>
      new Promise((res, rej) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'fixture_echo', arguments: { message: `m${i}` } } });
        const req = http.request(
          { host: '127.0.0.1', port: host.port, path: '/mcp', method: 'POST', agent, headers: { ...JSON_HEADERS, 'mcp-session-id': session, 'content-length': Buffer.byteLength(body) } },
          (r) => {
            let text = '';
            r.setEncoding('utf8');
            r.on('data', (c) => (text += c));
            r.on('end', () => res({ status: r.statusCode, type: r.headers['content-type'], text }));
          }
        );
        req.on('error', rej);
        req.end(body);
      });
    const results = await within(30000, '100 concurrent requests', Promise.all(Array.from({ length: 100 }, (_, i) => one(1000 + i))));
    agent.destroy();
    results.forEach((r, i) => {
      assert.equal(r.status, 200, r.text);
      const messages = r.type.includes('event-stream') ? parseSse(r.text).filter((e) => e.data).map((e) => JSON.parse(e.data)) : [JSON.parse(r.text)];
      const answer = messages.find((m) => m.id === 1000 + i);
      assert.equal(answer.result.structuredContent.message, `m${1000 + i}`);
    });
    assert.deepEqual((await post(host.url, { jsonrpc: '2.0', id: 5, method: 'ping' }, { session })).json, { jsonrpc: '2.0', id: 5, result: {} });
  });

  it('a client that opens a GET stream and never reads neither blocks the others nor grows without bound', async () => {
    const stuck = await rawSession(host.url);
    await post(host.url, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } }, { session: stuck });
    const socket = net.connect(host.port, '127.0.0.1');
    await new Promise((res) => socket.on('connect', res));
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${stuck}\r\n\r\n`);
    socket.pause(); // never read
    // Flood the stuck stream with debug log lines (the host logs every
    // unknown notification at debug) while another session makes calls.
    const flood = (async () => {
      const long = `notifications/flood-${'x'.repeat(2000)}`;
      for (let i = 0; i < 1500; i++) await post(host.url, { jsonrpc: '2.0', method: long }, { session: stuck });
    })();
    // The other session is served while the flood runs (a bound against a
    // server that waits for the stuck client, not a speed check).
    await within(HANG_MS, 'the other session\'s calls during the flood', (async () => {
      for (let i = 0; i < 40; i++) {
        const r = await post(host.url, { jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'fixture_echo', arguments: { message: 'x' } } }, { session });
        assert.equal(r.status, 200);
      }
    })());
    await within(60000, 'the flood', flood);
    await within(HANG_MS, 'the overflow to be logged', (async () => {
      while (!/is not reading/.test(host.stderr)) await sleep(50);
    })());
    socket.destroy();
    assert.deepEqual((await post(host.url, { jsonrpc: '2.0', id: 6, method: 'ping' }, { session })).json, { jsonrpc: '2.0', id: 6, result: {} });
  });
});

describe('http, tokens, limits and binding', () => {
  it('--token: missing or wrong bearer token is 401 with WWW-Authenticate; the right one is served', async () => {
    const host = await startHost({ extra: ['--token', 's3cret'] });
    try {
      const none = await post(host.url, INIT());
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate'), /^Bearer/);
      // Near misses of the right token: a suffix, a prefix, another case, empty.
      for (const authorization of ['Bearer nope', 'Bearer s3cretXYZ', 'Bearer s3cret2', 'Bearer s3cre', 'Bearer S3CRET', 'Bearer ', 'Bearer', 'Basic s3cret', 's3cret'])
        assert.equal((await post(host.url, INIT(), { headers: { authorization } })).status, 401, authorization);
      const ok = await post(host.url, INIT(), { headers: { authorization: 'Bearer s3cret' } });
      assert.equal(ok.status, 200);
      const session = ok.headers.get('mcp-session-id');
      assert.equal((await post(host.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { session })).status, 401, 'every request needs it');
      const sdk = await connect(host.url, { headers: { authorization: 'Bearer s3cret' } });
      assert.deepEqual(await sdk.client.ping(), {});
      await sdk.close();
    } finally {
      await host.stop();
    }
  });

  it('MCPHOST_TOKEN works like --token', async () => {
    const host = await startHost({ env: { MCPHOST_TOKEN: 'envtoken' } });
    try {
      assert.equal((await post(host.url, INIT())).status, 401);
      assert.equal((await post(host.url, INIT(), { headers: { authorization: 'Bearer envtoken' } })).status, 200);
    } finally {
      await host.stop();
    }
  });

  it('binding to a non-loopback address without a token is refused with a clear message', async () => {
    const child = spawn(MCPHOST_BIN, hostArgs('--transport', 'http', '--host', '0.0.0.0', '--port', '0'), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MCPHOST_TOKEN: '' }
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exit = await within(HANG_MS, 'mcphost to refuse', new Promise((res) => child.on('exit', (code) => res(code))));
    assert.notEqual(exit, 0);
    assert.match(stderr, /without a token/);
    assert.match(stderr, /--token|MCPHOST_TOKEN/);
  });

  it('a non-loopback bind with a token serves (clients here use 127.0.0.1)', async () => {
    const host = await startHost({ args: [], extra: ['--host', '0.0.0.0', '--token', 't'] });
    try {
      assert.equal((await post(host.url, INIT(), { headers: { authorization: 'Bearer t' } })).status, 200);
    } finally {
      await host.stop();
    }
  });

  it('the session limit answers 503 with a JSON-RPC error; idle sessions expire', async () => {
    const host = await startHost({ args: [], env: { MCPHOST_HTTP_MAX_SESSIONS: '2', MCPHOST_HTTP_IDLE_SECONDS: '2' } });
    try {
      const a = await rawSession(host.url);
      const b = await rawSession(host.url);
      // Used sessions (a request after initialize) are kept; never-used ones would make room.
      for (const session of [a, b]) assert.equal((await post(host.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { session })).status, 200);
      const third = await post(host.url, INIT());
      assert.equal(third.status, 503);
      assert.match(third.json.error.message, /at most 2 MCP sessions/);
      // Wait for the expiry's log line (a request would keep the session busy).
      await within(HANG_MS, 'the idle sessions to expire', (async () => {
        while (!host.stderr.includes(`session ${a.slice(0, 8)} expired after 2 s`)) await sleep(50);
      })());
      assert.equal((await post(host.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { session: a })).status, 404, 'expired');
      await rawSession(host.url); // room again
    } finally {
      await host.stop();
    }
  });
});
