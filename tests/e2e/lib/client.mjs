// Starts the real mcphost binary under the official MCP TypeScript SDK client
// (Client + StdioClientTransport) and records what crosses the wire.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCPHOST_BIN, hostArgs } from './env.mjs';

/**
 * Connects a client to a fresh mcphost. Returns
 *   client     the connected SDK Client
 *   received   every JSON-RPC message the server sent, in order (raw objects)
 *   errors     transport/protocol errors the SDK reported (must stay empty)
 *   stderr()   what the server wrote to stderr so far
 *   close()    disconnects (closes stdin; the server exits on EOF)
 * env, when given, is the server's whole environment (the SDK otherwise
 * passes only HOME, PATH and a few more).
 */
export async function connectHost({ args = ['--machine', 'fixture'], protocolVersion, env } = {}) {
  const transport = new StdioClientTransport({
    command: MCPHOST_BIN,
    args: hostArgs(...args),
    stderr: 'pipe',
    ...(env ? { env } : {})
  });
  let stderrText = '';
  // The stderr stream exists before start() when stderr is 'pipe'.
  transport.stderr?.on('data', (chunk) => {
    stderrText += chunk.toString();
  });

  // Record every incoming message before the SDK sees it: the Client sets
  // transport.onmessage in connect(), so wrap whatever it installs.
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
  if (protocolVersion) {
    // Ask for a specific version by rewriting the client's initialize request.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion } };
      return send(message, options);
    };
  }

  const client = new Client({ name: 'mcphost-e2e', version: '1.0.0' }, { capabilities: {} });
  const errors = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    transport,
    received,
    errors,
    stderr: () => stderrText,
    close: () => client.close()
  };
}

/** The text of every text content item of a tool result, joined by newlines. */
export function resultText(result) {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** call(name, args), ok(name, args) (the same, asserting the result is no
 * error) and refused(name, args, re) (asserting it is an error whose text
 * matches re) on the host hostOf() gives once a before() connected it. */
export function toolCallers(hostOf) {
  const call = (name, args = {}) => hostOf().client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const res = await call(name, args);
    assert.equal(res.isError, false, `${name}(${JSON.stringify(args)}): ${resultText(res)}`);
    return res;
  };
  const refused = async (name, args, re) => {
    const res = await call(name, args);
    assert.equal(res.isError, true, `${name} should be refused: ${resultText(res)}`);
    assert.match(resultText(res), re);
    return res;
  };
  return { call, ok, refused };
}

// The machine's whole state as a hash: the SHA-256 of a snapshot saved into
// dirOf() (a fresh file each time).
export function stateHasher(ok, dirOf) {
  let k = 0;
  return async () => {
    const file = join(dirOf(), `state${k++}.mhsnap`);
    await ok('snapshot_save', { path: file });
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  };
}
