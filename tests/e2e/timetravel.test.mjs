// End-to-end (issue #18): time travel through the real mcphost binary with
// the official MCP SDK client, on programs assembled in the test.
//   - determinism: the same snapshot with the same keyboard input, run
//     twice for 10 M cycles, gives the same state (the snapshot blob's
//     SHA-256), and without the input a different one (the hash sees it);
//   - execution_step_back over an INC restores memory and registers
//     exactly (and the cycle count);
//   - execution_rewind 100 frames and running forward again gives the same
//     frame (the PNG's hash), cycle and state as the first time;
//   - execution_reverse_continue lands after the last write a write
//     watchpoint would have caught, then the one before, and before the
//     last run of an exec breakpoint's instruction;
//   - typed input replays: rewinding into the middle of typing and
//     running on gives the same state;
//   - the answers report the snapshot ring's bytes.
// The C64 (built-in ROMs) always; the VIC-20 and Plus/4 when their original
// ROMs are present.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText, stateHasher, toolCallers } from './lib/client.mjs';
import { ROMS, skipReason } from './lib/roms.mjs';

const MACHINES = [
  { name: 'c64', base: 0xc000, args: ['--machine', 'c64'], skip: false },
  { name: 'vic20', base: 0x1400, args: ['--machine', 'vic20', '--rom-dir', join(ROMS, 'VIC20')], skip: skipReason('VIC20') },
  { name: 'plus4', base: 0x3000, args: ['--machine', 'plus4', '--rom-dir', join(ROMS, 'PLUS4')], skip: skipReason('PLUS4') },
];

// A loop that keeps memory and registers moving (with interrupts on).
const LOOP = `start   LDX #0
loop    INX
bump    INC var
        STX var+1
        JMP loop
var     .byte 0, 0
`;

// Writes var with 1..5, then stops at done.
const WRITES = `start   LDX #0
loop    INX
        STX var
after   NOP
        CPX #5
        BNE loop
done    JMP done
var     .byte 0
`;

const hex = (n) => '$' + n.toString(16).toUpperCase().padStart(4, '0');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

for (const m of MACHINES) {
  describe(`time travel on ${m.name}`, { skip: m.skip }, () => {
    let host, dir;
    const { ok, refused } = toolCallers(() => host);
    const stateHash = stateHasher(ok, () => dir);
    const frameHash = async () => {
      const r = await ok('screen_capture');
      const image = r.content.find((c) => c.type === 'image');
      assert.ok(image, 'screen_capture gives an image');
      return { hash: sha(image.data), frame: r.structuredContent.frame };
    };
    const regs = async () => {
      const s = (await ok('registers_get')).structuredContent;
      return { pc: s.pc, a: s.a, x: s.x, y: s.y, s: s.s, p: s.p };
    };
    const page = async (address) =>
      JSON.stringify((await ok('memory_read', { address: hex(address), length: 256 })).structuredContent);
    const cycles = async () => (await ok('execution_get_state')).structuredContent.cycles;
    const runCycles = async (count) =>
      ok('execution_run_until', { cycles: count, warp: true, timeout_ms: 120000 });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mh-travel-'));
      host = await connectHost({ args: [...m.args, '--allow-dir', dir, '--no-confirm'] });
      await runCycles(3000000); // past the KERNAL's start
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('is deterministic: the same snapshot and keyboard input give the same state after 10 M cycles', async () => {
      const start = join(dir, 'start.mhsnap');
      await ok('snapshot_save', { path: start });
      const typed = async () => {
        await ok('snapshot_load', { path: start });
        await ok('keyboard_type', { text: 'PRINT 6*7\n' });
        await runCycles(10000000);
        return stateHash();
      };
      const first = await typed();
      const second = await typed();
      assert.equal(second, first, 'same snapshot, same input: same state');
      const screen = resultText(await ok('screen_text'));
      assert.match(screen, /PRINT 6\*7/, 'the typed line is on the screen');
      await ok('snapshot_load', { path: start });
      await runCycles(10000000);
      assert.notEqual(await stateHash(), first, 'without the input the state differs');
    });

    it('replays typed input: rewinding into the middle of typing and running on gives the same state', async () => {
      await ok('keyboard_type', { text: 'PRINT 1+2+3+4+5+6+7\n' });
      const typedAt = await cycles();
      await runCycles(3000); // a few characters in ...
      const mid = await cycles();
      assert.doesNotMatch(resultText(await ok('screen_text')), /PRINT 1\+2\+3\+4\+5\+6\+7/, 'still typing');
      await runCycles(3000000); // ... and well after RETURN
      const end = { cycles: await cycles(), state: await stateHash() };
      assert.match(resultText(await ok('screen_text')), /PRINT 1\+2\+3\+4\+5\+6\+7/);
      const r = (await ok('execution_rewind', { cycle: mid })).structuredContent;
      assert.ok(r.cycle >= mid && r.cycle > typedAt);
      assert.doesNotMatch(resultText(await ok('screen_text')), /PRINT 1\+2\+3\+4\+5\+6\+7/, 'back in the typing');
      await runCycles(end.cycles - r.cycle);
      assert.equal(await cycles(), end.cycles);
      assert.equal(await stateHash(), end.state, 'the same state, typing included');
    });

    it('steps back over an INC, restoring memory and registers exactly', async () => {
      await ok('assemble', { address: hex(m.base), source: LOOP, keep_labels: true });
      await ok('registers_set', { pc: hex(m.base) });
      await ok('breakpoints_set', { address: 'bump' });
      for (let i = 0; i < 3; i++) { // a few rounds in, interrupts and all
        await ok('execution_run');
        await ok('execution_wait', { timeout_ms: 10000 });
      }
      await ok('breakpoints_delete', { all: true });
      const before = { regs: await regs(), mem: await page(m.base), cycles: await cycles(), hash: await stateHash() };
      assert.equal(before.regs.pc, m.base + 3, 'at the INC');
      await ok('execution_step');
      const after = { regs: await regs(), mem: await page(m.base) };
      assert.notEqual(after.mem, before.mem, 'the INC changed memory');
      assert.notDeepEqual(after.regs, before.regs);
      const r = await ok('execution_step_back');
      const s = r.structuredContent;
      assert.equal(s.cycle, before.cycles, resultText(r));
      assert.ok(s.ring_bytes > 0 && s.ring_snapshots > 0, 'the ring reports its bytes');
      assert.match(resultText(r), /ring_bytes/);
      assert.deepEqual(await regs(), before.regs, 'registers restored');
      assert.equal(await page(m.base), before.mem, 'memory restored');
      assert.equal(await cycles(), before.cycles);
      assert.equal(await stateHash(), before.hash, 'the whole machine state restored');
      // N back: three steps forward, three back
      await ok('execution_step', { count: 3 });
      await ok('execution_step_back', { count: 3 });
      assert.deepEqual(await regs(), before.regs);
      assert.equal(await stateHash(), before.hash);
      // far back, across interrupts: each place is what the history recorded
      await ok('execution_step', { count: 3000 });
      const trace = (await ok('trace_instructions', { count: 1000 })).structuredContent.instructions;
      const seen = trace[799]; // the 800th instruction back
      const back = (await ok('execution_step_back', { count: 800 })).structuredContent;
      // (the Plus/4 counts TED ticks, and the history stamps its
      // instructions in CPU cycles from the last slice's start: near, not equal)
      if (m.name !== 'plus4') assert.equal(back.cycle, seen.cycle, 'at the recorded instruction');
      const at = await regs();
      assert.deepEqual(at, { pc: seen.pc, a: seen.a, x: seen.x, y: seen.y, s: seen.s, p: seen.p });
      await ok('execution_step_back', { count: 2200 });
      assert.equal(await stateHash(), before.hash, 'back where it started');
      // and forward again is the same road
      await ok('execution_step', { count: 2200 });
      assert.deepEqual(await regs(), at);
      // the previous stop: where the last step_back landed
      const prev = (await ok('execution_rewind', { to: 'stop' })).structuredContent;
      assert.equal(prev.cycle, before.cycles, 'back at the stop before');
      assert.equal(await stateHash(), before.hash);
    });

    it('rewinds 100 frames and runs forward to the same frame', async () => {
      await ok('execution_run_until', { frames: 150, warp: true, timeout_ms: 60000 });
      const first = { frame: await frameHash(), cycles: await cycles(), state: await stateHash(), regs: await regs(),
        frameNumber: (await ok('execution_get_state')).structuredContent.stop.frame };
      const r = await ok('execution_rewind', { frames: 100 });
      const s = r.structuredContent;
      const stopFrame = (await ok('execution_get_state')).structuredContent.stop.frame;
      assert.ok(first.frameNumber - stopFrame >= 99 && first.frameNumber - stopFrame <= 101,
        `went 100 frames back (frame ${first.frameNumber} -> ${stopFrame}): ${resultText(r)}`);
      assert.equal(s.state.stop.cycles, s.cycle);
      await runCycles(first.cycles - s.cycle);
      assert.equal(await cycles(), first.cycles, 'back at the same cycle');
      const again = await frameHash();
      assert.equal(again.hash, first.frame.hash, 'the same frame');
      assert.deepEqual(await regs(), first.regs);
      assert.equal(await stateHash(), first.state, 'the same state');
      // to a cycle, and back to the previous stop
      const to = first.cycles - 50000;
      const c = (await ok('execution_rewind', { cycle: to })).structuredContent;
      assert.ok(c.cycle >= to && c.cycle < to + 10, `to cycle ${to}: ${c.cycle}`);
      await refused('execution_rewind', { cycle: 1 }, /older than the snapshot ring/);
      await refused('execution_rewind', {}, /exactly one of/);
    });

    it('reverse-continues to the last write a watchpoint would have caught', async () => {
      await ok('assemble', { address: hex(m.base), source: WRITES, keep_labels: true });
      await ok('registers_set', { pc: hex(m.base) });
      await ok('breakpoints_set', { address: 'done' });
      await ok('execution_run');
      await ok('execution_wait', { timeout_ms: 10000 });
      assert.equal((await regs()).pc, m.base + 11);
      await ok('breakpoints_delete', { all: true });
      await ok('breakpoints_memory_watch', { address: 'var', on: 'write' });
      const onlyId = async () => (await ok('breakpoints_list')).structuredContent.breakpoints[0].id;
      const watchId = await onlyId();
      const r = await ok('execution_reverse_continue');
      const after = m.base + 6;
      assert.equal((await regs()).pc, after, `after the last STX var: ${resultText(r)}`);
      assert.equal((await regs()).x, 5);
      const varAt = m.base + 14;
      const mem = (await ok('memory_read', { address: hex(varAt), length: 1 })).structuredContent;
      assert.match(JSON.stringify(mem), /05/);
      assert.equal(r.structuredContent.breakpoint, watchId, 'the watchpoint');
      await ok('execution_reverse_continue');
      const regs4 = await regs();
      assert.equal(regs4.pc, after);
      assert.equal(regs4.x, 4, 'the write before');
      // an exec breakpoint: back to before the INX that made X 4
      await ok('breakpoints_delete', { all: true });
      await ok('breakpoints_set', { address: 'loop' });
      const bpId = await onlyId();
      const e = (await ok('execution_reverse_continue')).structuredContent;
      const regs3 = await regs();
      assert.equal(regs3.pc, m.base + 2, 'before the INX at loop');
      assert.equal(regs3.x, 3);
      assert.equal(e.breakpoint, bpId, 'the exec breakpoint');
      assert.notEqual(bpId, watchId);
      await ok('breakpoints_delete', { all: true });
    });
  });
}
