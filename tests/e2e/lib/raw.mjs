// Runs mcphost as a plain child process and talks raw JSON-RPC lines to it,
// for what an SDK client would never send.
import { spawn } from 'node:child_process';
import { MCPHOST_BIN, HANG_MS, hostArgs, within } from './env.mjs';

export const INITIALIZE = (id = 1, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'mcphost-e2e-raw', version: '1.0.0' } }
});

/**
 * Starts mcphost. Every stdout line is kept in `lines` (text) and, parsed, in
 * `messages`; a line that is not JSON is kept in `badLines`.
 */
export function spawnHost(args = ['--machine', 'fixture']) {
  const child = spawn(MCPHOST_BIN, hostArgs(...args), { stdio: ['pipe', 'pipe', 'pipe'] });
  const host = {
    child,
    lines: [],
    messages: [],
    badLines: [],
    stderr: '',
    waiters: [],
    exited: null
  };
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    partial += chunk;
    let nl;
    while ((nl = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      host.lines.push(line);
      try {
        host.messages.push(JSON.parse(line));
      } catch {
        host.badLines.push(line);
      }
      host.waiters = host.waiters.filter((w) => !w());
    }
  });
  child.stdout.on('end', () => {
    if (partial) host.badLines.push(`(unterminated) ${partial}`);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    host.stderr += chunk;
  });
  child.stdin.on('error', () => {}); // the host may exit first
  host.exit = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      host.exited = { code, signal };
      resolve(host.exited);
    });
  });

  /** Writes one line: an object is serialized, a string is sent as is. */
  host.send = (message) => {
    child.stdin.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
  };
  /** Resolves with the first received message (from index `from`) matching pred. */
  host.waitFor = (pred, what, ms = HANG_MS, from = 0) => {
    const find = () => host.messages.slice(from).find(pred);
    return within(
      ms,
      what,
      new Promise((resolve) => {
        const check = () => {
          const m = find();
          if (m) resolve(m);
          return Boolean(m);
        };
        if (!check()) host.waiters.push(check);
      })
    );
  };
  /** Sends a request and resolves with the response to its id. */
  host.request = (message, ms = HANG_MS) => {
    host.send(message);
    return host.waitFor((m) => m.id === message.id && ('result' in m || 'error' in m), `the response to id ${message.id}`, ms);
  };
  /** Resolves with the next message that has id null (errors that belong to no request). */
  host.nextNullIdError = (ms = HANG_MS) => {
    const from = host.messages.length;
    return host.waitFor((m) => m.id === null && m.error, 'an error response with id null', ms, from);
  };
  host.initialize = async (id = 1, version = '2025-11-25') => {
    const res = await host.request(INITIALIZE(id, version));
    host.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return res;
  };
  /** Ends input and waits for the process to exit (or kills it after ms). */
  host.close = async (ms = HANG_MS) => {
    child.stdin.end();
    try {
      return await within(ms, 'mcphost to exit after end of input', host.exit);
    } finally {
      if (!host.exited) child.kill('SIGKILL');
    }
  };
  return host;
}
