// End-to-end: the VIC-II and CIA toolsets in the real mcphost binary, driven
// by the official MCP TypeScript SDK client over stdio. A C64 boots the Open
// ROMs (warp, with a cycle limit far away so it keeps running); CIA1's timer
// A moves between two reads, and on bare6502 (no VIC-II) the host refuses a
// VIC-II tool naming the tool, the machine and the chip. (The screen itself:
// screen.test.mjs.)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';
import { HANG_MS, MCPHOST_BIN, sleep } from './lib/env.mjs';

const PLUGIN_DIR = join(dirname(MCPHOST_BIN), '..', 'lib', 'mcphost', 'plugins');

for (const plugin of ['tools-vic2.so', 'tools-cia.so', 'machine-c64.so']) {
  if (!existsSync(join(PLUGIN_DIR, plugin)))
    throw new Error(`${plugin} is not in ${PLUGIN_DIR}: build it first (cmake --build <build> --target tools-vic2 tools-cia machine-c64)`);
}

async function call(host, name, args = {}) {
  return host.client.callTool({ name, arguments: args });
}

describe('tools-vic2 and tools-cia on a running C64', () => {
  let host;
  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--warp', '--limit-cycles', '4000000000', '--transport', 'stdio'] });
  });
  after(async () => {
    await host?.close();
  });

  it('the tools are listed with their seed names mapped', async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['vic2_registers_get', 'vic2_registers_set', 'vic2_sprites_get', 'vic2_sprites_set',
      'vic2_sprite_image', 'vic2_raster_get', 'vic2_borders_get',
      'vic2_memory_map', 'cia_registers_get', 'cia_timers_get', 'cia_registers_set', 'cia_keyboard_matrix'])
      assert.ok(names.includes(name), `${name} is listed`);
    const sprites = tools.find((t) => t.name === 'vic2_sprites_get');
    assert.ok(sprites.inputSchema.properties.session, 'the host adds session');
    assert.match(sprites.inputSchema.properties.instance.description, /"vic2"/, 'and instance, naming the chip');
  });

  it('cia1 timer A moves between two reads of the running machine', async () => {
    const a = await call(host, 'cia_timers_get', { instance: 'cia1' });
    assert.equal(a.isError, false, resultText(a));
    const ta = a.structuredContent.timer_a;
    assert.equal(ta.running, true);
    // Read again until the machine has moved on (a timer period is 1/60 s).
    let tb = ta;
    const until = Date.now() + HANG_MS;
    while (tb.underflows <= ta.underflows && Date.now() < until) {
      await sleep(20);
      tb = (await call(host, 'cia_timers_get', { instance: 'cia1' })).structuredContent.timer_a;
    }
    assert.ok(tb.underflows > ta.underflows, `the KERNAL interrupt timer underflowed in between: ${JSON.stringify(ta)} then ${JSON.stringify(tb)}`);
    assert.equal(tb.latch, ta.latch, 'the latch stays');
  });

  it('bad inputs are tool errors that say what to do', async () => {
    const res = await call(host, 'vic2_registers_set', { register: '$D400', value: 1 });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /not a VIC-II register/);
    const wrong = await call(host, 'cia_keyboard_matrix', { instance: 'cia2' });
    assert.equal(wrong.isError, true);
    assert.match(resultText(wrong), /cia1/);
  });
});

describe('tools-vic2 on a machine without a VIC-II', () => {
  let host;
  before(async () => {
    host = await connectHost({ args: ['--machine', 'bare6502'] });
  });
  after(async () => {
    await host?.close();
  });

  it('a VIC-II tool names the tool, the machine and the missing chip', async () => {
    const res = await call(host, 'vic2_registers_get');
    assert.equal(res.isError, true);
    const text = resultText(res);
    assert.match(text, /vic2_registers_get/);
    assert.match(text, /bare6502/);
    assert.match(text, /VIC-II/);
  });
});

// A raster-IRQ split: border 2 from line 100, 6 from line 200 (the second
// store goes through the mirror $D060). KERNAL banked out, IRQ via $FFFE.
const SPLIT_SOURCE = `
        *= $C000
start:  SEI
        LDA #$7F
        STA $DC0D
        STA $DD0D
        LDA $DC0D
        LDA $DD0D
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
        LDA #$01
        STA $D01A
        STA $D019
        CLI
loop:   JMP loop
irq:    PHA
        LDA $D012
        CMP #200
        BCS low
        LDA #2
        STA $D020
        LDA #200
        STA $D012
        JMP done
low:    LDA #6
        STA $D060
        LDA #100
        STA $D012
done:   LDA #$01
        STA $D019
        PLA
        RTI
`;

describe('state-based VIC-II breakpoints through the binary', () => {
  let host;
  const ok = async (name, args) => {
    const res = await call(host, name, args);
    assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
    return res;
  };
  const runToStop = async () => {
    await ok('execution_run', { warp: true });
    const res = await ok('execution_wait', { timeout_ms: 10000 });
    return res.structuredContent.stop ?? res.structuredContent;
  };

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64'] });
    await ok('execution_run_until', { cycles: 3000000, warp: true, timeout_ms: 60000 });
    await ok('assemble', { address: '$C000', source: SPLIT_SOURCE });
    await ok('registers_set', { pc: '$C000' });
    await ok('execution_run_until', { frames: 3, warp: true });
  });
  after(async () => {
    await host?.close();
  });

  it('breakpoints_raster stops the raster-IRQ program on line 100 in its first cycles', async () => {
    const set = await ok('breakpoints_raster', { line: 100 });
    assert.equal(set.structuredContent.kind, 'raster');
    for (let i = 0; i < 2; i++) {
      const stop = await runToStop();
      assert.equal(stop.state, 'stopped');
      assert.equal(stop.breakpoint.detail.line, 100, JSON.stringify(stop));
      assert.ok(stop.breakpoint.detail.cycle >= 1 && stop.breakpoint.detail.cycle <= 10, `cycle ${stop.breakpoint.detail.cycle}`);
      assert.equal(stop.raster.line, 100);
    }
    await ok('breakpoints_delete', { all: true });
  });

  it('breakpoints_sprite_collision stops on the first line two sprites overlap', async () => {
    await ok('breakpoints_sprite_collision', { kind: 'sprite_sprite', sprites: [0, 1] });
    await ok('vic2_sprites_set', { sprite: 0, x: 100, y: 120, enabled: true, pointer: 13, data: Array(63).fill(255) });
    await ok('vic2_sprites_set', { sprite: 1, x: 110, y: 125, enabled: true, pointer: 13 });
    const stop = await runToStop();
    assert.equal(stop.breakpoint.detail.collision, 'sprite_sprite');
    assert.deepEqual(stop.breakpoint.detail.sprites, [0, 1]);
    assert.ok(stop.breakpoint.detail.line >= 125 && stop.breakpoint.detail.line <= 127, `line ${stop.breakpoint.detail.line}`);
    await ok('breakpoints_delete', { all: true });
    await ok('vic2_sprites_set', { sprite: 0, enabled: false });
    await ok('vic2_sprites_set', { sprite: 1, enabled: false });
  });

  it('breakpoints_vic_register_write logs the $D020 writes of one frame', async () => {
    const set = await ok('breakpoints_vic_register_write', { register: '$D020', frames: 1 });
    assert.equal(set.structuredContent.log_only, true);
    const id = set.structuredContent.id;
    await ok('execution_run_until', { frames: 4, warp: true });
    const trace = await ok('breakpoints_trace', {});
    const writes = trace.structuredContent.entries.filter((e) => e.breakpoint === id);
    assert.ok(writes.length >= 1 && writes.length <= 2, `one frame of writes, not four: ${JSON.stringify(writes)}`);
    for (const w of writes) {
      assert.equal(w.access.address & 0xfc3f, 0xd020, 'a $D020 mirror');
      assert.ok([2, 6].includes(w.access.value));
      assert.equal(w.raster.line, w.access.value === 2 ? 100 : 200);
    }
    await ok('breakpoints_delete', { all: true });
  });
});
