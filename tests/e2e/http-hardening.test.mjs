// End-to-end: transport-http under the abuse of issue #20, through real
// loopback sockets against the real mcphost binary: resumption ids that name
// nothing, a session ended while a request waits, a full session table, and
// connections that never finish their request header.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sleep, within } from './lib/env.mjs';
import { JSON_HEADERS, INIT, startHost, post, rawSession, openStream, sseReader } from './lib/http.mjs';

describe('http, Last-Event-ID that names nothing to resume', () => {
  let host;
  let session;
  before(async () => {
    host = await startHost();
    session = await rawSession(host.url);
  });
  after(async () => {
    await host?.stop();
  });

  it('an id past the end of a stream is 400 with the stream\'s newest id, not a silent empty stream', async () => {
    const get = await openStream(host.url, session);
    await within(5000, 'the priming event', (async () => {
      while (!get.events.length) await sleep(20);
    })());
    const streamId = get.events[0].id.split('-')[0];
    get.close();
    const res = await fetch(host.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': `${streamId}-9223372036854775807` }
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /past the end of stream \d+, whose newest event is \d+-\d+/);
  });

  it('an id of a stream the session never had, or not an event id at all, is 400 and opens no stream', async () => {
    for (const id of ['4000-1', '0-1', 'banana', '1-']) {
      const res = await fetch(host.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': id } });
      assert.equal(res.status, 400, `Last-Event-ID ${id}`);
      const body = await res.json();
      assert.match(body.error.message, /Last-Event-ID/);
      assert.match(body.error.message, /GET without/, 'says what to do instead');
    }
  });
});

describe('http, a session ended while a request waits', () => {
  let host;
  before(async () => {
    host = await startHost({ args: ['--machine', 'bare6502'] });
  });
  after(async () => {
    await host?.stop();
  });

  const call = (id, name, args) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it('DELETE during execution_wait: the SSE stream carries a -32000 "connection closed" answer before it ends', async () => {
    const session = await rawSession(host.url);
    assert.equal((await post(host.url, call(2, 'execution_run', {}), { session })).status, 200);
    const controller = new AbortController();
    const res = await fetch(host.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': session },
      body: JSON.stringify(call(3, 'execution_wait', { timeout_ms: 60000 })),
      signal: controller.signal
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream', 'a long wait streams');
    const stream = sseReader(res, controller);
    const deleted = await fetch(host.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    assert.equal(deleted.status, 200);
    await stream.waitEnd(20000);
    const answer = stream.messages().find((m) => m.id === 3);
    assert.ok(answer, `the request got an answer before the stream closed: ${JSON.stringify(stream.messages())}`);
    assert.equal(answer.error?.code, -32000);
    assert.match(answer.error.message, /session ended/);
  });
});

describe('http, a full session table', () => {
  const ping = (url, session) => post(url, { jsonrpc: '2.0', id: 9, method: 'ping' }, { session });

  it('64 initialize calls that are never used or deleted do not lock out the next client', async () => {
    const host = await startHost({ args: [] });
    try {
      for (let i = 0; i < 64; i++) assert.equal((await post(host.url, INIT())).status, 200);
      const next = await post(host.url, INIT());
      assert.equal(next.status, 200, next.text);
      const session = next.headers.get('mcp-session-id');
      assert.equal((await ping(host.url, session)).status, 200);
      assert.match(host.stderr, /ended to make room for a new one \(limit 64; it never sent a request after initialize\)/);
    } finally {
      await host.stop();
    }
  });

  it('--transport-option max_sessions: never-used sessions go first, used ones are kept, then 503', async () => {
    const host = await startHost({ args: [], extra: ['--transport-option', 'max_sessions=3'] });
    try {
      const a = await rawSession(host.url);
      assert.equal((await ping(host.url, a)).status, 200);
      const b = await rawSession(host.url); // never used
      const c = await rawSession(host.url);
      assert.equal((await ping(host.url, c)).status, 200);
      const d = await rawSession(host.url);
      assert.equal((await ping(host.url, b)).status, 404, 'the never-used session made room');
      for (const used of [a, c]) assert.equal((await ping(host.url, used)).status, 200, 'used sessions are kept');
      assert.equal((await ping(host.url, d)).status, 200);
      const full = await post(host.url, INIT());
      assert.equal(full.status, 503);
      assert.match(full.json.error.message, /at most 3 MCP sessions/);
    } finally {
      await host.stop();
    }
  });

  it('an unknown or malformed --transport-option stops mcphost with a message naming the settings', async () => {
    await assert.rejects(startHost({ args: [], extra: ['--transport-option', 'max_sesions=3'] }), /NAME one of max_sessions, /);
    await assert.rejects(startHost({ args: [], extra: ['--transport-option', 'max_sessions=-1'] }), /max_sessions takes a positive whole number/);
  });
});
