// End-to-end: mcphost's free boot ROMs (roms/, docs/boot-roms.md) in the real
// binary, driven by the official MCP TypeScript SDK client over stdio.
// Without --rom-dir the VIC-20 and the Plus/4 boot into the built-in KERNAL:
// screen_text shows its banner and READY.; files_autostart of a PRG whose
// BASIC stub is "10 SYS n" types RUN at that prompt, the boot ROM finds the
// SYS line and calls the machine code, which writes a marker to memory and
// prints through CHROUT; then READY. comes back.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';
import { blankD64, withFile } from './lib/d64.mjs';
import { MCPHOST_BIN, hostArgs } from './lib/env.mjs';

const PLUGIN_DIR = join(dirname(MCPHOST_BIN), '..', 'lib', 'mcphost', 'plugins');

/** A PRG at base: 10 SYS (base + 12), then LDA #$5A; STA $03F8; print "OK"; RTS. */
function sysStubPrg(base) {
  const digits = [...String(base + 12)].map((c) => c.charCodeAt(0));
  const next = base + 5 + digits.length + 1;
  return Buffer.from([
    base & 0xff, base >> 8, // load address
    next & 0xff, next >> 8, 0x0a, 0x00, 0x9e, ...digits, 0x00, 0x00, 0x00,
    0xa9, 0x5a, 0x8d, 0xf8, 0x03,
    0xa9, 0x4f, 0x20, 0xd2, 0xff, 0xa9, 0x4b, 0x20, 0xd2, 0xff, 0x60
  ]);
}

/** A PRG at $1001 whose SYS line runs LDA #42; STA debugcart; JMP *. */
function debugcartPrg(debugcart) {
  const base = 0x1001, code = base + 12;
  const digits = [...String(code)].map((c) => c.charCodeAt(0));
  return Buffer.from([
    0x01, 0x10, 0x0b, 0x10, 0x0a, 0x00, 0x9e, ...digits, 0x00, 0x00, 0x00,
    0xa9, 42, 0x8d, debugcart & 0xff, debugcart >> 8, 0x4c, (code + 5) & 0xff, (code + 5) >> 8
  ]);
}


// The expanded VIC-20 moves its screen to $1000 and BASIC to $1201; with
// 3k at $0400 BASIC starts at $0401 and the screen stays at $1E00.
const MACHINES = [
  { label: 'vic20', name: 'vic20', plugin: 'machine-vic20.so', banner: 'MCPHOST FREE BOOT ROM', base: 0x1001, screenPage: '1E' },
  { label: 'vic20 with 16k', name: 'vic20', args: ['--config', 'vic20_memory=16k'], plugin: 'machine-vic20.so', banner: 'MCPHOST FREE BOOT ROM', base: 0x1201, screenPage: '10' },
  { label: 'vic20 with 3k', name: 'vic20', args: ['--config', 'vic20_memory=3k'], plugin: 'machine-vic20.so', banner: 'MCPHOST FREE BOOT ROM', base: 0x0401, screenPage: '1E' },
  { label: 'plus4', name: 'plus4', plugin: 'machine-plus4.so', banner: 'MCPHOST FREE BOOT ROM (NO BASIC)', base: 0x1001, memTop: 'FD' },
  { label: 'c16', name: 'plus4', args: ['--config', 'model=c16'], plugin: 'machine-plus4.so', banner: 'MCPHOST FREE BOOT ROM (NO BASIC)', base: 0x1001, memTop: '40' }
];

for (const machine of MACHINES) {
  describe(`the free boot ROM on the ${machine.label}`, { skip: !existsSync(join(PLUGIN_DIR, machine.plugin)) && `${machine.plugin} is not built` }, () => {
    let host, dir;
    const ok = async (name, args = {}) => {
      const res = await host.client.callTool({ name, arguments: args });
      assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
      return res;
    };
    const screen = async () => resultText(await ok('screen_text'));
    const runFrames = (frames) => ok('execution_run_until', { frames, warp: true, timeout_ms: 60000 });

    before(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), `mh-bootrom-${machine.name}-`)));
      writeFileSync(join(dir, 'stub.prg'), sysStubPrg(machine.base));
      host = await connectHost({ args: ['--machine', machine.name, '--allow-dir', dir, ...(machine.args || [])] });
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('boots without --rom-dir to the banner and READY.', async () => {
      await runFrames(100);
      const text = await screen();
      assert.ok(text.includes(machine.banner), `banner on screen:\n${text}`);
      assert.ok(text.includes('--ROM-DIR'), `names --rom-dir:\n${text}`);
      assert.match(text, /READY\./, `a prompt:\n${text}`);
      if (machine.memTop) { // MEMTOP's high byte: the RAM the boot ROM found
        const top = await ok('memory_read', { address: '$0534', length: 1 });
        assert.equal(top.structuredContent.hex.replace(/\s+/g, '').toUpperCase(), machine.memTop, 'MEMTOP');
      }
      if (machine.screenPage) {
        const hibase = await ok('memory_read', { address: '$0288', length: 1 });
        assert.equal(hibase.structuredContent.hex.replace(/\s+/g, '').toUpperCase(), machine.screenPage, 'HIBASE');
      }
    });

    it('shows the character set from Debian\'s open-roms package', async () => {
      const chargen = readFileSync('/usr/share/open-roms/C64/chargen');
      // [CPU address, offset in the file]: the VIC-20's character ROM is the
      // whole file at $8000; the Plus/4 has $000-$3FF at $D000, $800-$BFF at $D400.
      const places = machine.name === 'vic20' ? [['$8008', 0x008], ['$8808', 0x808]] : [['$D008', 0x008], ['$D408', 0x808]];
      for (const [address, offset] of places) {
        const got = (await ok('memory_read', { address, length: 16 })).structuredContent.hex.replace(/\s+/g, '').toUpperCase();
        assert.equal(got, chargen.subarray(offset, offset + 16).toString('hex').toUpperCase(), `${address}`);
      }
    });

    it('reads a key from the matrix in its interrupt and answers an unknown command', async () => {
      await ok('keyboard_press', { key: 'Q', frames: 3 });
      await runFrames(20);
      let text = await screen();
      assert.match(text, /READY\.\s*\nQ\s*\n/, `Q echoed at the prompt:\n${text}`);
      await ok('keyboard_type', { text: '\n' });
      await runFrames(20);
      text = await screen();
      assert.match(text, /\?ONLY RUN AND SYS N/, `an unknown command:\n${text}`);
    });

    it('autostarts a D64: LOAD"*",8,1 through the virtual drive, then RUN', async () => {
      writeFileSync(join(dir, 'stub.d64'), withFile(blankD64('BOOTROM', '01'), 'STUB', sysStubPrg(machine.base)));
      await ok('memory_write', { address: '$03F8', bytes: [0] });
      const started = await ok('files_autostart', { path: join(dir, 'stub.d64') });
      await runFrames(150);
      const marker = await ok('memory_read', { address: '$03F8', length: 1 });
      const text = await screen();
      assert.equal(marker.structuredContent.hex.replace(/\s+/g, '').toUpperCase(), '5A',
        `the program ran (${resultText(started)}):\n${text}`);
      assert.match(text, /LOAD"\*",8,1\s*\nLOADING/, `the LOAD line:\n${text}`);
    });

    it('autostarts a PRG whose BASIC stub is a SYS line', async () => {
      await ok('memory_write', { address: '$03F8', bytes: [0] });
      const started = await ok('files_autostart', { path: join(dir, 'stub.prg') });
      await runFrames(100);
      const marker = await ok('memory_read', { address: '$03F8', length: 1 });
      assert.equal(marker.structuredContent.hex.replace(/\s+/g, '').toUpperCase(), '5A',
        `the machine code ran (${resultText(started)})`);
      const text = await screen();
      assert.match(text, /RUN/, `RUN was typed:\n${text}`);
      assert.match(text, /\nOK/, `the program printed OK:\n${text}`);
      assert.ok((text.match(/READY\./g) || []).length >= 2, `READY. again after it returned:\n${text}`);
    });
  });
}

// The headless runner, the way test programs run: autostart + debug cart,
// no ROMs at all, the exit code from the program.
describe('test programs on the boot ROMs in runner mode (--transport none)', () => {
  for (const [machine, debugcart] of [['vic20', 0x910f], ['plus4', 0xfdcf]]) {
    it(`${machine}: autostart, RUN, SYS, and the debug cart's exit code`, () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), `mh-bootrom-run-${machine}-`)));
      try {
        writeFileSync(join(dir, 'exit42.prg'), debugcartPrg(debugcart));
        const run = spawnSync(MCPHOST_BIN, hostArgs('--machine', machine, '--transport', 'none', '--warp',
          '--allow-dir', dir, '--config', `autostart=${join(dir, 'exit42.prg')}`, '--config', 'debugcart=true',
          '--limit-cycles', '30000000'), { encoding: 'utf8', timeout: 60000 });
        assert.equal(run.status, 42, `exit code 42 from the program; stderr:\n${run.stderr}`);
        assert.match(run.stderr, /boot ROM/i, run.stderr);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

// A VIC-20 autostart cartridge at $A000 ("A0CBM" at $A004) starts without
// any ROM: the boot ROM's reset jumps through ($A000) as the original does.
describe('a VIC-20 cartridge on the boot ROM', () => {
  it('starts through ($A000) and ends with the debug cart', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-bootrom-cart-')));
    try {
      const cart = Buffer.alloc(4096, 0xff);
      // $A000: cold start $A009, warm start $A009; "A0CBM"; LDA #42; STA $910F; JMP *
      Buffer.from([0x09, 0xa0, 0x09, 0xa0, 0x41, 0x30, 0xc3, 0xc2, 0xcd,
        0xa9, 42, 0x8d, 0x0f, 0x91, 0x4c, 0x0e, 0xa0]).copy(cart);
      writeFileSync(join(dir, 'cart.bin'), cart);
      const run = spawnSync(MCPHOST_BIN, hostArgs('--machine', 'vic20', '--transport', 'none', '--warp',
        '--allow-dir', dir, '--config', `cartridge=${join(dir, 'cart.bin')}`, '--config', 'debugcart=true',
        '--limit-cycles', '5000000'), { encoding: 'utf8', timeout: 60000 });
      assert.equal(run.status, 42, `exit code 42 from the cartridge; stderr:\n${run.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The boot ROM's IOINIT leaves the VIAs as the original KERNAL's does: the
// lines' directions and modes, the interrupt enables, and the flags the
// hardware raised meanwhile (VIA1's CA2, the cassette motor line, drifts low
// before it is driven; nothing clears that flag). Compared with the
// original ROMs when they are there ($MCPHOST_TEST_ROMS or ../shared/roms).
const VIC20_ROMS = [process.env.MCPHOST_TEST_ROMS, join(dirname(MCPHOST_BIN), '..', '..', '..', 'shared', 'roms')]
  .filter(Boolean).map((base) => join(base, 'VIC20')).find((dir) => existsSync(join(dir, 'kernal.901486-07.bin')));

describe('the VIC-20 boot ROM sets the VIAs up as the original KERNAL', { skip: !existsSync(join(PLUGIN_DIR, 'machine-vic20.so')) && 'machine-vic20.so is not built' }, () => {
  /** DDRB, DDRA, ACR, PCR, IER and the IFR bits no timer drives, of via1 and via2 at READY. */
  const viaSetup = async (args) => {
    const host = await connectHost({ args: ['--machine', 'vic20', ...args] });
    try {
      const ok = async (name, a = {}) => {
        const res = await host.client.callTool({ name, arguments: a });
        assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
        return res;
      };
      await ok('execution_run_until', { cycles: 3000000, warp: true, timeout_ms: 60000 });
      const setup = {};
      for (const instance of ['via1', 'via2']) {
        const r = (await ok('via_registers_get', { instance })).structuredContent.vias[0].registers;
        setup[instance] = { ddrb: r[2], ddra: r[3], acr: r[11], pcr: r[12], ifr: r[13] & 0x1f, ier: r[14] };
      }
      return setup;
    } finally {
      await host.close();
    }
  };

  it('has the lines, modes and enables the hardware needs, and keeps the flags they raised', async () => {
    const boot = await viaSetup([]);
    assert.deepEqual(boot, {
      via1: { ddrb: 0x00, ddra: 0x80, acr: 0x40, pcr: 0xfe, ifr: 0x01, ier: 0x82 },
      via2: { ddrb: 0xff, ddra: 0x00, acr: 0x40, pcr: 0xde, ifr: 0x00, ier: 0xc0 }
    });
  });

  it('is the state the original ROMs leave', { skip: !VIC20_ROMS && 'no VIC-20 ROMs in $MCPHOST_TEST_ROMS or ../shared/roms' }, async () => {
    assert.deepEqual(await viaSetup([]), await viaSetup(['--rom-dir', VIC20_ROMS]));
  });
});
