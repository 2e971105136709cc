// Helpers for the end-to-end tests of transport-http: start mcphost
// --transport http on a port of its own, SDK clients, raw POSTs, SSE streams
// read event by event, and raw requests for headers fetch does not let us set.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCPHOST_BIN, HANG_MS, SERVING_RE, hostArgs, within } from './env.mjs';

export const INIT = (id = 1, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'mcphost-e2e-http', version: '1.0.0' } }
});
export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * Starts mcphost --transport http on a port the kernel picks (--port 0, so
 * two tests never race for one); resolves once it listens, with the port
 * it logged.
 */
export async function startHost({ args = ['--machine', 'fixture'], env = {}, extra = [] } = {}) {
  const child = spawn(MCPHOST_BIN, hostArgs(...args, '--transport', 'http', '--port', '0', ...extra), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env }
  });
  const host = { child, stderr: '', stdout: '' };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c) => (host.stdout += c));
  child.stderr.setEncoding('utf8');
  host.exited = new Promise((res) => child.on('exit', (code, signal) => res({ code, signal })));
  await within(
    20000,
    'mcphost to listen',
    new Promise((res, rej) => {
      child.stderr.on('data', (c) => {
        host.stderr += c;
        const serving = host.stderr.match(SERVING_RE);
        if (serving && !host.port) {
          host.port = Number(serving[1]);
          host.url = `http://127.0.0.1:${host.port}/mcp`;
          res();
        }
      });
      host.exited.then((e) => rej(new Error(`mcphost exited (${JSON.stringify(e)}): ${host.stderr}`)));
    })
  );
  host.stop = async () => {
    let exit;
    if (child.exitCode !== null || child.signalCode !== null) {
      exit = await host.exited;
    } else {
      child.kill('SIGTERM');
      try {
        exit = await within(HANG_MS, 'mcphost to exit after SIGTERM', host.exited);
      } catch (e) {
        child.kill('SIGKILL');
        throw e;
      }
    }
    // Under the sanitizers a report in the log fails the test that started it.
    assert.doesNotMatch(host.stderr, /AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error:/, 'no sanitizer report');
    return exit;
  };
  return host;
}

/** Connects an SDK client; records every message the server sent. */
export async function connect(url, { headers, capabilities = {} } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined);
  const received = [];
  let inner;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => inner,
    set: (fn) => {
      inner = fn
        ? (message, extra) => {
            received.push(message);
            fn(message, extra);
          }
        : fn;
    }
  });
  const client = new Client({ name: 'mcphost-e2e-http', version: '1.0.0' }, { capabilities });
  const errors = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, received, errors, close: () => client.close() };
}

/** POSTs one message (object or raw text); resolves with status, headers and the body text. */
export async function post(url, message, { session, headers = {} } = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...(session ? { 'mcp-session-id': session } : {}), ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message)
  });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  let json;
  if (type.includes('application/json') && text) json = JSON.parse(text);
  if (type.includes('text/event-stream')) json = parseSse(text).filter((e) => e.data).map((e) => JSON.parse(e.data));
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts a raw session: initialize + initialized; resolves with the session id. */
export async function rawSession(url, protocolVersion) {
  const res = await post(url, INIT(1, protocolVersion));
  assert.equal(res.status, 200, res.text);
  const session = res.headers.get('mcp-session-id');
  assert.match(session, /^[0-9a-f]{32}$/);
  const ack = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { session });
  assert.equal(ack.status, 202);
  return session;
}

/** Parses complete SSE events out of text. */
export function parseSse(text) {
  const events = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const ev = { data: '' };
    const data = [];
    let comment = true;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      comment = false;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else ev[field] = value;
    }
    if (comment) continue;
    ev.data = data.join('\n');
    events.push(ev);
  }
  return events;
}

/** Opens an SSE GET (or reads a POST's SSE body) and collects events as they come. */
export async function openStream(url, session, { lastEventId, headers = {} } = {}) {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      ...headers
    },
    signal: controller.signal
  });
  return sseReader(res, controller);
}

export function sseReader(res, controller) {
  const stream = { status: res.status, res, events: [], ended: false, waiters: [] };
  let buf = '';
  const wake = () => (stream.waiters = stream.waiters.filter((w) => !w()));
  (async () => {
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body) {
        buf += decoder.decode(chunk, { stream: true });
        const cut = buf.lastIndexOf('\n\n');
        if (cut < 0) continue;
        stream.events.push(...parseSse(buf.slice(0, cut + 2)));
        buf = buf.slice(cut + 2);
        wake();
      }
    } catch {
      // aborted
    }
    stream.ended = true;
    wake();
  })();
  stream.messages = () => stream.events.filter((e) => e.data).map((e) => ({ id: e.id, ...JSON.parse(e.data) }));
  stream.waitFor = (pred, what, ms = HANG_MS) =>
    within(
      ms,
      what,
      new Promise((res, rej) => {
        const check = () => {
          const m = stream.messages().find(pred);
          if (m) res(m);
          else if (stream.ended) rej(new Error(`the stream ended before ${what}`));
          return Boolean(m) || stream.ended;
        };
        if (!check()) stream.waiters.push(check);
      })
    );
  stream.waitEnd = (ms = HANG_MS) =>
    within(
      ms,
      'the stream to end',
      new Promise((res) => {
        const check = () => (stream.ended ? (res(), true) : false);
        if (!check()) stream.waiters.push(check);
      })
    );
  stream.close = () => controller?.abort();
  return stream;
}

/** A raw request through node:http, for headers fetch does not let us set (Host). */
export function rawRequest(port, { method = 'POST', path = '/mcp', headers = {}, body = '' } = {}) {
  return new Promise((res, rej) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (r) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c) => (text += c));
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, text }));
    });
    req.on('error', rej);
    req.end(body);
  });
}

export async function rejectsWithCode(promise, code) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, `expected an McpError, got ${error}`);
    assert.equal(error.code, code, `JSON-RPC error code (message: ${error.message})`);
    return error;
  }
  assert.fail(`expected a JSON-RPC error ${code}, but the request succeeded`);
}
