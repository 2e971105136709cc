// End-to-end: long operations report MCP progress and can be cancelled
// (issue 17), through the real mcphost binary with the official MCP
// TypeScript SDK client.
//
// - execution_wait sends notifications/progress about once a second when
//   the client gave a progress token, so a client with a 5 s request
//   timeout and resetTimeoutOnProgress survives a 30 s wait (the one test
//   here that takes that long: a program that runs 30 s at real speed);
// - execution_run_until and audio_capture report progress too;
// - notifications/cancelled ends the wait, not the machine's run: the
//   machine is still running afterwards and a later execution_pause works.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText } from './lib/client.mjs';
import { HANG_MS, within } from './lib/env.mjs';

/** The SDK's callTool with request options (timeout, progress, signal). */
async function callWith(host, name, args, options) {
  return host.client.callTool({ name, arguments: args }, undefined, options);
}

describe('progress and cancellation of long waits (bare6502)', () => {
  let host;
  const ok = async (name, args = {}) => {
    const result = await host.client.callTool({ name, arguments: args });
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  /** An endless loop at $0200, PC on it, the machine running. */
  const runForever = async () => {
    await ok('execution_pause');
    await ok('assemble', { address: '$0200', source: 'loop: inc $10\njmp loop' });
    await ok('registers_set', { pc: '$0200' });
    await ok('execution_run');
  };

  before(async () => {
    host = await connectHost({ args: ['--machine', 'bare6502', '--transport', 'stdio'] });
  });
  after(async () => {
    await host?.close();
  });

  it('a 30 s execution_wait survives a 5 s request timeout with resetTimeoutOnProgress', async () => {
    // About 30.2 million cycles of delay loops, then the exit port: at the
    // bare6502's real speed (1 MHz) the program ends after about 30 s.
    await ok('execution_pause');
    await ok('assemble', {
      address: '$0200',
      source: 'lda #92\nsta $10\nouter: ldx #0\nmid: ldy #0\ninner: dey\nbne inner\ndex\nbne mid\n' +
        'dec $10\nbne outer\nlda #7\nsta $f002'
    });
    await ok('registers_set', { pc: '$0200' });
    await ok('execution_run', { warp: false });
    const progress = [];
    const started = Date.now();
    const result = await callWith(host, 'execution_wait', { timeout_ms: 120000 }, {
      timeout: 5000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => progress.push(p)
    });
    const seconds = (Date.now() - started) / 1000;
    assert.ok(!result.isError, resultText(result));
    assert.equal(result.structuredContent.state, 'exited', resultText(result));
    assert.equal(result.structuredContent.stop.exit_code, 7);
    assert.ok(result.structuredContent.cycles > 30000000, `cycles: ${result.structuredContent.cycles}`);
    assert.ok(seconds >= 25, `the program ran ${seconds} s, not about 30: real speed?`);
    assert.ok(progress.length >= 20, `progress notifications: ${progress.length}`);
    for (let i = 1; i < progress.length; i++)
      assert.ok(progress[i].progress > progress[i - 1].progress, 'progress only grows');
    assert.equal(progress.at(-1).total, 120000);
    assert.match(progress[0].message, /waiting for a stop/);
  });

  it('without resetTimeoutOnProgress the same client times out (the test can fail)', async () => {
    await runForever();
    await assert.rejects(
      callWith(host, 'execution_wait', { timeout_ms: 8000 }, { timeout: 2000 }),
      /timed out|Request timed out/i);
    // The timeout cancelled the request: the machine runs on.
    const state = await ok('execution_get_state');
    assert.equal(state.structuredContent.state, 'running');
    await ok('execution_pause');
  });

  it('execution_run_until reports progress while it waits', async () => {
    await ok('execution_pause');
    await ok('assemble', { address: '$0200', source: 'loop: inc $10\njmp loop' });
    await ok('registers_set', { pc: '$0200' });
    const progress = [];
    // $3000 is never reached: the run goes on until the 2.5 s timeout.
    const result = await callWith(host, 'execution_run_until', { address: '$3000', timeout_ms: 2500 }, {
      onprogress: (p) => progress.push(p)
    });
    assert.ok(!result.isError, resultText(result));
    assert.ok(progress.length >= 2, `progress notifications: ${progress.length}`);
    assert.equal(progress[0].total, 2500);
    await ok('execution_pause');
  });

  it('cancelling execution_wait ends the wait, not the run; execution_pause works after', async () => {
    await runForever();
    const controller = new AbortController();
    const started = Date.now();
    // Cancel once the server shows it is waiting (its first progress).
    let waitingNow;
    const firstProgress = new Promise((resolve) => { waitingNow = resolve; });
    const waiting = callWith(host, 'execution_wait', { timeout_ms: 60000 },
      { signal: controller.signal, onprogress: () => waitingNow() });
    await within(HANG_MS, 'the first progress of the wait', firstProgress);
    controller.abort('the agent changed its mind');
    await assert.rejects(waiting, /abort|cancel|changed its mind/i);
    // The server got notifications/cancelled and ended the wait: the next
    // request is answered at once, and the machine still runs.
    const before = (await ok('registers_get')).structuredContent.cycles;
    const state = await ok('execution_get_state');
    assert.ok(Date.now() - started < 20000, 'the cancelled wait did not hold up the session');
    assert.equal(state.structuredContent.state, 'running', 'the machine is still running');
    const paused = await ok('execution_pause');
    assert.notEqual(paused.structuredContent.state, 'running', 'execution_pause stopped it');
    const after = (await ok('registers_get')).structuredContent.cycles;
    assert.ok(after > before, `the machine ran on after the cancel (${before} -> ${after} cycles)`);
    // The server sent no answer to the cancelled request, not even once the
    // pause stopped the machine (the SDK reports an answer to a request it
    // no longer waits for as an error); registers_get above answered after
    // the pause.
    assert.deepEqual(host.errors.map(String), [], 'no answer to the cancelled request');
    const ids = host.received.filter((m) => m.id !== undefined && (m.result || m.error)).map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, 'one answer per request');
  });
});

describe('audio_capture reports progress (C64)', () => {
  let host;
  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--transport', 'stdio'] });
  });
  after(async () => {
    await host?.close();
  });

  it('a one-second capture sends progress as the samples come', async () => {
    const progress = [];
    const result = await callWith(host, 'audio_capture', { milliseconds: 1000 }, {
      onprogress: (p) => progress.push(p)
    });
    assert.ok(!result.isError, resultText(result));
    assert.ok(progress.length >= 5, `progress notifications: ${progress.length}`);
    assert.equal(progress.at(-1).total, result.structuredContent.samples);
    assert.match(progress[0].message, /captured \d+ of \d+ samples/);
  });
});
