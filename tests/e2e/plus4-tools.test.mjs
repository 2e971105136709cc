// End-to-end: the TED toolset on a Plus/4 in the real mcphost binary,
// driven by the official MCP TypeScript SDK client over stdio. The Plus/4
// boots its original ROMs (../shared/roms/PLUS4 or $MCPHOST_TEST_ROMS;
// skipped, saying so, when absent): the TED's timer 1 (the KERNAL's
// interrupt) counts between two reads of the running machine;
// ted_registers_get decodes the text screen; a border colour written reads
// back as hue and luminance; the VIC-II and CIA tools answer "not
// available" naming the TED.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { HANG_MS, sleep } from './lib/env.mjs';
import { romDir, skipReason } from './lib/roms.mjs';
import { schemaProblems } from './lib/schema-checks.mjs';

const skip = skipReason('PLUS4');
if (skip) console.log(`plus4-tools: ${skip}`);

describe('tools-ted on a running Plus/4', { skip }, () => {
  let host;
  const { call, ok } = toolCallers(() => host);

  before(async () => {
    host = await connectHost({ args: ['--machine', 'plus4', '--rom-dir', romDir('PLUS4'), '--warp'] });
    await ok('execution_run_until', { cycles: 4000000, warp: true, timeout_ms: 60000 });
    await ok('execution_run', { warp: true });
  });
  after(async () => {
    await host?.close();
  });

  it('lists the TED tools and not the VIC-II, VIC, VIA or CIA ones', async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['ted_registers_get', 'ted_timers_get', 'ted_registers_set'])
      assert.ok(names.includes(name), `${name} is listed`);
    for (const name of ['vic2_registers_get', 'vic_registers_get', 'via_timers_get', 'cia_timers_get'])
      assert.ok(!names.includes(name), `${name} is not listed on a Plus/4`);
    assert.match(tools.find((t) => t.name === 'ted_timers_get').inputSchema.properties.instance.description, /"ted"/);
    assert.deepEqual(schemaProblems(tools.filter((t) => !t.name.startsWith('fixture_'))), [],
      'the catalogue checks of e2e.catalogue hold here too (the test-only fixture tools aside)');
  });

  it('ted_timers_get: timer 1 counts between two reads of the running machine', async () => {
    const a = (await ok('ted_timers_get')).structuredContent.timers[0];
    assert.equal(a.running, true);
    let b = a;
    const until = Date.now() + HANG_MS;
    while (b.underflows <= a.underflows && Date.now() < until) {
      await sleep(20);
      b = (await ok('ted_timers_get')).structuredContent.timers[0];
    }
    assert.ok(b.underflows > a.underflows, `timer 1 underflowed in between: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
    assert.equal(b.reload, a.reload, 'the reload value stays');
  });

  it('ted_registers_get decodes the text screen; ted_registers_set writes the border', async () => {
    const res = await ok('ted_registers_get');
    const v = res.structuredContent;
    assert.equal(v.mode, 'text');
    assert.equal(v.memory.screen_hex, '$0C00');
    assert.equal(v.memory.attributes_hex, '$0800');
    assert.equal(v.columns, 40);
    assert.equal(v.rows, 25);
    assert.equal(v.rom_enabled, true);
    assert.equal(v.timers.length, 3);
    assert.match(v.colors.border.rgb, /^#[0-9A-F]{6}$/);
    assert.match(resultText(res), /screen \$0C00/);
    const set = await ok('ted_registers_set', { register: '$FF19', value: '$32' });
    assert.equal(set.structuredContent.read_back & 0x7f, 0x32);
    const border = (await ok('ted_registers_get')).structuredContent.colors.border;
    assert.equal(border.hue, 2);
    assert.equal(border.hue_name, 'red');
    assert.equal(border.luminance, 3);
    const bad = await call('ted_registers_set', { register: '$FD30', value: 0 });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /\$FF00-\$FF3F/);
  });

  it('vic2_registers_get and cia_timers_get are not available and name the TED', async () => {
    const vic2 = await call('vic2_registers_get');
    assert.equal(vic2.isError, true);
    assert.match(resultText(vic2), /the plus4 machine does not have a VIC-II chip .*TED chip "ted" \(mh\.chip\.ted\/1\): use ted_registers_get/);
    const cia = await call('cia_timers_get');
    assert.match(resultText(cia), /TED chip "ted" \(mh\.chip\.ted\/1\): use ted_timers_get/);
  });
});
