// End-to-end (issue #18, traces): through the real mcphost binary with the
// official MCP SDK client.
//   - C64: a program assembled in the test sets a raster IRQ (KERNAL banked
//     out, its own $FFFE vector) that turns the border red on line 100 and
//     black on line 150. trace_frame_start/get lists the $D020 writes (EC,
//     "border colour = 2 (red)") on those lines; trace_events_get shows the
//     VIC-II raster compare hits and IRQs, the CPU taking them, bad lines,
//     sprite 0's DMA, and CIA 1's timer A underflows; trace_cycles_get over the handler gives the
//     handler's known length (32 cycles one way, 33 the other, RTI
//     included).
//   - C64: two sprites overlapping and one meeting a character, with the
//     collision IRQs on, log their collision and IRQ events (sprites, line);
//     the light pen pulled low through CIA 1 logs its latch.
//   - VIC-20 and Plus/4 (their built-in boot ROMs): a loop writing the
//     border register shows up in the frame trace with the VIC's/TED's
//     register name, and the event log has the boot ROM's timer (VIA 2) or
//     raster (TED) interrupts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';

const SPLIT = `start   SEI
        LDA #$2F
        STA $00
        LDA #$35
        STA $01
        LDA #<irq
        STA $FFFE
        LDA #>irq
        STA $FFFF
        LDA #$1B
        STA $D011
        LDA #100
        STA $D012
        LDA #1
        STA $D01A
        LDA #$7F
        STA $DC0D
        LDA $DC0D
        LDA #120
        STA $D001
        LDA #1
        STA $D015
        LDA #$FF
        STA $D019
        CLI
loop    JMP loop
irq     LDA #$FF
        STA $D019
        LDA $D012
        CMP #100
        BNE second
        LDA #2
        STA $D020
        LDA #150
        STA $D012
        RTI
second  LDA #0
        STA $D020
        LDA #100
        STA $D012
        RTI
`;

describe('traces on the C64: a raster split', () => {
  let host;
  const { ok } = toolCallers(() => host);

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--no-confirm'] });
    // let the KERNAL boot: it starts CIA 1's timer A (its IRQ is masked below)
    await ok('execution_run_until', { frames: 20 });
    await ok('execution_wait', { timeout_ms: 10000 });
    await ok('assemble', { address: '$C000', source: SPLIT, keep_labels: true });
    await ok('registers_set', { pc: '$C000' });
    await ok('execution_run_until', { address: 'loop' });
    await ok('execution_wait', { timeout_ms: 10000 });
    await ok('trace_cycles_get', { start: 'irq' });
    await ok('trace_events_get', { size: 8192 });
    const armed = await ok('trace_frame_start', { chip: 'vic2', frames: 1 });
    assert.equal(armed.structuredContent.state, 'waiting');
    await ok('execution_run_until', { frames: 4 });
    await ok('execution_wait', { timeout_ms: 10000 });
  });
  after(async () => host?.close());

  it('the frame trace lists the $D020 writes on lines 100 and 150', async () => {
    const r = await ok('trace_frame_get', { order: 'oldest', count: 100 });
    const s = r.structuredContent;
    assert.equal(s.state, 'done', resultText(r));
    assert.equal(s.frames_done, 1);
    const border = s.writes.filter((w) => w.address === 0xd020);
    assert.equal(border.length, 2, resultText(r));
    assert.deepEqual(border.map((w) => [w.line, w.value, w.register, w.chip]),
      [[100, 2, 'EC', 'vic2'], [150, 0, 'EC', 'vic2']]);
    assert.equal(border[0].meaning, 'border colour = 2 (red)');
    assert.ok(border[0].cycle < border[1].cycle);
    // the handler's other writes: $D019 acknowledges, $D012 the next line
    const raster = s.writes.filter((w) => w.register === 'RASTER').map((w) => w.value);
    assert.deepEqual(raster, [150, 100]);
    assert.ok(s.writes.every((w) => w.address >= 0xd000 && w.address < 0xd400));
    assert.match(resultText(r), /\$D020 vic2 EC = \$02 border colour = 2 \(red\)/);
    // paging: one row from offset 1, more after it
    const page = (await ok('trace_frame_get', { order: 'oldest', count: 1, offset: 1 })).structuredContent;
    assert.equal(page.writes.length, 1);
    assert.deepEqual(page.writes[0], s.writes[1]);
    assert.equal(page.more, true);
  });

  it('trace_events_get shows the raster IRQs with their source and CIA 1 underflows', async () => {
    const r = await ok('trace_events_get', { kind: 'raster', count: 20 });
    const lines = new Set(r.structuredContent.events.map((e) => `${e.chip}:${e.detail}:${e.line}`));
    assert.ok(lines.has('vic2:100:100') && lines.has('vic2:150:150'), resultText(r));
    const irq = (await ok('trace_events_get', { kind: 'irq', count: 20 })).structuredContent.events;
    assert.ok(irq.length >= 4 && irq.every((e) => e.chip === 'vic2' && e.detail === 1), JSON.stringify(irq));
    const taken = (await ok('trace_events_get', { kind: 'taken', count: 20 })).structuredContent.events;
    assert.ok(taken.length >= 4, JSON.stringify(taken));
    assert.ok(taken.every((e) => e.chip === 'cpu' && e.detail === 0 && e.pc === 0xc03d), JSON.stringify(taken));
    const timers = (await ok('trace_events_get', { kind: 'timer', count: 50 })).structuredContent.events;
    assert.ok(timers.some((e) => e.chip === 'cia1' && e.detail === 0), JSON.stringify(timers.slice(0, 5)));
    // bad lines: $30-$F7 where the line's low bits match YSCROLL (3)
    const bad = (await ok('trace_events_get', { kind: 'badline', count: 100 })).structuredContent;
    assert.ok(bad.matched >= 25 && bad.events.every((e) => e.detail % 8 === 3 && e.detail >= 0x30 && e.detail <= 0xf7),
      JSON.stringify(bad.events.slice(0, 5)));
    // sprite 0 (Y = 120): its DMA begins on line 120 once a frame
    const dma = (await ok('trace_events_get', { kind: 'sprite_dma', count: 10 })).structuredContent.events;
    assert.ok(dma.length >= 2 && dma.every((e) => e.detail === 1 && e.line === 120), JSON.stringify(dma));
    // events are cycle-stamped, newest first by default
    const all = (await ok('trace_events_get', { count: 30 })).structuredContent;
    for (let i = 1; i < all.events.length; i++) assert.ok(all.events[i - 1].cycle >= all.events[i].cycle);
  });

  it('trace_cycles_get gives the handler\'s length (32 and 33 cycles)', async () => {
    const r = await ok('trace_cycles_get');
    const [k] = r.structuredContent.counters;
    assert.equal(k.start, 0xc03d, resultText(r));
    assert.ok(k.runs >= 6, resultText(r));
    assert.equal(k.min, 32);
    assert.equal(k.max, 33);
    assert.ok(k.avg > 32.3 && k.avg < 32.7, resultText(r));
    const reset = await ok('trace_cycles_reset', { start: 'irq' });
    assert.equal(reset.structuredContent.counters[0].runs, 0);
    await ok('trace_cycles_reset', { remove: true });
    assert.equal((await ok('trace_cycles_get')).structuredContent.counters.length, 0);
  });
});

// Sprites 0 and 1 overlap from line 186 (sprite 1's first line: Y 185 + 1);
// sprite 2 (Y 166, X 190-213) meets a solid character (screen code $A0,
// row 15, column 22: X 200-207, lines 171-178) on line 171. The handler
// only acknowledges, so the collision registers keep their sprites and
// each collision is latched once. Then the program pulls /LP low through
// CIA 1 PB4 on line 200 and lets it go again.
const COLLIDE = `start   SEI
        LDA #$2F
        STA $00
        LDA #$35
        STA $01
        LDA #<irq
        STA $FFFE
        LDA #>irq
        STA $FFFF
        LDA #$7F
        STA $DC0D
        LDA $DC0D
        LDX #0
        LDA #$20
clr     STA $0400,X
        STA $0500,X
        STA $0600,X
        STA $06E8,X
        INX
        BNE clr
        LDA #$A0
        STA $066E
        LDX #62
        LDA #$FF
fill    STA $0340,X
        DEX
        BPL fill
        LDA #13
        STA $07F8
        STA $07F9
        STA $07FA
        LDA #100
        STA $D000
        LDA #180
        STA $D001
        LDA #110
        STA $D002
        LDA #185
        STA $D003
        LDA #190
        STA $D004
        LDA #166
        STA $D005
        LDA #0
        STA $D010
        LDA #$0E
        STA $D01A
        LDA #$FF
        STA $D019
        LDA #$07
        STA $D015
        CLI
        LDA #$10
        STA $DC01
        STA $DC03
wait    LDA $D012
        CMP #200
        BNE wait
        LDA #$00
        STA $DC01
        LDA #$10
        STA $DC01
loop    JMP loop
irq     PHA
        LDA #$FF
        STA $D019
        PLA
        RTI
`;

describe('traces on the C64: sprite collisions and the light pen', () => {
  let host;
  const { ok } = toolCallers(() => host);

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--no-confirm'] });
    await ok('execution_run_until', { frames: 20 });
    await ok('execution_wait', { timeout_ms: 10000 });
    await ok('assemble', { address: '$C000', source: COLLIDE, keep_labels: true });
    await ok('registers_set', { pc: '$C000' });
    await ok('trace_events_get', { size: 8192 });
    await ok('execution_run_until', { frames: 4 });
    await ok('execution_wait', { timeout_ms: 10000 });
  });
  after(async () => host?.close());

  it('logs each collision once, with its sprites and line, and the IRQ it raised', async () => {
    const r = await ok('trace_events_get', { kind: 'collision', order: 'oldest', count: 20 });
    const hits = r.structuredContent.events.map((e) => [e.chip, e.detail, e.line]);
    // detail: the sprites, $100 for sprite-background
    assert.deepEqual(hits.slice().sort((a, b) => a[2] - b[2]),
      [['vic2', 0x104, 171], ['vic2', 0x03, 186]], resultText(r));
    assert.match(resultText(r), /sprite-background collision, sprites \$04/);
    assert.match(resultText(r), /sprite-sprite collision, sprites \$03/);
    const irq = (await ok('trace_events_get', { kind: 'irq', order: 'oldest', count: 20 })).structuredContent.events;
    const sources = irq.filter((e) => e.chip === 'vic2').map((e) => [e.detail, e.line]);
    // VIC-II IRQ sources: 2 sprite-background, 4 sprite-sprite, 8 light pen
    assert.ok(sources.some(([d, l]) => d === 2 && l === 171), JSON.stringify(irq));
    assert.ok(sources.some(([d, l]) => d === 4 && l === 186), JSON.stringify(irq));
    const text = resultText(await ok('trace_events_get', { kind: 'irq', count: 20 }));
    assert.match(text, /vic2 raised IRQ, sources \$02 \(sprite-background\)/);
    assert.match(text, /vic2 raised IRQ, sources \$04 \(sprite-sprite\)/);
  });

  it('logs the light pen trigger with its line and X, once', async () => {
    const r = await ok('trace_events_get', { kind: 'lightpen', count: 20 });
    const pens = r.structuredContent.events;
    assert.equal(pens.length, 1, resultText(r));
    assert.equal(pens[0].line, 200);
    assert.equal(pens[0].detail >> 8, 200);
    // the low byte is what the program reads from LPX ($D013)
    const lpx = parseInt((await ok('memory_read', { address: '$D013', length: 1 })).structuredContent.hex.trim(), 16);
    assert.equal(pens[0].detail & 0xff, lpx);
    const irq = (await ok('trace_events_get', { kind: 'irq', count: 50 })).structuredContent.events;
    assert.ok(irq.some((e) => e.chip === 'vic2' && e.detail === 8 && e.line === 200), JSON.stringify(irq));
    assert.match(resultText(r), /vic2 light pen latched X\/2 \$[0-9A-F]{2} line 200/);
  });
});

const BORDER_LOOP = (store) => `start   LDX #0
loop    INX
        STX ${store}
        JMP loop
`;
const OTHERS = [
  { name: 'vic20', base: '$1400', chip: 'vic', register: 'CRF', address: 0x900f, timer: 'via2' },
  { name: 'plus4', base: '$3000', chip: 'ted', register: 'BORDER', address: 0xff19, raster: 'ted' },
];

for (const m of OTHERS) {
  describe(`traces on the ${m.name}`, () => {
    let host;
    const { ok } = toolCallers(() => host);
    before(async () => {
      host = await connectHost({ args: ['--machine', m.name, '--no-confirm'] });
      await ok('execution_run_until', { frames: 10 });
      await ok('execution_wait', { timeout_ms: 10000 });
      await ok('assemble', { address: m.base, source: BORDER_LOOP('$' + m.address.toString(16).toUpperCase()), keep_labels: true });
      await ok('registers_set', { pc: m.base });
      await ok('trace_events_get', { size: 4096 });
      await ok('trace_frame_start', { chip: m.chip, registers: m.register, capacity: 50 });
      await ok('execution_run_until', { frames: 3 });
      await ok('execution_wait', { timeout_ms: 10000 });
    });
    after(async () => host?.close());

    it('the frame trace names the border register', async () => {
      const r = await ok('trace_frame_get', { order: 'oldest', count: 5 });
      const s = r.structuredContent;
      assert.equal(s.recorded, 50, resultText(r));
      assert.ok(s.dropped > 0);
      assert.ok(s.writes.every((w) => w.address === m.address && w.register === m.register && w.chip === m.chip), resultText(r));
      assert.equal((s.writes[1].value - s.writes[0].value) & 0xff, 1);
    });

    it('the event log has the machine\'s interrupt sources', async () => {
      const r = await ok('trace_events_get', { count: 200 });
      const ev = r.structuredContent.events;
      if (m.timer) assert.ok(ev.some((e) => e.kind === 'timer' && e.chip === m.timer), resultText(r).slice(0, 2000));
      if (m.raster) assert.ok(ev.some((e) => e.kind === 'raster' && e.chip === m.raster), resultText(r).slice(0, 2000));
      assert.ok(ev.some((e) => e.kind === 'taken' && e.detail === 0), resultText(r).slice(0, 2000));
    });
  });
}
