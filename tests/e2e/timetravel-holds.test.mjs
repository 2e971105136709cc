// End-to-end (issue #18): time travel across input holds, through the real
// mcphost binary with the official MCP SDK client. A program with
// interrupts off reads the keyboard matrix (all columns selected) in a
// loop, keeping the last value and counting the reads that saw a key down;
// keyboard_press holds a key for some frames (the machine releases it
// itself: the hold's countdown is not in machine snapshots).
//   - rewinding from after a hold's end into the hold and running forward
//     again gives the same counts and the same whole state (the ring keeps
//     the pending holds beside its snapshots and travel restores them);
//   - rewinding to before a pending hold began drops the hold: a new hold
//     of the same key lasts its own frames, not what was left of the old.
// The C64 (built-in ROMs) always; the VIC-20 and Plus/4 when their original
// ROMs are present.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText, stateHasher, toolCallers } from './lib/client.mjs';
import { ROMS, skipReason } from './lib/roms.mjs';

// How each machine reads its whole keyboard matrix into A.
const MACHINES = [
  { name: 'c64', base: 0xc000, args: ['--machine', 'c64'], skip: false,
    read: 'LDA #0\n        STA $DC00\n        LDA $DC01' },
  { name: 'vic20', base: 0x1400, args: ['--machine', 'vic20', '--rom-dir', join(ROMS, 'VIC20')], skip: skipReason('VIC20'),
    read: 'LDA #0\n        STA $9120\n        LDA $9121' },
  { name: 'plus4', base: 0x3000, args: ['--machine', 'plus4', '--rom-dir', join(ROMS, 'PLUS4')], skip: skipReason('PLUS4'),
    read: 'LDA #0\n        STA $FD30\n        LDA #$FF\n        STA $FF08\n        LDA $FF08' },
];

const program = (read) => `start   SEI
        LDA #0
        STA downs
        STA downs+1
loop    ${read}
        STA last
        CMP #$FF
        BEQ loop
        INC downs
        BNE loop
        INC downs+1
        JMP loop
last    .byte 0
downs   .byte 0, 0
`;

const hex = (n) => '$' + n.toString(16).toUpperCase().padStart(4, '0');

for (const m of MACHINES) {
  describe(`time travel across input holds on ${m.name}`, { skip: m.skip }, () => {
    let host, dir;
    const { ok } = toolCallers(() => host);
    const stateHash = stateHasher(ok, () => dir);
    const cycles = async () => (await ok('execution_get_state')).structuredContent.cycles;
    const runCycles = async (count) =>
      ok('execution_run_until', { cycles: count, warp: true, timeout_ms: 120000 });
    const runFrames = async (frames) =>
      ok('execution_run_until', { frames, warp: true, timeout_ms: 120000 });
    // last matrix value read, and reads that saw a key down
    const readings = async () => {
      const h = (await ok('memory_read', { address: 'last', length: 3 })).structuredContent.hex
        .replace(/\s+/g, '');
      const b = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
      return { last: b[0], downs: b[1] | (b[2] << 8) };
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mh-holds-'));
      host = await connectHost({ args: [...m.args, '--allow-dir', dir, '--no-confirm'] });
      await runCycles(3000000); // past the KERNAL's start
      await ok('assemble', { address: hex(m.base), source: program(m.read), keep_labels: true });
      await ok('registers_set', { pc: hex(m.base) });
      await runFrames(20); // the ring takes snapshots of the running program
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('rewinding from after a hold into it and running on gives the same reads and state', async () => {
      const start = await readings();
      assert.equal(start.last, 0xff, 'no key down yet');
      assert.equal(start.downs, 0);
      await ok('keyboard_press', { key: 'A', frames: 60 });
      await runFrames(25);
      const inside = await cycles();
      const mid = await readings();
      assert.notEqual(mid.last, 0xff, 'the key is down during its hold');
      await runFrames(80); // the machine released it
      const end = { cycles: await cycles(), reads: await readings(), state: await stateHash() };
      assert.equal(end.reads.last, 0xff, 'released after its frames');
      assert.ok(end.reads.downs > mid.downs, 'more down reads until the release');
      const r = (await ok('execution_rewind', { cycle: inside })).structuredContent;
      assert.ok(r.cycle >= inside && r.cycle < inside + 100, `into the hold: ${JSON.stringify(r)}`);
      assert.notEqual((await readings()).last, 0xff, 'back in the hold: the key is down');
      await runCycles(end.cycles - r.cycle);
      assert.equal(await cycles(), end.cycles);
      assert.deepEqual(await readings(), end.reads, 'the same reads: the hold ended where it did');
      assert.equal(await stateHash(), end.state, 'the same whole state');
    });

    it('rewinding to before a pending hold drops it', async () => {
      await runFrames(5);
      const before = await cycles();
      await runCycles(2000);
      await ok('keyboard_press', { key: 'A', frames: 50 });
      await runFrames(30); // 20 frames of the hold left
      assert.notEqual((await readings()).last, 0xff);
      const r = (await ok('execution_rewind', { cycle: before })).structuredContent;
      assert.ok(r.cycle < before + 100, resultText({ content: [{ type: 'text', text: JSON.stringify(r) }] }));
      assert.equal((await readings()).last, 0xff, 'before the press: no key down');
      await ok('keyboard_press', { key: 'A', frames: 40 });
      await runFrames(30); // past where the dropped hold would have ended
      assert.notEqual((await readings()).last, 0xff, 'the new hold still runs (the old one is gone)');
      await runFrames(15);
      assert.equal((await readings()).last, 0xff, 'released after its own 40 frames');
    });
  });
}
