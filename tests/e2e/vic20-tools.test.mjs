// End-to-end: the VIA and VIC toolsets on a VIC-20 in the real mcphost
// binary, driven by the official MCP TypeScript SDK client over stdio. The
// VIC-20 boots its original ROMs (../shared/roms/VIC20 or
// $MCPHOST_TEST_ROMS; skipped, saying so, when absent): VIA2's T1 (the
// KERNAL's 60 Hz interrupt) counts between two reads of the running
// machine; a VIA register written reads back and an address of the other
// VIA is refused naming it; vic_registers_get decodes the screen address;
// vic_breakpoints_raster stops on its line; the VIC-II tools are not
// listed and answer "not available" naming the VIC.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { HANG_MS, sleep } from './lib/env.mjs';
import { romDir, skipReason } from './lib/roms.mjs';
import { schemaProblems } from './lib/schema-checks.mjs';

const skip = skipReason('VIC20');
if (skip) console.log(`vic20-tools: ${skip}`);

describe('tools-via and tools-vic on a running VIC-20', { skip }, () => {
  let host;
  const { call, ok } = toolCallers(() => host);

  before(async () => {
    host = await connectHost({ args: ['--machine', 'vic20', '--rom-dir', romDir('VIC20'), '--warp'] });
    await ok('execution_run_until', { cycles: 3000000, warp: true, timeout_ms: 60000 });
    await ok('execution_run', { warp: true });
  });
  after(async () => {
    await host?.close();
  });

  it('lists the VIA and VIC tools and not the VIC-II, SID or CIA ones', async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['via_registers_get', 'via_timers_get', 'via_registers_set', 'vic_registers_get',
      'vic_registers_set', 'vic_breakpoints_raster', 'screen_text'])
      assert.ok(names.includes(name), `${name} is listed`);
    for (const name of ['vic2_registers_get', 'sid_voices_get', 'cia_timers_get', 'ted_timers_get'])
      assert.ok(!names.includes(name), `${name} is not listed on a VIC-20`);
    assert.match(tools.find((t) => t.name === 'via_timers_get').inputSchema.properties.instance.description, /"via2"/);
    assert.match(tools.find((t) => t.name === 'vic_registers_get').inputSchema.properties.instance.description, /"vic"/);
    assert.deepEqual(schemaProblems(tools.filter((t) => !t.name.startsWith('fixture_'))), [],
      'the catalogue checks of e2e.catalogue hold here too (the test-only fixture tools aside)');
    console.log(`tools/list for a VIC-20 session: ${JSON.stringify(tools).length} bytes of tools for ${tools.length} tools`);
  });

  it('via_timers_get: VIA2 T1 counts between two reads of the running machine', async () => {
    const first = (await ok('via_timers_get')).structuredContent.vias;
    assert.deepEqual(first.map((v) => v.instance), ['via1', 'via2'], 'both VIAs without instance');
    const a = first[1].t1;
    assert.equal(a.mode, 'free_run', 'the KERNAL runs T1 free');
    assert.equal(a.running, true);
    let b = a;
    const until = Date.now() + HANG_MS;
    while (b.timeouts <= a.timeouts && Date.now() < until) {
      await sleep(20);
      b = (await ok('via_timers_get', { instance: 'via2' })).structuredContent.vias[0].t1;
    }
    assert.ok(b.timeouts > a.timeouts, `T1 timed out in between: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
    assert.equal(b.latch, a.latch, 'the latch stays');
    assert.ok(a.latch > 0x1000, `the KERNAL's 60 Hz latch: ${a.latch_hex}`);
  });

  it('via_registers_set writes a register that reads back; the other VIA\'s address is refused', async () => {
    const set = await ok('via_registers_set', { instance: 'via1', register: 'DDRA', value: '$80' });
    assert.equal(set.structuredContent.read_back, 0x80);
    assert.equal(set.structuredContent.address_hex, '$9113');
    const regs = (await ok('via_registers_get', { instance: 'via1' })).structuredContent.vias;
    assert.equal(regs.length, 1);
    assert.equal(regs[0].port_a.ddr, 0x80, 'via_registers_get shows it');
    assert.equal(regs[0].address_hex, '$9110', 'the address from the chip\'s io_range');
    const byAddress = await ok('via_registers_set', { register: '$9113', value: 0 });
    assert.equal(byAddress.structuredContent.instance, 'via1', 'an address picks its VIA');
    const wrong = await call('via_registers_set', { instance: 'via1', register: '$9122', value: 1 });
    assert.equal(wrong.isError, true);
    assert.match(resultText(wrong), /\$9122 belongs to via2/);
  });

  it('vic_registers_get decodes the screen of an unexpanded VIC-20 at $1E00', async () => {
    const res = await ok('vic_registers_get');
    const v = res.structuredContent;
    assert.equal(v.screen.address_hex, '$1E00', JSON.stringify(v.screen));
    assert.equal(v.color_ram.address_hex, '$9600');
    assert.equal(v.columns, 22);
    assert.equal(v.rows, 23);
    assert.equal(v.charset.in_rom, true);
    assert.match(v.model, /^656[01]$/);
    assert.equal(v.sound.voices.length, 4);
    assert.match(resultText(res), /screen \$1E00/);
    const set = await ok('vic_registers_set', { register: '$900F', value: '$1A' });
    assert.equal(set.structuredContent.read_back, 0x1A);
    const after = (await ok('vic_registers_get')).structuredContent.colors;
    assert.equal(after.border.value, 2);
    assert.equal(after.background.value, 1);
    const text = (await ok('screen_text')).structuredContent.lines.join('\n');
    assert.match(text, /READY\./, 'the machine booted its ROMs');
  });

  it('vic_registers_get follows the screen to $1000 on a VIC-20 with 8K more', async () => {
    await ok('session_create', { machine: 'vic20', name: 'big', select: false,
      options: { rom_dir: romDir('VIC20'), vic20_memory: '8k' } });
    await ok('execution_run_until', { session: 'big', cycles: 3000000, warp: true, timeout_ms: 60000 });
    const v = (await ok('vic_registers_get', { session: 'big' })).structuredContent;
    assert.equal(v.screen.address_hex, '$1000', JSON.stringify(v.screen));
    assert.equal(v.color_ram.address_hex, '$9400');
    await ok('session_destroy', { session: 'big' });
  });

  it('vic_breakpoints_raster stops on its line', async () => {
    const set = await ok('vic_breakpoints_raster', { line: 100 });
    assert.equal(set.structuredContent.kind, 'raster');
    for (let i = 0; i < 2; i++) {
      await ok('execution_run', { warp: true });
      const res = await ok('execution_wait', { timeout_ms: 10000 });
      const stop = res.structuredContent.stop ?? res.structuredContent;
      assert.equal(stop.state, 'stopped', JSON.stringify(stop));
      assert.equal(stop.breakpoint.detail.line, 100, JSON.stringify(stop));
      assert.equal(stop.raster.line, 100);
      assert.ok(stop.breakpoint.detail.cycle <= 10, `within the line's first cycles: ${stop.breakpoint.detail.cycle}`);
    }
    await ok('breakpoints_delete', { all: true });
    const bad = await call('vic_breakpoints_raster', { line: 400 });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /0-311|0-260/, 'names the lines this VIC has');
  });

  it('vic2_registers_get is not available and names the VIC', async () => {
    const res = await call('vic2_registers_get');
    assert.equal(res.isError, true);
    assert.match(resultText(res), /not available on session "vic20-1": the vic20 machine does not have a VIC-II/);
    assert.match(resultText(res), /VIC \(6560\/6561\) chip "vic" \(mh\.chip\.vic\/1\): use vic_registers_get/);
    const cia = await call('cia_timers_get');
    assert.match(resultText(cia), /VIA 6522 chip "via1" \(mh\.chip\.via\/1\): use via_timers_get/);
  });
});
