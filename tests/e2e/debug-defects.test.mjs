// End-to-end: the smaller debugger defects of issue 17, each through the
// real mcphost binary with the official MCP TypeScript SDK client:
//   (a) frame events come at the rate every_n_frames asks for;
//   (b) a watchpoint on an I/O register ($D020) reports the value before the
//       write (the old border colour), not 0;
//   (c) memory_search finds text stored as screen codes and as PETSCII
//       (encoding), which plain ASCII does not;
//   (d) execution_run_until to an address inside an instruction warns, in
//       the text and the structured result, that it is no instruction start.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { HANG_MS, within } from './lib/env.mjs';


describe('issue 17 defects on a C64', () => {
  let host;
  const { ok } = toolCallers(() => host);
  const frameEvents = (from) =>
    host.received.slice(from)
      .filter((m) => m.method === 'notifications/mcphost/event' && m.params.type === 'frame')
      .map((m) => m.params.detail.frame);
  /** Resolves once `count` frame events came after index `from` (the
   * notifications may arrive after the run's answer). */
  const frames = (from, count) =>
    within(HANG_MS, `${count} frame events`, new Promise((resolve) => {
      const poll = () => {
        const numbers = frameEvents(from);
        if (numbers.length >= count) resolve(numbers);
        else setTimeout(poll, 20);
      };
      poll();
    }));

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--transport', 'stdio'] });
    await ok('execution_run_until', { frames: 60, warp: true, timeout_ms: 20000 });
  });
  after(async () => {
    await host?.close();
  });

  it('(a) frame events at every_n_frames: 5 gives every fifth frame', async () => {
    const sub = await ok('events_subscribe', { types: ['frame'], every_n_frames: 5 });
    assert.equal(sub.structuredContent.every_n_frames, 5);
    let from = host.received.length;
    await ok('execution_run_until', { frames: 40, warp: true, timeout_ms: 20000 });
    const fifth = await frames(from, 8); // 40 frames hold 8 multiples of 5
    for (const n of fifth) assert.equal(n % 5, 0, `frame ${n} is not a fifth: ${fifth}`);
    for (let i = 1; i < fifth.length; i++) assert.equal(fifth[i] - fifth[i - 1], 5, `${fifth}`);

    // Subscribing again replaces the rate: every frame.
    await ok('events_subscribe', { types: ['frame'] });
    from = host.received.length;
    await ok('execution_run_until', { frames: 10, warp: true, timeout_ms: 20000 });
    const every = await frames(from, 10);
    for (let i = 1; i < every.length; i++) assert.equal(every[i] - every[i - 1], 1, `${every}`);
    await ok('events_unsubscribe');
  });

  it('(b) a write watchpoint on $D020 shows the old border colour', async () => {
    await ok('execution_pause');
    await ok('assemble', { address: '$C000', source: 'lda #$02\nsta $d020\nlda #$05\nsta $d020\nloop: jmp loop' });
    await ok('registers_set', { pc: '$C000' });
    await ok('memory_write', { address: '$D020', bytes: '0E' }); // light blue
    const watch = await ok('breakpoints_memory_watch', { address: '$D020' });
    await ok('execution_run');
    const first = (await ok('execution_wait', { timeout_ms: 5000 })).structuredContent.stop.access;
    assert.equal(first.value, 0x02);
    assert.equal(first.old_value & 0x0f, 14, `old colour light blue: ${JSON.stringify(first)}`);
    assert.equal(first.by_pc_hex, '$C002');
    await ok('execution_run');
    const second = (await ok('execution_wait', { timeout_ms: 5000 })).structuredContent.stop.access;
    assert.equal(second.value, 0x05);
    assert.equal(second.old_value & 0x0f, 2, `old colour red: ${JSON.stringify(second)}`);
    await ok('breakpoints_delete', { id: watch.structuredContent.id });
    await ok('execution_pause');
  });

  it('(b) a change watchpoint on $D020 fires when the colour changes, not on the same colour', async () => {
    await ok('execution_pause');
    await ok('assemble', { address: '$C000', source: 'lda #$03\nsta $d020\nsta $d020\nlda #$04\nsta $d020\nloop: jmp loop' });
    await ok('registers_set', { pc: '$C000' });
    await ok('memory_write', { address: '$D020', bytes: '00' });
    const watch = await ok('breakpoints_memory_watch', { address: '$D020', on: 'change' });
    await ok('execution_run');
    const first = (await ok('execution_wait', { timeout_ms: 5000 })).structuredContent.stop;
    assert.equal(first.access.by_pc_hex, '$C002');
    await ok('execution_run');
    const second = (await ok('execution_wait', { timeout_ms: 5000 })).structuredContent.stop;
    assert.equal(second.access.by_pc_hex, '$C00A', 'the second write of the same colour is no change');
    assert.equal(second.access.old_value & 0x0f, 3);
    await ok('breakpoints_delete', { id: watch.structuredContent.id });
    await ok('execution_pause');
  });

  it('(c) memory_search finds screen codes and PETSCII with encoding', async () => {
    await ok('memory_write', { address: '$0500', bytes: '08 05 0C 0C 0F 20 17 0F 12 0C 04' }); // "HELLO WORLD" on screen
    await ok('memory_write', { address: '$0600', bytes: '88 85 8C 8C 8F' }); // "HELLO" in reverse video
    await ok('memory_write', { address: '$C100', bytes: '48 45 4C 4C 4F 40' }); // PETSCII "HELLO@"
    const screen = await ok('memory_search', { text: 'Hello World', encoding: 'screen', address: '$0400', length: 1000 });
    assert.deepEqual(screen.structuredContent.matches.map((m) => m.address_hex), ['$0500']);
    const reverse = await ok('memory_search', { text: 'hello', encoding: 'screen', address: '$0400', length: 1000 });
    assert.deepEqual(reverse.structuredContent.matches.map((m) => m.address_hex), ['$0500', '$0600']);
    assert.match(resultText(reverse), /\$0500 \$0600/);
    const ascii = await ok('memory_search', { text: 'hello', address: '$0400', length: 1000 });
    assert.equal(ascii.structuredContent.count, 0, 'ASCII finds no screen codes');
    const petscii = await ok('memory_search', { text: 'hello@', encoding: 'petscii', address: '$C100', length: 16 });
    assert.deepEqual(petscii.structuredContent.matches.map((m) => m.address_hex), ['$C100']);
    const bad = await host.client.callTool({ name: 'memory_search', arguments: { text: 'a{b', encoding: 'screen' } });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /character 2 .*no screen code/);
  });
});

describe('issue 17: run_until inside an instruction (bare6502)', () => {
  let host;
  const { ok } = toolCallers(() => host);
  before(async () => {
    host = await connectHost({ args: ['--machine', 'bare6502', '--transport', 'stdio'] });
    await ok('assemble', { address: '$0200', source: 'loop: lda $1234\ninc $10\njmp loop' });
  });
  after(async () => {
    await host?.close();
  });

  it('(d) an address inside LDA $1234 is no instruction start: the answer warns', async () => {
    await ok('registers_set', { pc: '$0200' });
    const result = await ok('execution_run_until', { address: '$0201', timeout_ms: 1000 });
    assert.equal(result.structuredContent.state, 'running');
    assert.match(result.structuredContent.warning, /\$0201 is not an instruction start.*\$0200/);
    assert.match(resultText(result).split('\n')[0], /warning: \$0201 is not an instruction start/);
    await ok('execution_pause');
  });

  it('(d) a real instruction start gives no warning', async () => {
    await ok('registers_set', { pc: '$0200' });
    const result = await ok('execution_run_until', { address: '$0203', timeout_ms: 5000 });
    assert.equal(result.structuredContent.stop.pc_hex, '$0203');
    assert.equal(result.structuredContent.warning, undefined);
    assert.doesNotMatch(resultText(result), /not an instruction start/);
    // Nor does a run that never reaches the address but never crosses it.
    await ok('registers_set', { pc: '$0200' });
    const never = await ok('execution_run_until', { address: '$3000', timeout_ms: 500 });
    assert.equal(never.structuredContent.warning, undefined);
    await ok('execution_pause');
  });
});
