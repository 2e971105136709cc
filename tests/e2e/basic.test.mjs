// End-to-end: basic_type and basic_list through the real binary and the MCP
// SDK client, on each machine with BASIC. A program typed in as text runs
// (RUN through keyboard_type, its output read with screen_text), lists back
// as the same text, goes out to a .bas file and comes back from it; a
// broken link chain is reported, not followed; a machine without BASIC
// (bare6502) refuses both tools with a reason.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';
import { sleep } from './lib/env.mjs';
import { romDir, skipReason } from './lib/roms.mjs';

// What the free Open ROMs' BASIC runs (it has no variables yet).
// Written as agents write BASIC, in capitals: basic_list gives it back so.
const PROGRAM = '10 PRINT "SUM"\n20 GOTO 40\n30 PRINT "NO"\n40 PRINT "DONE"\n50 REM {clr}OK\n';

// The machines with BASIC: the C64 on the free Open ROMs, and each machine
// on its original ROMs when they are beside the repository
// (../shared/roms or $MCPHOST_TEST_ROMS; skipped, saying so, without them).
const withRoms = (machine, folder) => ({
  machine, label: `${machine} (original ROMs)`, args: ['--rom-dir', romDir(folder) ?? ''],
  skip: skipReason(folder) });
const MACHINES = [
  { machine: 'c64', label: 'c64 (Open ROMs)', args: [], skip: false },
  withRoms('c64', 'C64'),
  withRoms('vic20', 'VIC20'),
  withRoms('plus4', 'PLUS4'),
];

for (const { machine, label, args, skip } of MACHINES) {
  describe(`BASIC on the ${label}`, { skip }, () => {
    let host, dir;
    const call = (name, args = {}) => host.client.callTool({ name, arguments: args });
    const ok = async (name, args = {}) => {
      const res = await call(name, args);
      assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
      return res;
    };
    before(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcphost-basic-')));
      host = await connectHost({ args: ['--machine', machine, ...args, '--allow-dir', dir, '--no-confirm'] });
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('refuses before BASIC has set up its pointers, saying why', async () => {
      const res = await call('basic_list');
      assert.equal(res.isError, true);
      assert.match(resultText(res), /TXTTAB.*run the machine to READY first/);
    });

    it('types a program in that RUN runs, and lists it back as the same text', async () => {
      // Up to READY (the original KERNALs test RAM first).
      let screen = '';
      for (let i = 0; i < 20 && !/^READY\.\s*$/m.test(screen); i++) {
        await ok('execution_run_until', { frames: 50, warp: true, timeout_ms: 60000 });
        screen = resultText(await ok('screen_text'));
      }
      assert.match(screen, /^READY\.\s*$/m, `the machine reached READY:\n${screen}`);
      const typed = await ok('basic_type', { text: PROGRAM });
      assert.equal(typed.structuredContent.lines, 5);
      const start = typed.structuredContent.start;
      const listed = await ok('basic_list');
      assert.equal(listed.structuredContent.start, start);
      assert.equal(listed.structuredContent.end, typed.structuredContent.end);
      assert.equal(listed.structuredContent.vartab, typed.structuredContent.end, 'VARTAB after the program');
      assert.deepEqual(listed.structuredContent.lines.map((l) => l.text), PROGRAM.trim().split('\n'));
      assert.equal(listed.structuredContent.lines[0].address, start);

      await ok('keyboard_type', { text: 'RUN\n' });
      screen = '';
      for (let i = 0; i < 50 && !/DONE/.test(screen); i++) {
        await ok('execution_run_until', { frames: 10, warp: true, timeout_ms: 30000 });
        screen = resultText(await ok('screen_text'));
      }
      assert.match(screen, /^RUN\s*\nSUM\s*\nDONE\s*$/m, `the program ran, GOTO skipping line 30:\n${screen}`);
    });

    it('writes the listing to a .bas file (never over one without overwrite) and reads it back', async () => {
      const path = join(dir, 'prog.bas');
      await ok('basic_list', { path });
      assert.equal(readFileSync(path, 'utf8'), PROGRAM);
      const again = await call('basic_list', { path });
      assert.equal(again.isError, true, 'an existing file is not replaced');
      assert.match(resultText(again), /overwrite: true/);
      // it can write a file, so it does not claim to be read-only (as snapshot_save)
      const listedTool = (await host.client.listTools()).tools.find((t) => t.name === 'basic_list');
      assert.notEqual(listedTool.annotations?.readOnlyHint, true, JSON.stringify(listedTool.annotations));
      assert.equal(listedTool.annotations?.destructiveHint, false, 'a new file only; replacing needs overwrite');
      await ok('basic_list', { path, overwrite: true });
      writeFileSync(join(dir, 'other.bas'), '100 print "from file"\n'); // petcat's lower case reads the same
      const typed = await ok('basic_type', { path: join(dir, 'other.bas') });
      assert.equal(typed.structuredContent.lines, 1);
      const listed = await ok('basic_list');
      assert.deepEqual(listed.structuredContent.lines.map((l) => l.text), ['100 PRINT "FROM FILE"']);
    });

    it('refuses bad text with the line and the reason, and a path outside the allowed directories', async () => {
      let res = await call('basic_type', { text: '20 a=1\n10 b=2' });
      assert.equal(res.isError, true);
      assert.match(resultText(res), /line 2 of the text: line number 10 after 20/);
      res = await call('basic_type', { text: '10 print "{nope}"' });
      assert.match(resultText(res), /unknown code \{nope\}/);
      res = await call('basic_type', { text: '10 a', path: join(dir, 'prog.bas') });
      assert.match(resultText(res), /one of the two/);
      res = await call('basic_type', { path: '/etc/passwd' });
      assert.equal(res.isError, true);
      assert.ok(!existsSync(join(dir, 'passwd')));
    });

    it('reports a broken link chain instead of following it', async () => {
      const listed = await ok('basic_list');
      const start = listed.structuredContent.start;
      // The first line links to itself.
      await ok('memory_write', { address: start, bytes: [start & 0xff, start >> 8] });
      const broken = await ok('basic_list');
      assert.match(broken.structuredContent.broken, /links back to/);
      assert.equal(broken.structuredContent.end, null);
      assert.match(resultText(broken), /listing stopped/);
    });
  });
}

describe('BASIC on a machine without it', () => {
  it('bare6502 refuses basic_list and basic_type, naming the machine', async () => {
    const host = await connectHost({ args: ['--machine', 'bare6502'] });
    try {
      for (const name of ['basic_list', 'basic_type']) {
        const res = await host.client.callTool({ name, arguments: name === 'basic_type' ? { text: '10 a' } : {} });
        assert.equal(res.isError, true);
        assert.match(resultText(res), /bare6502 machine .* has no Commodore BASIC/);
      }
    } finally {
      await host.close();
      await sleep(0);
    }
  });
});
