// End-to-end through the real binary (issue #19): config_set_batch changes
// several settings all or nothing (every one checked first; a setting the
// machine refuses puts the others back), and execution_clear_error, the
// seed's way out of its error state: a jammed CPU stays jammed (run and
// step refused) until execution_clear_error un-jams it at PC, which
// registers_set may move first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';

describe('config_set_batch and execution_clear_error', () => {
  let host, dir;
  const { call, ok, refused } = toolCallers(() => host);
  const value = async (name) => (await ok('config_get', { name })).structuredContent.value;

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-batch-')));
    writeFileSync(join(dir, 'one.d64'), Buffer.alloc(174848));
    writeFileSync(join(dir, 'two.d64'), Buffer.alloc(174848));
    writeFileSync(join(dir, 'junk.crt'), 'this is no cartridge');
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir] });
  });
  after(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('config_set_batch sets several settings in one call', async () => {
    const r = await ok('config_set_batch', { settings: { drive8: 'one.d64', cartridge: '' } });
    const names = r.structuredContent.settings.map((s) => s.name);
    assert.deepEqual(names, ['drive8', 'cartridge']);
    assert.equal(await value('drive8'), join(dir, 'one.d64'));
  });

  it('checks every setting before it sets one', async () => {
    await refused('config_set_batch', { settings: { drive8: 'two.d64', sid_model: '8580' } }, /sid_model cannot change on a running machine/);
    await refused('config_set_batch', { settings: { drive8: 'two.d64', nosuch: 1 } }, /no setting "nosuch"/);
    await refused('config_set_batch', { settings: { drive8: 'two.d64', cartridge: '../outside.crt' } }, /settings\.cartridge: .*outside|settings\.cartridge: .*\.\./);
    await refused('config_set_batch', { settings: { drive8: 5 } }, /settings\.drive8: drive8 takes a path/);
    await refused('config_set_batch', { settings: {} }, /give 1 to 32 settings/);
    assert.equal(await value('drive8'), join(dir, 'one.d64'), 'nothing changed');
  });

  it('a setting the machine refuses puts the ones before it back', async () => {
    const r = await refused('config_set_batch', { settings: { drive8: 'two.d64', cartridge: 'junk.crt' } }, /cartridge: .*nothing was changed/s);
    assert.match(resultText(r), /1 setting before it went back/);
    assert.equal(await value('drive8'), join(dir, 'one.d64'), 'drive8 went back to one.d64');
    assert.equal(await value('cartridge'), '');
  });

  it('a jammed CPU stays jammed until execution_clear_error, which goes on from PC', async () => {
    await ok('execution_step'); // to an instruction boundary
    await ok('execution_pause');
    await ok('assemble', { address: '$C000', source: '.byte $02\nINX\nLDA #$11\nJMP $C003\n' });
    await ok('registers_set', { pc: '$C000', x: 0 });
    const ran = await ok('execution_run_until', { address: '$C001', timeout_ms: 5000 });
    assert.equal(ran.structuredContent.state, 'jammed');
    await refused('execution_step', {}, /jammed.*machine_reset/s);
    // Move PC past the JAM, then clear: the CPU goes on there.
    await ok('registers_set', { pc: '$C001' });
    const cleared = await ok('execution_clear_error');
    assert.equal(cleared.structuredContent.cleared, true);
    assert.equal(cleared.structuredContent.state, 'paused');
    assert.equal(cleared.structuredContent.pc, 0xc001);
    const stepped = await ok('execution_step');
    assert.equal(stepped.structuredContent.state, 'stopped');
    const regs = (await ok('registers_get')).structuredContent;
    assert.equal(regs.x, 1, 'INX ran');
    assert.equal(regs.pc, 0xc002);
    const again = await ok('execution_clear_error');
    assert.equal(again.structuredContent.cleared, false);
    assert.match(resultText(again), /no error to clear/);
  });

  it('without moving PC the JAM runs again and jams again', async () => {
    await ok('registers_set', { pc: '$C000' });
    await ok('execution_run_until', { address: '$C001', timeout_ms: 5000 });
    const cleared = await ok('execution_clear_error');
    assert.equal(cleared.structuredContent.pc, 0xc000);
    const ran = await ok('execution_step');
    assert.equal(ran.structuredContent.state, 'jammed');
  });
});
