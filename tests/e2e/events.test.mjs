// End-to-end: machine session events (events_subscribe) through the real
// mcphost binary over stdio with the official MCP TypeScript SDK client.
// Every type events_subscribe offers arrives as notifications/mcphost/event
// when its cause happens on a C64 (issue 20, item 12: none may be offered
// and never sent).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText } from './lib/client.mjs';
import { within } from './lib/env.mjs';

const OFFERED = ['stopped', 'resumed', 'breakpoint', 'jammed', 'reset', 'frame', 'exited', 'log'];

describe('events: every offered type is sent', () => {
  let host;
  const call = async (name, args = {}) => {
    const result = await host.client.callTool({ name, arguments: args });
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  const events = (from = 0) =>
    host.received.slice(from).filter((m) => m.method === 'notifications/mcphost/event').map((m) => m.params);
  /** Resolves with the first event of `type` received after index `from`. */
  const nextEvent = (type, from, ms = 20000) =>
    within(ms, `a "${type}" event`, new Promise((resolve) => {
      const poll = () => {
        const e = events(from).find((p) => p.type === type);
        if (e) resolve(e);
        else setTimeout(poll, 20);
      };
      poll();
    }));
  /** Puts 6502 code at $C000 and the PC on it. */
  const program = async (source) => {
    await call('execution_pause');
    await call('assemble', { address: '$C000', source });
    await call('registers_set', { pc: '$C000' });
  };

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--config', 'debugcart=true', '--transport', 'stdio', '--no-confirm'] });
    await call('execution_step'); // to an instruction boundary, so registers can be set
  });
  after(async () => {
    await host?.close();
  });

  it('events_subscribe offers exactly the types below and takes them all', async () => {
    const sub = await call('events_subscribe', { types: OFFERED });
    assert.deepEqual([...sub.structuredContent.types].sort(), [...OFFERED].sort());
    const tools = (await host.client.listTools()).tools;
    const schema = tools.find((t) => t.name === 'events_subscribe').inputSchema;
    assert.deepEqual([...schema.properties.types.items.enum].sort(), [...OFFERED].sort());
  });

  it('resumed, frame and stopped: a run of frames', async () => {
    const from = host.received.length;
    await call('execution_run_until', { frames: 3, warp: true, timeout_ms: 20000 });
    const resumed = await nextEvent('resumed', from);
    assert.equal(resumed.session, 'c64-1');
    const frame = await nextEvent('frame', from);
    assert.equal(typeof frame.detail.frame, 'number');
    assert.ok(frame.detail.cycles > 0);
    await nextEvent('stopped', from);
  });

  it('frames come one per frame while running, each number once', async () => {
    const from = host.received.length;
    await call('execution_run_until', { frames: 10, warp: true, timeout_ms: 20000 });
    await nextEvent('stopped', from);
    const numbers = events(from).filter((e) => e.type === 'frame').map((e) => e.detail.frame);
    assert.ok(numbers.length >= 9, `frames seen: ${numbers}`);
    for (let i = 1; i < numbers.length; i++) assert.equal(numbers[i], numbers[i - 1] + 1, `consecutive: ${numbers}`);
  });

  it('log (a tracepoint hit) and breakpoint', async () => {
    await program('loop: NOP\nINX\nJMP loop\n');
    await call('breakpoints_set', { address: '$C000', log_only: true });
    await call('breakpoints_set', { address: '$C001', ignore_count: 2 });
    const from = host.received.length;
    await call('execution_run');
    const log = await nextEvent('log', from);
    assert.equal(log.detail.pc, 0xc000, JSON.stringify(log));
    const hit = await nextEvent('breakpoint', from);
    assert.equal(hit.detail.pc, 0xc001, JSON.stringify(hit));
    await call('breakpoints_delete', { all: true });
  });

  it('reset', async () => {
    const from = host.received.length;
    await call('machine_reset', { mode: 'soft' });
    const reset = await nextEvent('reset', from);
    assert.equal(reset.detail.mode, 'soft');
  });

  it('jammed', async () => {
    await call('execution_step'); // out of the reset sequence
    await program('.byte $02\n'); // JAM
    const from = host.received.length;
    await call('execution_run');
    const jam = await nextEvent('jammed', from);
    assert.equal(jam.detail.pc, 0xc000, JSON.stringify(jam));
  });

  it('exited (the program ends the run through the debug cart)', async () => {
    await call('machine_reset', { mode: 'hard' });
    await call('execution_step');
    await program('LDA #$07\nSTA $D7FF\n');
    const from = host.received.length;
    await call('execution_run');
    const exited = await nextEvent('exited', from);
    assert.equal(exited.detail.exitCode, 7);
  });

  it('events_unsubscribe stops them', async () => {
    await call('events_unsubscribe');
    const from = host.received.length;
    await call('execution_run_until', { frames: 2, warp: true, timeout_ms: 20000 });
    await call('ping');
    assert.deepEqual(events(from), [], 'no events after unsubscribing');
  });
});
