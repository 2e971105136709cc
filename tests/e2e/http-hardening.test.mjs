// End-to-end: transport-http under the abuse of issue #20, through real
// loopback sockets against the real mcphost binary: resumption ids that name
// nothing, a session ended while a request waits, a full session table, and
// connections that never finish their request header.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { HANG_MS, sleep, within } from './lib/env.mjs';
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
    await within(HANG_MS, 'the priming event', (async () => {
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
    await stream.waitEnd();
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

/** Opens a raw socket that starts a request header and never finishes it,
 * trickling one header line every `every` ms. Resolves once connected. */
function trickler(port, { localAddress, every = 500 } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const t = { socket, closed: false, timer: null };
    socket.on('error', () => {});
    socket.on('close', () => {
      t.closed = true;
      clearInterval(t.timer);
    });
    socket.on('connect', () => {
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      let n = 0;
      t.timer = setInterval(() => socket.writable && socket.write(`X-Trickle-${n++}: x\r\n`), every);
      resolve(t);
    });
    // A refused connection never connects: count it as closed.
    socket.on('close', () => resolve(t));
  });
}

const until = (ms, what, cond) =>
  within(ms, what, (async () => {
    while (!cond()) await sleep(50);
  })());

describe('http, connections that never finish their request', () => {
  it('a trickled header does not keep its connection: it is closed at the header deadline', async () => {
    const host = await startHost({ args: [], extra: ['--transport-option', 'header_timeout=2'] });
    try {
      const t = await trickler(host.port);
      await until(HANG_MS, 'the server to close the trickling connection', () => t.closed);
      await until(HANG_MS, 'the closing to be logged', () => /1 sent no whole request header within 2 s/.test(host.stderr));
    } finally {
      await host.stop();
    }
  });

  it('260 trickling connections do not lock out the token holder, and are not logged one by one', async () => {
    const host = await startHost({ args: [], extra: ['--token', 's3cret'] });
    const attackers = [];
    try {
      for (let i = 0; i < 260; i++) attackers.push(await trickler(host.port, { every: 1000 }));
      // The token holder retries a refused or reset connection, as clients do.
      const served = within(HANG_MS, 'the token holder to be served', (async () => {
        for (;;) {
          try {
            const res = await post(host.url, INIT(), { headers: { authorization: 'Bearer s3cret', connection: 'close' } });
            if (res.status === 200) return res;
          } catch {
            // refused while the server is full
          }
          await sleep(200);
        }
      })());
      assert.equal((await served).status, 200);
      // All but the newest 16 from this address go (the pending limits).
      await until(HANG_MS, 'the oldest pending connections to be closed', () => attackers.filter((t) => t.closed).length >= 260 - 16);
      const noise = host.stderr.split('\n').filter((l) => /libmicrohttpd|closed \d+ connections|refused/.test(l));
      assert.ok(noise.length <= 20, `dropped connections are logged in a few lines, not one each:\n${noise.join('\n')}`);
    } finally {
      for (const t of attackers) t.socket.destroy();
      await host.stop();
    }
  });

  it('a client address may hold at most 16 connections that have sent no request: the oldest beyond go', async () => {
    const host = await startHost({ args: [] });
    const held = [];
    try {
      for (let i = 0; i < 20; i++) held.push(await trickler(host.port, { localAddress: '127.0.0.2', every: 1000 }));
      await until(HANG_MS, 'the server to close the 4 oldest', () => held.filter((t) => t.closed).length >= 4);
      assert.deepEqual(held.map((t) => t.closed).slice(0, 4), [true, true, true, true], 'the oldest went');
      // Another address is not affected.
      assert.equal((await post(host.url, INIT())).status, 200);
    } finally {
      for (const t of held) t.socket.destroy();
      await host.stop();
    }
  });

  it('a wrong token is refused at once and the connection closed: it cannot hold a keep-alive slot or send a body', async () => {
    const host = await startHost({ args: [], extra: ['--token', 's3cret'] });
    try {
      const requests = {
        get: `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer nope\r\n\r\n`,
        post: `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nAuthorization: Bearer nope\r\nContent-Length: 1000000\r\n\r\n`
      };
      for (const [what, request] of Object.entries(requests)) {
        const socket = net.connect(host.port, '127.0.0.1');
        let text = '';
        let ended = false;
        socket.setEncoding('utf8');
        socket.on('data', (c) => (text += c));
        socket.on('error', () => {});
        socket.on('close', () => (ended = true));
        await new Promise((res) => socket.on('connect', res));
        socket.write(request);
        await until(HANG_MS, `the 401 and the end of the connection (${what})`, () => ended);
        assert.match(text, /^HTTP\/1\.1 401/, what);
        assert.match(text, /Connection: close/i, what);
      }
    } finally {
      await host.stop();
    }
  });
});

describe('http, machine sessions created while another client lists them', () => {
  it('session_create, session_list and session_select from two clients at once (ThreadSanitizer watches in CI)', async () => {
    const host = await startHost();
    try {
      const [a, b] = [await rawSession(host.url), await rawSession(host.url)];
      const call = (session, id, name, args = {}) => post(host.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, { session });
      const creating = (async () => {
        for (let i = 0; i < 6; i++) {
          const r = await call(a, 10 + i, 'session_create', { machine: 'fixture', name: `race${i}` });
          assert.equal(r.json.result.isError, false, r.text);
        }
      })();
      const listing = (async () => {
        for (let i = 0; i < 60; i++) {
          const r = await call(b, 100 + i, i % 2 ? 'session_list' : 'session_select', i % 2 ? {} : { session: 'fixture-1' });
          assert.equal(r.status, 200);
        }
      })();
      await Promise.all([creating, listing]);
      const list = await call(b, 999, 'session_list');
      assert.match(list.text, /race5/);
    } finally {
      await host.stop();
    }
  });
});
