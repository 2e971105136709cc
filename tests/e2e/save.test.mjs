// End-to-end: SAVE to the virtual drive 8 through the real mcphost binary
// and the official MCP SDK client (docs/machine-c64.md "Virtual drive 8").
// On the C64, the VIC-20 and the Plus/4 with their original ROMs (from
// $MCPHOST_TEST_ROMS or ../shared/roms; skipped, saying so, without them):
// SAVE with no disk answers ?DEVICE NOT PRESENT as real hardware does; a
// BASIC program typed at READY is saved with SAVE "PROG",8 into a D64 in a
// temporary directory, the D64 file on disk holds it (read back with this
// test's own directory parser, lib/d64.mjs), after a reset LOAD "PROG",8
// and RUN print SAVED; a second SAVE "PROG" is refused (63 FILE EXISTS, in
// the log; the file unchanged), "@0:PROG" replaces it, and a full disk
// answers 72 DISK FULL with the image file left byte for byte as it was.
// The same on the C64's free Open ROMs (no ROM files needed). Without ROMs, on the free boot ROMs of the VIC-20 and the Plus/4: LOAD a
// PRG, SAVE it under a new name, clear memory, LOAD the new name and compare.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { romDir, skipReason } from './lib/roms.mjs';
import { blankD64, blocksFree, directory, readFile, withFile } from './lib/d64.mjs';

const ORIGINAL = [
  { machine: 'c64', folder: null, basic: 0x0801, label: 'c64 on the free Open ROMs' },
  { machine: 'c64', folder: 'C64', basic: 0x0801 },
  { machine: 'vic20', folder: 'VIC20', basic: 0x1001 },
  { machine: 'plus4', folder: 'PLUS4', basic: 0x1001 },
];

/** Tool helpers and log capture for one host. */
function session(hostOf) {
  const { call, ok } = toolCallers(hostOf);
  // Before the KERNAL has set the video chip up there is no text screen yet.
  const screen = async () => {
    const res = await call('screen_text');
    return res.isError ? '' : resultText(res);
  };
  const frames = (n) => ok('execution_run_until', { frames: n, warp: true, timeout_ms: 60000 });
  /** Runs until the screen matches re (at most `tries` times 10 frames). */
  const until = async (re, what, tries = 100) => {
    let text = '';
    for (let i = 0; i < tries; i++) {
      await frames(10);
      text = await screen();
      if (re.test(text)) return text;
    }
    assert.fail(`${what}: the screen never matched ${re}:\n${text}`);
  };
  /** The machine log lines (notifications/message) received since index from. */
  const logs = (from) => hostOf().received.slice(from)
    .filter((m) => m.method === 'notifications/message').map((m) => String(m.params.data));
  const untilLogged = async (re, from, what) => {
    for (let i = 0; i < 200; i++) {
      const hit = logs(from).find((l) => re.test(l));
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`${what}: no log line matched ${re}; got:\n${logs(from).join('\n')}`);
  };
  return { call, ok, screen, frames, until, logs, untilLogged };
}

/** READY. as the last non-empty line: the command typed has finished. */
const READY_AT_END = /READY\.\s*$/;

for (const { machine, folder, basic, label } of ORIGINAL) {
  describe(`SAVE on the ${label ?? `${machine} with the original ROMs`}`, { skip: folder ? skipReason(folder) : false }, () => {
    let host, dir;
    const s = session(() => host);
    const disk = () => join(dir, 'work.d64');
    /** Types a line and waits for the READY. after it. */
    const command = async (line) => {
      const before = host.received.length;
      await s.ok('keyboard_type', { text: `${line}\n` });
      const text = await s.until(new RegExp(`${line.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}[\\s\\S]*READY\\.\\s*$`), line);
      return { text, from: before };
    };
    /** Types a program line (BASIC answers nothing). */
    const enter = async (line) => {
      await s.ok('keyboard_type', { text: `${line}\n` });
      await s.frames(30);
    };

    before(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), `mh-save-${machine}-`)));
      writeFileSync(disk(), blankD64('WORK', 'W1'));
      writeFileSync(join(dir, 'full.d64'), blankD64('FULL', 'F1', { full: true }));
      const roms = folder ? ['--rom-dir', romDir(folder)] : [];
      host = await connectHost({ args: ['--machine', machine, ...roms, '--allow-dir', dir, '--no-confirm'] });
      await host.client.setLoggingLevel('info');
      await s.until(READY_AT_END, 'boot to READY');
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers ?DEVICE NOT PRESENT without a disk, as the real machine does', async () => {
      const { text } = await command('SAVE "NODISK",8');
      assert.match(text, /DEVICE NOT PRESENT/, text);
    });

    it('saves a typed BASIC program into the D64 file, and LOAD and RUN bring it back after a reset', async () => {
      await s.ok('files_attach_disk', { path: disk() });
      await command('NEW');
      await enter('10 PRINT "SAVED"');
      const { text, from } = await command('SAVE "PROG",8');
      const after = text.slice(text.lastIndexOf('SAVE "PROG",8'));
      assert.doesNotMatch(after, /ERROR/, after);
      await s.untilLogged(/drive 8: saved "PROG"/, from, 'the save is logged');
      // The file on disk: one closed PRG at the BASIC start holding the line.
      const img = readFileSync(disk());
      const entries = directory(img);
      assert.deepEqual(entries.map((e) => [e.name, e.typeByte, e.blocks]), [['PROG', 0x82, 1]]);
      assert.deepEqual([entries[0].track, entries[0].sector], [17, 0], 'the 1541 puts the first file on 17/0');
      assert.equal(blocksFree(img), 663);
      const prg = readFile(img, 'PROG');
      assert.equal(prg.readUInt16LE(0), basic, 'the load address is the BASIC start');
      assert.ok(prg.includes(Buffer.from([0x99, 0x20, 0x22, ...Buffer.from('SAVED'), 0x22])), `PRINT "SAVED" tokenised: ${prg.toString('hex')}`);
      assert.deepEqual([...prg.subarray(prg.length - 3)], [0, 0, 0], 'the program ends with its end marker');

      await s.ok('machine_reset', { mode: 'hard' });
      await s.until(READY_AT_END, 'READY after the reset');
      await command('LOAD "PROG",8');
      const run = await command('RUN');
      assert.match(run.text, /^SAVED\s*$/m, run.text);
    });

    it('refuses an existing name (63 FILE EXISTS) and leaves the file as it was; "@0:" replaces it', async () => {
      const before = readFileSync(disk());
      const { text, from } = await command('SAVE "PROG",8');
      assert.match(text.slice(text.lastIndexOf('SAVE "PROG",8')), /DEVICE NOT PRESENT/, text);
      await s.untilLogged(/63, FILE EXISTS/, from, 'the drive error is logged');
      assert.ok(readFileSync(disk()).equals(before), 'the image file is unchanged');

      await enter('20 PRINT "TWO"');
      const replaced = await command('SAVE "@0:PROG",8');
      assert.doesNotMatch(replaced.text.slice(replaced.text.lastIndexOf('SAVE "@0:PROG",8')), /ERROR/, replaced.text);
      const img = readFileSync(disk());
      assert.deepEqual(directory(img).map((e) => e.name), ['PROG'], 'still one entry');
      assert.ok(readFile(img, 'PROG').includes(Buffer.from('TWO')), 'the new program is in the file');
      assert.equal(blocksFree(img), 663, 'the old block was freed');
    });

    it('answers DISK FULL on a full disk and leaves its file byte for byte', async () => {
      const full = join(dir, 'full.d64');
      const before = readFileSync(full);
      await s.ok('files_attach_disk', { path: full });
      const { text, from } = await command('SAVE "MORE",8');
      assert.match(text.slice(text.lastIndexOf('SAVE "MORE",8')), /DEVICE NOT PRESENT/, text);
      await s.untilLogged(/72, DISK FULL/, from, 'the drive error is logged');
      assert.ok(readFileSync(full).equals(before), 'the full image is unchanged');
    });
  });
}

/** A PRG at base: 10 SYS (base + 12), then LDA #$5A; STA $03F8; print "OK"; RTS. */
function sysStubPrg(base) {
  const digits = [...String(base + 12)].map((c) => c.charCodeAt(0));
  const next = base + 5 + digits.length + 1;
  return Buffer.from([
    base & 0xff, base >> 8,
    next & 0xff, next >> 8, 0x0a, 0x00, 0x9e, ...digits, 0x00, 0x00, 0x00,
    0xa9, 0x5a, 0x8d, 0xf8, 0x03,
    0xa9, 0x4f, 0x20, 0xd2, 0xff, 0xa9, 0x4b, 0x20, 0xd2, 0xff, 0x60,
  ]);
}

for (const machine of ['vic20', 'plus4']) {
  describe(`SAVE on the ${machine}'s free boot ROM`, () => {
    let host, dir;
    const s = session(() => host);
    const stub = sysStubPrg(0x1001);
    const command = async (line) => {
      const from = host.received.length;
      await s.ok('keyboard_type', { text: `${line}\n` });
      const text = await s.until(new RegExp(`${line.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}[\\s\\S]*READY\\.\\s*$`), line);
      return { text: text.slice(text.lastIndexOf(line)), from };
    };
    const readHex = async (address, length) =>
      (await s.ok('memory_read', { address, length })).structuredContent.hex.replace(/\s+/g, '').toUpperCase();

    before(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), `mh-save-boot-${machine}-`)));
      writeFileSync(join(dir, 'boot.d64'), withFile(blankD64('BOOT', 'B1'), 'STUB', stub));
      host = await connectHost({ args: ['--machine', machine, '--allow-dir', dir, '--no-confirm'] });
      await host.client.setLoggingLevel('info');
      await s.until(READY_AT_END, 'boot to READY');
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers ?DEVICE NOT PRESENT without a disk', async () => {
      const { text } = await command('SAVE "X",8');
      assert.match(text, /\?DEVICE NOT PRESENT/, text);
    });

    it('saves what LOAD brought in under a new name, and LOAD gives the same bytes back', async () => {
      const path = join(dir, 'boot.d64');
      await s.ok('files_attach_disk', { path });
      let r = await command('LOAD "STUB",8');
      assert.doesNotMatch(r.text, /\?/, r.text);
      const loaded = await readHex('$1001', stub.length - 2);
      assert.equal(loaded, stub.subarray(2).toString('hex').toUpperCase());
      r = await command('SAVE "COPY",8');
      assert.doesNotMatch(r.text, /\?/, r.text);
      await s.untilLogged(/drive 8: saved "COPY"/, r.from, 'the save is logged');
      const img = readFileSync(path);
      assert.deepEqual(directory(img).map((e) => e.name), ['STUB', 'COPY']);
      assert.ok(readFile(img, 'COPY').equals(stub), 'the file on disk is the program with its load address');

      await s.ok('memory_write', { address: '$1001', bytes: Array(stub.length - 2).fill(0) });
      r = await command('LOAD "COPY",8');
      assert.doesNotMatch(r.text, /\?/, r.text);
      assert.equal(await readHex('$1001', stub.length - 2), loaded, 'the same bytes came back');
      r = await command('RUN');
      assert.match(r.text, /OK/, r.text);

      r = await command('SAVE "COPY",8');
      assert.match(r.text, /\?DEVICE NOT PRESENT/, r.text);
      await s.untilLogged(/63, FILE EXISTS/, r.from, 'the drive error is logged');
    });
  });
}
