// End-to-end: the VIC-20 (--machine vic20) through the real mcphost binary
// and the official MCP TypeScript SDK client. With the original ROMs
// ($MCPHOST_TEST_ROMS or ../shared/roms beside the repository; the tests
// that need them are skipped, saying so, when they are absent): boot to
// READY and type PRINT 2+3 -> 5 (screen_text), autostart a program written
// here and stop at a breakpoint in it, screen_capture (the PNG decoded: size,
// border and background colours from the VIC-20 palette), audio_capture /
// audio_analyze of a VIC voice at its known frequency, a snapshot round trip,
// and hostile cartridge and PRG images refused with a clear message. Without
// ROMs: the built-in boot ROM starts (a build without it refuses, naming
// --rom-dir).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { decodeIndexedPng } from './lib/png.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The VIC-20 ROM directory, or null. */
function findRoms() {
  const bases = [process.env.MCPHOST_TEST_ROMS, join(here, '..', '..', '..', 'shared', 'roms')].filter(Boolean);
  for (const base of bases)
    for (const sub of ['VIC20', '.']) {
      const dir = join(base, sub);
      if (existsSync(join(dir, 'kernal.901486-07.bin')) && existsSync(join(dir, 'basic-901486-01.bin'))) return realpathSync(dir);
    }
  return null;
}
const ROMS = findRoms();
const NEEDS_ROMS = ROMS ? false : 'no VIC-20 ROMs in $MCPHOST_TEST_ROMS or ../shared/roms';

const PALETTE = [0x000000, 0xffffff, 0xb61f21, 0x4df0ff, 0xb43fff, 0x44e237, 0x1a34ff, 0xdcd71b,
  0xca5400, 0xe9b072, 0xe79293, 0x9af7fd, 0xe09fff, 0x8fe493, 0x8290ff, 0xe5de85];
const CLOCK_PAL = 1108405;


/** A PRG: a BASIC line 10 SYS 4110 at $1001, then code at $100E. */
function basicPrg(code) {
  const stub = [0x0c, 0x10, 0x0a, 0x00, 0x9e, 0x34, 0x31, 0x31, 0x30, 0x00, 0x00, 0x00];
  return Buffer.from([0x01, 0x10, ...stub, 0x00, ...code]);
}

describe('vic20 without ROMs', () => {
  it('starts on the built-in boot ROM, or without it is refused naming --rom-dir', async () => {
    const host = await connectHost({ args: [] });
    try {
      const made = await host.client.callTool({ name: 'session_create', arguments: { machine: 'vic20', name: 'v' } });
      if (!made.isError) return; // the free boot ROM (e2e.bootrom tests what it does)
      assert.match(resultText(made), /--rom-dir/);
    } finally {
      await host.close();
    }
  });
});

// The option works the same on the built-in boot ROM: no ROMs needed.
describe('vic20 sound=off', () => {
  let host;
  const { ok, refused } = toolCallers(() => host);
  before(async () => {
    host = await connectHost({ args: ['--machine', 'vic20', '--config', 'sound=off'] });
    await ok('session_create', { machine: 'vic20', name: 'loud', select: false });
  });
  after(async () => {
    await host?.close();
  });

  it('is listed with its values, and config_get says on or off per session', async () => {
    const list = (await ok('config_list', {})).structuredContent.settings;
    const sound = list.find((s) => s.name === 'sound');
    assert.ok(sound, `sound is listed: ${list.map((s) => s.name)}`);
    assert.equal(sound.allowed, 'on|off');
    assert.equal(sound.value, 'off');
    const loud = await ok('config_get', { name: 'sound', session: 'loud' });
    assert.equal(loud.structuredContent.value, 'on', 'the default is on');
    await refused('session_create', { machine: 'vic20', options: { sound: 'loud' } }, /sound.*on.*off/);
  });

  it('audio_capture says there is no sound to capture; with sound on the same voice sounds', async () => {
    for (const session of ['vic20-1', 'loud']) {
      await ok('memory_write', { session, address: '$900E', bytes: [0x0f] }); // volume 15
      await ok('memory_write', { session, address: '$900C', bytes: [0x80 | 100] }); // soprano on
    }
    await refused('audio_capture', { milliseconds: 100 }, /sound synthesis is off.*sound=off/);
    const loud = await ok('audio_capture', { session: 'loud', milliseconds: 100 });
    assert.ok(loud.structuredContent.peak > 1000, `sound on is not silent (peak ${loud.structuredContent.peak})`);
    // the registers are kept: the VIC's voice is still decoded
    const regs = await ok('vic_registers_get', {});
    assert.match(JSON.stringify(regs.structuredContent), /"volume":15\b/);
  });
});

describe('vic20 with the original ROMs', { skip: NEEDS_ROMS }, () => {
  let host, dir;
  const call = (name, args = {}) => host.client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const result = await call(name, args);
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  const refused = async (name, args, re) => {
    const result = await call(name, args);
    assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) must fail`);
    assert.match(resultText(result), re);
  };
  const runFrames = (frames) => ok('execution_run_until', { frames, warp: true, timeout_ms: 30000 });
  const screen = async () => resultText(await ok('screen_text'));
  const readHex = async (address, length) =>
    (await ok('memory_read', { address, length })).structuredContent.hex.replace(/\s+/g, '').toUpperCase();

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-vic20-')));
    host = await connectHost({ args: ['--machine', 'vic20', '--rom-dir', ROMS, '--allow-dir', dir, '--no-confirm'] });
    await runFrames(100); // boots to READY
  });
  after(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('boots to READY and BASIC answers PRINT 2+3 with 5', async () => {
    const text = await screen();
    assert.match(text, /CBM BASIC V2/);
    assert.match(text, /3583 BYTES FREE/);
    assert.match(text, /READY\./);
    await ok('keyboard_type', { text: 'PRINT 2+3{RETURN}' });
    await runFrames(30);
    const after = await screen();
    assert.match(after, /PRINT 2\+3\s*\n\s*5\s*\n/, after);
  });

  it('screen_capture is a PNG of the visible area in the VIC-20 palette', async () => {
    const res = await ok('screen_capture', { scale: 1 });
    const image = res.content.find((c) => c.type === 'image');
    assert.ok(image, 'an image content item');
    const png = decodeIndexedPng(Buffer.from(image.data, 'base64'));
    assert.equal(png.width, 232);
    assert.equal(png.height, 284);
    const rgbAt = (x, y) => png.palette[png.pixels[y * png.width + x]];
    // The KERNAL's colours: border cyan (3), background white (1).
    for (const [x, y] of [[0, 0], [231, 0], [0, 283], [231, 283]]) assert.equal(rgbAt(x, y), PALETTE[3], `border at ${x},${y}`);
    assert.equal(rgbAt(120, 230), PALETTE[1], 'an empty cell shows the background');
    // Text is there: blue (6) pixels in the first text rows.
    let blue = 0;
    for (let y = 48; y < 64; y++) for (let x = 0; x < 232; x++) blue += rgbAt(x, y) === PALETTE[6];
    assert.ok(blue > 100, `text pixels in blue (${blue})`);
  });

  it('autostarts a program and stops at a breakpoint in it', async () => {
    // $100E: LDA #$2A; STA $1E00; INC $1E01; loop: JMP $1016 (stop here)
    const prg = basicPrg([0xa9, 0x2a, 0x8d, 0x00, 0x1e, 0xee, 0x01, 0x1e, 0x4c, 0x16, 0x10]);
    writeFileSync(join(dir, 'prog.prg'), prg);
    const bp = await ok('breakpoints_set', { address: '$1016' });
    await ok('files_autostart', { path: 'prog.prg' });
    const res = await ok('execution_run_until', { frames: 300, warp: true, timeout_ms: 30000 });
    const state = (await ok('execution_get_state')).structuredContent;
    assert.equal(state.stop?.reason, 'breakpoint', resultText(res));
    assert.equal(state.stop?.pc, 0x1016);
    assert.equal(await readHex('$1E00', 1), '2A');
    await ok('breakpoints_delete', { id: bp.structuredContent.id });
  });

  it('a VIC voice sounds at its frequency (audio_capture, audio_analyze)', async () => {
    await ok('memory_write', { address: '$900E', bytes: [0x0f] }); // volume 15
    await ok('memory_write', { address: '$900C', bytes: [0x80 | 100] }); // soprano on
    const res = await ok('audio_capture', { milliseconds: 300 });
    const audio = res.content.find((c) => c.type === 'audio');
    assert.ok(audio, 'audio content');
    assert.equal(res.structuredContent.samples, 13230);
    assert.ok(res.structuredContent.peak > 1000, `not silent (peak ${res.structuredContent.peak})`);
    const analysis = await ok('audio_analyze', { source: 'last' });
    const expected = CLOCK_PAL / (64 * (127 - 100));
    const dominant = analysis.structuredContent.mixed.dominant_hz;
    assert.ok(Math.abs(dominant - expected) / expected < 0.02, `dominant ${dominant} Hz, expected ${expected} Hz`);
    await ok('memory_write', { address: '$900C', bytes: [0] });
  });

  it('a snapshot round trip restores RAM and chips', async () => {
    await ok('memory_write', { address: '$1C00', bytes: [0x11, 0x22, 0x33, 0x44] });
    await ok('memory_write', { address: '$900F', bytes: [0x2a] });
    await ok('snapshot_save', { path: 'vic.mhsnap' });
    await ok('memory_write', { address: '$1C00', bytes: [0x99, 0x99, 0x99, 0x99] });
    await ok('memory_write', { address: '$900F', bytes: [0x1b] });
    await ok('snapshot_load', { path: 'vic.mhsnap' });
    assert.equal(await readHex('$1C00', 4), '11223344');
    assert.equal(await readHex('$900F', 1), '2A');
    // A damaged snapshot is refused and changes nothing.
    writeFileSync(join(dir, 'bad.mhsnap'), Buffer.concat([Buffer.from('MHSNAP\0\0vic20'), Buffer.alloc(64)]));
    await refused('snapshot_load', { path: 'bad.mhsnap' }, /snapshot/);
    assert.equal(await readHex('$1C00', 4), '11223344');
  });

  it('hostile cartridge and program images are refused with a clear message', async () => {
    writeFileSync(join(dir, 'huge.crt'), Buffer.alloc(20000, 0xff));
    await refused('files_attach_cartridge', { path: 'huge.crt' }, /cartridge .*huge\.crt.*(neither|not a valid)/);
    const crt = Buffer.alloc(64 + 16 + 16);
    crt.write('VIC20 CARTRIDGE ', 0, 'latin1');
    crt.writeUInt32BE(64, 0x10);
    crt.write('CHIP', 64, 'latin1');
    crt.writeUInt32BE(0x7fffffff, 68); // a packet far past the end
    writeFileSync(join(dir, 'lying.crt'), crt);
    await refused('files_attach_cartridge', { path: 'lying.crt' }, /not a valid VIC-20 CRT/);
    writeFileSync(join(dir, 'tiny.prg'), Buffer.from([0x01]));
    await refused('files_autostart', { path: 'tiny.prg', kind: 'program' }, /program .*tiny\.prg/);
    // The machine still runs BASIC afterwards.
    await runFrames(5);
    assert.match(await screen(), /READY\./);
  });
});
