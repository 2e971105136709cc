// End-to-end: the tools-machine toolset through the real mcphost binary over
// stdio with the official MCP TypeScript SDK client: a snapshot saved and
// loaded back in a temporary allowed directory (memory restored), paths
// outside it refused (".." , absolute, a symbolic link out), keyboard_type
// changing screen memory, a held key released by the machine, and
// machine_capabilities.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync, statSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';

/** C64 screen codes to text (letters, digits, punctuation; others '?'). */
function screenText(hex) {
  const bytes = Buffer.from(hex.replace(/\s+/g, ''), 'hex');
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] & 0x7f;
    if (c >= 1 && c <= 26) out += String.fromCharCode(64 + c);
    else if (c >= 0x20 && c < 0x40) out += String.fromCharCode(c);
    else out += '?';
    if (i % 40 === 39) out += '\n';
  }
  return out;
}

describe('tools-machine over stdio', () => {
  let host, base, dir;
  const call = (name, args = {}) => host.client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const result = await call(name, args);
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  const refused = async (name, args, ...needles) => {
    const result = await call(name, args);
    assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) must fail`);
    const text = resultText(result);
    for (const needle of needles) assert.ok(text.includes(needle), `"${needle}" in: ${text}`);
    return text;
  };
  const readHex = async (address, length) =>
    (await ok('memory_read', { address, length })).structuredContent.hex.replace(/\s+/g, '').toUpperCase();
  const runFrames = (frames) => ok('execution_run_until', { frames, warp: true, timeout_ms: 20000 });

  before(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mh-machine-')));
    dir = join(base, 'allowed');
    mkdirSync(dir);
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.mhsnap'), 'MHSNAP\0\0secret');
    symlinkSync(join(base, 'outside', 'secret.mhsnap'), join(dir, 'link.mhsnap'));
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir, '--no-confirm'] });
    await runFrames(150); // boots to READY
  });
  after(async () => {
    await host?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('lists its tools with seed names in the catalogue form', async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['files_autostart', 'files_attach_disk', 'files_attach_cartridge', 'files_attach_tape',
      'files_detach', 'files_list_disk', 'snapshot_save', 'snapshot_load', 'snapshot_list', 'keyboard_type',
      'keyboard_press', 'joystick_set', 'machine_capabilities', 'machine_reset', 'config_get', 'config_set',
      'config_list'])
      assert.ok(names.includes(name), `${name} is listed`);
  });

  it('saves a snapshot in the allowed directory and loads it back', async () => {
    await ok('memory_write', { address: '$C100', bytes: [0x11, 0x22, 0x33, 0x44] });
    const saved = await ok('snapshot_save', { path: 'round.mhsnap' });
    assert.equal(saved.structuredContent.path, join(dir, 'round.mhsnap'));
    assert.equal(saved.structuredContent.machine, 'c64');
    assert.equal(statSync(join(dir, 'round.mhsnap')).size, saved.structuredContent.size);

    await ok('memory_write', { address: '$C100', bytes: [0x99, 0x99, 0x99, 0x99] });
    await runFrames(5);
    assert.equal(await readHex('$C100', 4), '99999999');
    // A breakpoint set before the load survives it, and the load is a reset event.
    const bp = await ok('breakpoints_set', { address: '$C000' });
    await ok('events_subscribe', { types: ['reset'] });
    const seen = host.received.length;
    const loaded = await ok('snapshot_load', { path: 'round.mhsnap' });
    assert.match(resultText(loaded), /breakpoints kept/);
    assert.equal(await readHex('$C100', 4), '11223344');
    const list = (await ok('breakpoints_list')).structuredContent.breakpoints;
    assert.ok(list.some((b) => b.id === bp.structuredContent.id), `breakpoint kept: ${JSON.stringify(list)}`);
    const events = host.received.slice(seen).filter((m) => m.method === 'notifications/mcphost/event');
    assert.ok(events.some((m) => m.params.type === 'reset' && JSON.stringify(m.params).includes('snapshot_load')),
      `a reset event for the load: ${JSON.stringify(events)}`);
    await ok('breakpoints_delete', { id: bp.structuredContent.id });
    await ok('events_unsubscribe');

    const snaps = await ok('snapshot_list');
    const entry = snaps.structuredContent.snapshots.find((s) => s.name === 'round.mhsnap');
    assert.ok(entry, `round.mhsnap listed: ${resultText(snaps)}`);
    assert.equal(entry.machine, 'c64');
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('refuses paths outside the allowed directory with a useful message', async () => {
    await refused('snapshot_save', { path: '../outside/x.mhsnap' }, 'outside the allowed directories', dir, '--allow-dir');
    await refused('snapshot_save', { path: join(base, 'outside', 'x.mhsnap') }, 'is outside', '--allow-dir');
    await refused('snapshot_load', { path: '/etc/passwd' }, '"/etc/passwd" is outside', dir);
    await refused('snapshot_load', { path: 'link.mhsnap' }, 'symbolic link');
    await refused('snapshot_load', { path: `${dir}-evil/x.mhsnap` }, 'is outside');
    await refused('files_attach_disk', { path: '../../../../etc/passwd' }, 'outside the allowed directories');
    await refused('snapshot_list', { directory: '/etc' }, 'is outside');
    await refused('snapshot_load', { path: 'missing.mhsnap' }, 'does not exist');
  });

  it('types on the keyboard and the screen memory changes', async () => {
    await ok('keyboard_type', { text: '{CLR}HELLO MCP{RETURN}' });
    await runFrames(30);
    const screen = screenText(await readHex('$0400', 200));
    assert.ok(screen.startsWith('HELLO MCP'), `the typed line is at the top:\n${screen}`);
    assert.match(screen, /\nREADY\./, `BASIC answered the RETURN:\n${screen}`);
    await refused('keyboard_type', { text: '{NOPE}' }, 'unknown key {NOPE}', '{RETURN');
  });

  it('holds a key for N frames and the machine releases it', async () => {
    await ok('keyboard_type', { text: '{CLR}' });
    await runFrames(5);
    const pressed = await ok('keyboard_press', { key: 'Z', frames: 3 });
    assert.deepEqual(pressed.structuredContent.keys, ['Z']);
    await runFrames(10);
    const screen = screenText(await readHex('$0400', 40));
    assert.ok(screen.startsWith('Z?') || screen.startsWith('Z '), `one Z typed:\n${screen}`);
  });

  it('says what the machine has and what works on it', async () => {
    const caps = await ok('machine_capabilities');
    const s = caps.structuredContent;
    assert.equal(s.machine, 'c64');
    for (const instance of ['vic2', 'cia1', 'cia2', 'sid']) assert.ok(s.chips.some((c) => c.instance === instance), instance);
    assert.ok(s.toolsets.find((t) => t.name === 'tools-machine').available);
    await ok('session_create', { machine: 'bare6502', name: 'bare', select: false });
    const bare = await ok('machine_capabilities', { session: 'bare' });
    const tm = bare.structuredContent.toolsets.find((t) => t.name === 'tools-machine');
    assert.ok(tm.tools_unavailable > 0 && /bare6502/.test(tm.reason), JSON.stringify(tm));
    const disk = await call('files_attach_disk', { path: 'round.mhsnap', session: 'bare' });
    assert.equal(disk.isError, true);
  });

  it('leaves no sanitizer report in the log', async () => {
    await ok('ping');
    assert.doesNotMatch(host.stderr(), /ERROR: (Address|Leak)Sanitizer|runtime error:/);
  });
});
