// End-to-end: confirmation of destructive calls (issue #19) through the real
// binary and the official SDK client over stdio: a hard reset, snapshot_load
// over the current state, replacing a file with overwrite: true and
// destroying a running session first answer requires_confirmation with a
// single-use token; the call goes ahead only when repeated with it as
// `confirm`. Refused without a token, accepted with it, refused when the
// token expired, was used, or was given for another call. A client that
// declared elicitation is asked instead; --no-confirm turns it all off.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { MCPHOST_BIN, hostArgs, sleep } from './lib/env.mjs';

const TOKEN_RE = /requires_confirmation: .*"confirm": "([0-9a-f]{32})"/s;

function callers(hostOf) {
  const { call, ok, refused } = toolCallers(hostOf);
  /** The call is answered with requires_confirmation; returns the token. */
  const token = async (name, args = {}) => {
    const r = await call(name, args);
    assert.equal(r.isError, true, `${name} should ask first: ${resultText(r)}`);
    const m = resultText(r).match(TOKEN_RE);
    assert.ok(m, `a token in: ${resultText(r)}`);
    return m[1];
  };
  return { call, ok, token, refused };
}

describe('confirmation tokens', () => {
  let host, dir;
  const { ok, token, refused } = callers(() => host);
  const peek = async (address) => (await ok('memory_read', { address, length: 1 })).structuredContent.hex.trim().toUpperCase();

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-confirm-')));
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir] });
  });
  after(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a hard reset: refused without a token, done with it, the token single-use', async () => {
    await ok('memory_write', { address: '$C000', bytes: '42' });
    const t = await token('machine_reset', { mode: 'hard' });
    assert.equal(await peek('$C000'), '42', 'nothing happened yet');
    const done = await ok('machine_reset', { mode: 'hard', confirm: t });
    assert.equal(done.structuredContent.mode, 'hard');
    assert.notEqual(await peek('$C000'), '42', 'the power cycle cleared RAM');
    await refused('machine_reset', { mode: 'hard', confirm: t }, /already used/);
    // A soft reset loses nothing: no question.
    await ok('machine_reset', { mode: 'soft' });
  });

  it('a token is only good for the call it was given for', async () => {
    const t = await token('machine_reset', { mode: 'hard' });
    await ok('snapshot_save', { path: 'a.mhsnap' });
    await ok('memory_write', { address: '$C000', bytes: '11' });
    await refused('snapshot_load', { path: 'a.mhsnap', confirm: t }, /another call/);
    await refused('machine_reset', { mode: 'hard', confirm: 'f'.repeat(32) }, /unknown/);
    await ok('machine_reset', { mode: 'hard', confirm: t }); // still good for its own call
  });

  it('snapshot_load over the current state and replacing a snapshot file ask first', async () => {
    await ok('snapshot_save', { path: 'b.mhsnap' });
    const before = readFileSync(join(dir, 'b.mhsnap'));
    await ok('memory_write', { address: '$C000', bytes: '77' });
    const t = await token('snapshot_load', { path: 'b.mhsnap' });
    assert.equal(await peek('$C000'), '77');
    await ok('snapshot_load', { path: 'b.mhsnap', confirm: t });
    assert.notEqual(await peek('$C000'), '77', 'the snapshot came back');
    // overwrite: true over an existing file.
    const o = await token('snapshot_save', { path: 'b.mhsnap', overwrite: true });
    assert.deepEqual(readFileSync(join(dir, 'b.mhsnap')), before, 'the file is untouched');
    await ok('snapshot_save', { path: 'b.mhsnap', overwrite: true, confirm: o });
    // Nothing changed since that save: loading it back loses nothing, so no question.
    await ok('snapshot_load', { path: 'b.mhsnap' });
    // overwrite: true where nothing exists replaces nothing: no question.
    await ok('snapshot_save', { path: 'new.mhsnap', overwrite: true });
  });

  it('destroying a running session asks; a paused one does not', async () => {
    await ok('session_create', { machine: 'bare6502', name: 'runner', select: false });
    await ok('execution_run', { session: 'runner', warp: true });
    const t = await token('session_destroy', { session: 'runner' });
    assert.ok((await ok('session_list')).structuredContent.sessions.some((s) => s.name === 'runner'));
    await ok('session_destroy', { session: 'runner', confirm: t });
    await ok('session_create', { machine: 'bare6502', name: 'idle', select: false });
    await ok('session_destroy', { session: 'idle' });
  });
});

describe('confirmation tokens expire', () => {
  let host;
  const { ok, token, refused } = callers(() => host);
  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--confirm-ttl', '1'] });
  });
  after(async () => host?.close());

  it('a token older than --confirm-ttl is refused; a fresh one works', async () => {
    const t = await token('machine_reset', { mode: 'hard' });
    await sleep(1500);
    await refused('machine_reset', { mode: 'hard', confirm: t }, /expired/);
    await ok('machine_reset', { mode: 'hard', confirm: await token('machine_reset', { mode: 'hard' }) });
  });
});

describe('--no-confirm', () => {
  let host;
  const { ok } = callers(() => host);
  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--no-confirm'] });
  });
  after(async () => host?.close());

  it('a script does not need tokens', async () => {
    assert.equal((await ok('machine_reset', { mode: 'hard' })).structuredContent.mode, 'hard');
  });
});

describe('a client that can answer elicitation is asked instead', () => {
  let client, answer;
  const asked = [];
  before(async () => {
    const transport = new StdioClientTransport({ command: MCPHOST_BIN, args: hostArgs('--machine', 'fixture'), stderr: 'pipe' });
    client = new Client({ name: 'mcphost-e2e-elicit', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer;
    });
    await client.connect(transport);
  });
  after(async () => client?.close());

  it('yes goes ahead, no leaves the session alone', async () => {
    const call = (name, args) => client.callTool({ name, arguments: args });
    await call('session_create', { machine: 'bare6502', name: 'e1', select: false });
    await call('execution_run', { session: 'e1', warp: true });
    answer = { action: 'decline' };
    const declined = await call('session_destroy', { session: 'e1' });
    assert.equal(declined.isError, true);
    assert.match(resultText(declined), /declined/);
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /running/);
    answer = { action: 'accept', content: { confirm: true } };
    const accepted = await call('session_destroy', { session: 'e1' });
    assert.equal(accepted.isError, false, resultText(accepted));
    assert.equal(asked.length, 2);
    const list = (await call('session_list', {})).structuredContent.sessions.map((s) => s.name);
    assert.ok(!list.includes('e1'));
  });
});
