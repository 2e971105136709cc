// End-to-end: the Plus/4 machine (machine-plus4) in the real mcphost binary,
// driven by the official MCP TypeScript SDK client over stdio, with the
// original ROMs (../shared/roms/PLUS4 beside the repository or
// $MCPHOST_TEST_ROMS/PLUS4; every test that needs them is skipped, saying
// so, when they are absent):
//   - boots to READY. and answers PRINT 2+3 with 5 (screen_text);
//   - autostarts a PRG at $1001 (files_autostart) that writes to the screen
//     and sounds TED voice 1;
//   - stops on an exec breakpoint at the program's loop, and on a raster
//     line (the generic condition raster == N, the TED's beam);
//   - screen_capture: the PNG's border and background pixels carry the
//     colours written to $FF19/$FF15, from the 121-colour palette;
//   - audio_capture of TED voice 1 at a known frequency, checked by
//     audio_analyze;
//   - a snapshot round trip;
//   - hostile input refused with a clear message: a cartridge image of the
//     wrong size, a snapshot of another machine, a PRG too short;
//   - without ROMs and without a built-in boot ROM, the machine refuses to
//     start with a message naming --rom-dir.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { connectHost, resultText } from './lib/client.mjs';
import { decodeIndexedPng } from './lib/png.mjs';
import { MCPHOST_BIN, hostArgs } from './lib/env.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROMS = process.env.MCPHOST_TEST_ROMS
  ? join(process.env.MCPHOST_TEST_ROMS, 'PLUS4')
  : resolve(HERE, '..', '..', '..', 'shared', 'roms', 'PLUS4');
const HAVE_ROMS = existsSync(join(ROMS, 'kernal-318004-05.bin'));
const SKIP = HAVE_ROMS ? false : `no Plus/4 ROMs at ${ROMS} (set MCPHOST_TEST_ROMS)`;
const TED_CLOCK_PAL = 1773447;


// A BASIC line 10 SYS 4109 at $1001, then at $100D:
//   LDA #$08 STA $0C00 (screen code H)  LDA #$00 STA $FF0E  LDA #$03 STA $FF12
//   LDA #$18 STA $FF11 (voice 1 on, volume 8)  loop: INC $D000 JMP loop
function autostartPrg() {
  const basic = [0x0b, 0x10, 0x0a, 0x00, 0x9e, 0x34, 0x31, 0x30, 0x39, 0x00, 0x00, 0x00];
  const code = [0xa9, 0x08, 0x8d, 0x00, 0x0c, 0xa9, 0x00, 0x8d, 0x0e, 0xff, 0xa9, 0x03, 0x8d, 0x12, 0xff,
    0xa9, 0x18, 0x8d, 0x11, 0xff, 0xee, 0x00, 0xd0, 0x4c, 0x21, 0x10];
  return Buffer.from([0x01, 0x10, ...basic, ...code]);
}
const LOOP = 0x1021;

describe('the Plus/4 with the original ROMs', { skip: SKIP }, () => {
  let host, dir;
  const call = (name, args = {}) => host.client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const res = await call(name, args);
    assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
    return res;
  };
  const refused = async (name, args, ...parts) => {
    const res = await call(name, args);
    assert.equal(res.isError, true, `${name} should fail: ${resultText(res)}`);
    for (const part of parts) assert.ok(resultText(res).includes(part), `"${part}" in: ${resultText(res)}`);
  };
  const frames = (n) => ok('execution_run_until', { frames: n, warp: true, timeout_ms: 60000 });
  const screen = async () => (await ok('screen_text')).content.map((c) => c.text ?? '').join('\n');
  const runToStop = async () => {
    await ok('execution_run', { warp: true });
    const res = await ok('execution_wait', { timeout_ms: 20000 });
    return res.structuredContent.stop ?? res.structuredContent;
  };

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcphost-plus4-')));
    writeFileSync(join(dir, 'tone.prg'), autostartPrg());
    writeFileSync(join(dir, 'short.prg'), Buffer.from([0x01]));
    writeFileSync(join(dir, 'bad.crt'), Buffer.alloc(1000, 0xaa));
    host = await connectHost({ args: ['--machine', 'plus4', '--rom-dir', ROMS, '--allow-dir', dir, '--no-confirm'] });
    await frames(200);
  });
  after(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('boots to READY. and prints 2+3', async () => {
    const text = await screen();
    assert.match(text, /COMMODORE BASIC V3\.5/, text);
    assert.match(text, /READY\./, text);
    await ok('keyboard_type', { text: 'PRINT 2+3{RETURN}' });
    await frames(30);
    const after = await screen();
    assert.match(after, /PRINT 2\+3\s*\n 5/, after);
  });

  it('captures the screen in the TED palette', async () => {
    await ok('memory_write', { address: '$FF19', bytes: [0x32] });
    await ok('memory_write', { address: '$FF15', bytes: [0x5d] });
    await frames(2);
    const res = await ok('screen_capture');
    const image = res.content.find((c) => c.type === 'image');
    assert.ok(image, 'an image content');
    const png = decodeIndexedPng(Buffer.from(image.data, 'base64'));
    assert.equal(png.width, 384);
    assert.equal(png.height, 288);
    const rgb = (x, y) => png.palette[png.pixels[y * png.width + x]];
    assert.equal(png.pixels[0], 0x32, 'the border pixel is colour $32');
    assert.equal(png.pixels[100 * png.width + 370], 0x32);
    // Bottom of the display window, away from the text: background $5D.
    assert.equal(png.pixels[230 * png.width + 300], 0x5d);
    // 16 hues x 8 luminances, hue 0 black: 121 colours.
    assert.ok(png.palette.length >= 128, `palette of ${png.palette.length}`);
    assert.equal(new Set(png.palette.slice(0, 128)).size, 121);
    for (let lum = 0; lum < 8; lum++) assert.equal(png.palette[lum * 16], 0, 'hue 0 is black');
    assert.equal(png.palette[0x71], 0xffffff, 'luminance 7 white');
    assert.notEqual(rgb(0, 0), rgb(300, 230));
    await ok('memory_write', { address: '$FF19', bytes: [0x6e] });
    await ok('memory_write', { address: '$FF15', bytes: [0x71] });
  });

  it('stops on a raster line (raster == 100)', async () => {
    const bp = await ok('breakpoints_set', { address: '$0000', end: '$FFFF', condition: 'raster == 100' });
    for (let i = 0; i < 2; i++) {
      const stop = await runToStop();
      assert.equal(stop.state, 'stopped', JSON.stringify(stop));
      assert.equal(stop.raster.line, 100, JSON.stringify(stop));
    }
    await ok('breakpoints_delete', { id: bp.structuredContent.id });
  });

  it('autostarts a PRG at $1001, stops at its loop, and its TED voice sounds', async () => {
    await ok('files_autostart', { path: join(dir, 'tone.prg') });
    const bp = await ok('breakpoints_set', { address: LOOP });
    const stop = await runToStop();
    assert.equal(stop.pc, LOOP, JSON.stringify(stop));
    await ok('breakpoints_delete', { id: bp.structuredContent.id });
    const mem = await ok('memory_read', { address: '$0C00', length: 1 });
    assert.match(resultText(mem), /08/);

    const res = await ok('audio_capture', { milliseconds: 300 });
    assert.ok(res.structuredContent.peak > 1000, `not silent: ${JSON.stringify(res.structuredContent)}`);
    const analysis = await ok('audio_analyze', { source: 'last' });
    const expected = TED_CLOCK_PAL / 16 / (1024 - 0x300);
    const dominant = analysis.structuredContent.mixed.dominant_hz;
    assert.ok(Math.abs(dominant - expected) / expected < 0.02, `dominant ${dominant} Hz, expected ${expected} Hz`);
  });

  it('saves a snapshot and loads it back', async () => {
    await ok('memory_write', { address: '$3000', bytes: [0x12, 0x34] });
    await ok('snapshot_save', { path: 'p4.mhsnap' });
    await ok('memory_write', { address: '$3000', bytes: [0, 0] });
    await ok('snapshot_load', { path: 'p4.mhsnap' });
    const mem = await ok('memory_read', { address: '$3000', length: 2 });
    assert.match(resultText(mem), /12 ?34/);
  });

  it('refuses hostile media and snapshots with a clear message', async () => {
    await refused('files_attach_cartridge', { path: join(dir, 'bad.crt') }, 'not a Plus/4 cartridge');
    await refused('files_autostart', { path: join(dir, 'short.prg') }, 'short.prg');
    writeFileSync(join(dir, 'junk.mhsnap'), Buffer.alloc(300, 0x41));
    await refused('snapshot_load', { path: 'junk.mhsnap' }, 'snapshot');
  });
});

describe('the Plus/4 without ROMs', () => {
  it('refuses to start without --rom-dir, saying so', () => {
    const run = spawnSync(MCPHOST_BIN, hostArgs('--machine', 'plus4', '--transport', 'none', '--limit-cycles', '1000'),
      { encoding: 'utf8', timeout: 20000 });
    // A build with the free boot ROM starts without ROMs (then --limit-cycles ends the run).
    if (/built-in boot ROM/.test(run.stderr)) return;
    assert.match(run.stderr, /--rom-dir/, run.stderr);
  });
});
