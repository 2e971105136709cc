// End-to-end (issue #18): execution_reverse_continue finds the last place
// before now where the forward engine would have stopped, through the real
// mcphost binary with the official MCP SDK client:
//   - a conditional exec breakpoint (x == 3 in a loop counting X, run three
//     times) lands on the last iteration where the condition held, with its
//     registers, also 3 s of emulated time later (many snapshot intervals
//     back);
//   - a read watchpoint is found backwards, stopping after the reading
//     instruction, and again the read before;
//   - a write watchpoint's condition sees the written value; the write log
//     (memory_history) keeps the writes up to the landing, also on the
//     Plus/4 (its cycles are TED ticks);
//   - watchpoint hits are counted per access (INC writes twice) and a
//     change watchpoint sees only writes that change the byte;
//   - an ignore count of N passes over the N latest hits; a temporary
//     breakpoint is deleted once reverse-continue stopped at it;
//   - it lands where the forward engine stopped: the same cycle, registers
//     and whole machine state (the snapshot's hash), for exec, read and
//     write, and on the C64 for a read right before an interrupt is taken
//     (the stop comes before the interrupt);
//   - a condition that never held answers with a clear error and leaves
//     the machine as it was (the whole state's hash, the cycle count, the
//     chip event log);
//   - on the C64, how long reverse-continue takes over 1 s and 10 s of
//     history (printed; no timed assertion; bench_reverse adds 59 s).
// The C64 (built-in ROMs) always; the VIC-20 and Plus/4 when their original
// ROMs are present.
import { describe, it, before, after, beforeEach } from 'node:test';
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

// Y counts three rounds of X counting 1..8; each X stored to var and a byte
// of src read; then it spins at done (interrupts on all along).
const LOOPS = `start   LDY #0
outer   LDX #0
loop    INX
mark    STX var
        LDA src,X
after   CPX #8
        BNE loop
        INY
        CPY #3
        BNE outer
done    JMP done
var     .byte 0
src     .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
`;
const LOOP = 4, MARK = 5, AFTER = 11, DONE = 20, VAR = 23, SRC = 24; // offsets of the labels

const hex = (n) => '$' + n.toString(16).toUpperCase().padStart(4, '0');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

for (const m of MACHINES) {
  describe(`reverse-continue on ${m.name}`, { skip: m.skip }, () => {
    let host, dir;
    const { ok, refused } = toolCallers(() => host);
    let n = 0;
    const stateHash = stateHasher(ok, () => dir);
    const regs = async () => {
      const s = (await ok('registers_get')).structuredContent;
      return { pc: s.pc, a: s.a, x: s.x, y: s.y };
    };
    const peek = async (address) => {
      const sc = (await ok('memory_read', { address: hex(address), length: 1 })).structuredContent;
      return sc.hex !== undefined ? parseInt(sc.hex.slice(0, 2), 16) : Buffer.from(sc.base64, 'base64')[0];
    };
    const cycles = async () => (await ok('execution_get_state')).structuredContent.cycles;
    const runCycles = async (count) =>
      ok('execution_run_until', { cycles: count, warp: true, timeout_ms: 120000 });
    const back = async () => {
      const r = await ok('execution_reverse_continue');
      return { r, s: r.structuredContent, regs: await regs() };
    };
    // Runs LOOPS to done, then `spin` more cycles there.
    const runLoops = async (spin) => {
      await ok('breakpoints_delete', { all: true });
      await ok('assemble', { address: hex(m.base), source: LOOPS, keep_labels: true });
      await ok('registers_set', { pc: hex(m.base) });
      await ok('breakpoints_set', { address: 'done', temporary: true });
      await ok('execution_run');
      await ok('execution_wait', { timeout_ms: 10000 });
      assert.equal((await regs()).pc, m.base + DONE, 'at done');
      if (spin) await runCycles(spin);
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mh-reverse-'));
      host = await connectHost({ args: [...m.args, '--allow-dir', dir, '--no-confirm'] });
      await runCycles(3000000); // past the KERNAL's start
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    // a short spin: the old search (the instruction history) would reach the
    // hits, so what it got wrong is the semantics
    beforeEach(async () => { await runLoops(30000); });

    it('lands on the last iteration where a conditional exec breakpoint held, with its registers', async () => {
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3' });
      const { r, s, regs: at } = await back();
      assert.equal(at.pc, m.base + MARK, `before the STX at mark: ${resultText(r)}`);
      assert.equal(at.x, 3, 'where x == 3');
      assert.equal(at.y, 2, 'in the last round');
      assert.equal(at.a, 2, 'A from the round before (src+2)');
      assert.equal(await peek(m.base + VAR), 2, 'the STX of X = 3 has not run');
      const id = (await ok('breakpoints_list')).structuredContent.breakpoints[0].id;
      assert.equal(s.breakpoint, id);
      assert.equal(s.state.stop.reason, 'breakpoint', 'the stop record says why, as a forward stop');
      assert.equal(s.state.stop.breakpoint.id, id);
      // and the round before
      const earlier = await back();
      assert.equal(earlier.regs.pc, m.base + MARK);
      assert.deepEqual([earlier.regs.x, earlier.regs.y], [3, 1], 'the round before');
      // 3 s later: many snapshot intervals back, beyond the instruction history
      await runLoops(3000000);
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3' });
      const far = await back();
      assert.deepEqual([far.regs.pc, far.regs.x, far.regs.y], [m.base + MARK, 3, 2], resultText(far.r));
      assert.ok(far.s.from_cycle - far.s.cycle > 2900000, 'from 3 s later');
    });

    it('finds a read watchpoint backwards, after the reading instruction', async () => {
      await ok('breakpoints_memory_watch', { address: hex(m.base + SRC + 5), on: 'read' });
      const { r, s, regs: at } = await back();
      assert.equal(at.pc, m.base + AFTER, `after the LDA src,X: ${resultText(r)}`);
      assert.deepEqual([at.a, at.x, at.y], [5, 5, 2], 'the read of src+5 in the last round');
      const stop = s.state.stop;
      assert.equal(stop.reason, 'watchpoint');
      assert.deepEqual([stop.access.kind, stop.access.address, stop.access.value, stop.access.by_pc],
        ['read', m.base + SRC + 5, 5, m.base + MARK + 3], 'the access in the stop record');
      const before = await back();
      assert.equal(before.regs.pc, m.base + AFTER);
      assert.deepEqual([before.regs.a, before.regs.x, before.regs.y], [5, 5, 1], 'the read before');
    });

    it('evaluates a write watchpoint condition on the written value', async () => {
      await ok('breakpoints_memory_watch', { address: 'var', on: 'write', condition: 'value == 4 && y == 1' });
      const { r, s, regs: at } = await back();
      assert.equal(at.pc, m.base + MARK + 3, `after the STX: ${resultText(r)}`);
      assert.deepEqual([at.x, at.y], [4, 1]);
      const access = s.state.stop.access;
      assert.deepEqual([access.kind, access.value, access.old_value], ['write', 4, 3]);
      // the write log ends with that write: the future is cut, the past kept
      const log = (await ok('memory_history', { address: 'var', count: 2 })).structuredContent.writes;
      assert.deepEqual(log.map((w) => [w.pc, w.new, w.old]), [[m.base + MARK, 4, 3], [m.base + MARK, 3, 2]],
        'the newest writes of var in the write log');
      assert.equal(await peek(m.base + VAR), 4);
    });

    it('passes over the N latest hits for an ignore count of N; a temporary breakpoint goes once it stopped', async () => {
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3', ignore_count: 1 });
      const one = await back();
      assert.equal(one.regs.pc, m.base + MARK, resultText(one.r));
      assert.deepEqual([one.regs.x, one.regs.y], [3, 1], 'the latest hit (round 2) passed over');
      await runLoops(100000);
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3', ignore_count: 2 });
      const two = await back();
      assert.deepEqual([two.regs.pc, two.regs.x, two.regs.y], [m.base + MARK, 3, 0], resultText(two.r));
      // each breakpoint counts its own hits: another one's later hit comes first
      await runLoops(100000);
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3', ignore_count: 2 });
      await ok('breakpoints_set', { address: 'loop', condition: 'x == 7 && y == 0' });
      const other = await back();
      assert.equal(other.regs.pc, m.base + LOOP, `the later hit of the other breakpoint: ${resultText(other.r)}`);
      assert.deepEqual([other.regs.x, other.regs.y], [7, 0]);
      await runLoops(100000);
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 3', temporary: true });
      const temp = await back();
      assert.deepEqual([temp.regs.pc, temp.regs.x, temp.regs.y], [m.base + MARK, 3, 2], resultText(temp.r));
      assert.equal((await ok('breakpoints_list')).structuredContent.breakpoints.length, 0,
        'the temporary breakpoint is gone');
    });

    it('lands exactly where the forward engine stopped: the same cycle and whole state', async () => {
      const kinds = [
        ['exec', () => ok('breakpoints_set', { address: 'mark', condition: 'x == 3 && y == 1' })],
        ['read', () => ok('breakpoints_memory_watch', { address: hex(m.base + SRC + 5), on: 'read', condition: 'y == 1' })],
        ['write', () => ok('breakpoints_memory_watch', { address: 'var', on: 'write', condition: 'value == 6 && y == 1' })],
      ];
      for (const [kind, set] of kinds) {
        await ok('breakpoints_delete', { all: true });
        await ok('registers_set', { pc: hex(m.base) });
        await set();
        await ok('execution_run');
        await ok('execution_wait', { timeout_ms: 10000 });
        const { reason, access, breakpoint } = (await ok('execution_get_state')).structuredContent.stop;
        const forward = { cycles: await cycles(), regs: await regs(), hash: await stateHash() };
        assert.equal(forward.regs.y, 1, `${kind}: the forward stop`);
        await ok('breakpoints_set', { address: 'done', temporary: true });
        await ok('execution_run');
        await ok('execution_wait', { timeout_ms: 10000 });
        await runCycles(1000000);
        const { r, s } = await back();
        assert.equal(await cycles(), forward.cycles, `${kind}: the same cycle: ${resultText(r)}`);
        assert.deepEqual(await regs(), forward.regs, kind);
        assert.deepEqual([s.state.stop.reason, s.state.stop.access, s.state.stop.breakpoint.id],
          [reason, access, breakpoint.id], `${kind}: the stop record's why`);
        assert.equal(await stateHash(), forward.hash, `${kind}: the same machine state`);
      }
    });

    it('counts a watchpoint hit per access: a change is a change of the byte, INC writes twice', async () => {
      const RMW = `rmw     LDA #0
        STA cv
        INC cv
        STA cv
        STA cv
        NOP
idle2   JMP idle2
cv      .byte $FF
`;
      const at = m.base + 0x100;
      await ok('breakpoints_delete', { all: true });
      await ok('assemble', { address: hex(at), source: RMW, keep_labels: true });
      const cases = [
        // change: $FF->0, 0->1 (INC's second write; its first writes the 0 again), 1->0; not 0->0
        [{ on: 'change' }, at + 11, 'after the STA that made it 0 again'],
        // write: newest first STA, STA, INC (twice: the unchanged byte, then the new one), STA
        [{ on: 'write', ignore_count: 2 }, at + 8, 'after the INC (its second write)'],
        [{ on: 'write', ignore_count: 3 }, at + 8, 'after the INC (its first write)'],
        [{ on: 'write', ignore_count: 4 }, at + 5, 'after the first STA'],
      ];
      for (const [watch, pc, what] of cases) {
        await ok('breakpoints_delete', { all: true });
        await ok('registers_set', { pc: hex(at) });
        await ok('execution_run_until', { address: 'idle2', timeout_ms: 10000 });
        await runCycles(20000);
        await ok('breakpoints_memory_watch', { address: 'cv', ...watch });
        const { r, regs: got } = await back();
        assert.equal(got.pc, pc, `${JSON.stringify(watch)}: ${what}: ${resultText(r)}`);
      }
    });

    it('keeps the write log up to the landing, however long the stretch from the snapshot', async () => {
      // a third of a second of delay loop, then one write
      const DELAY = `dly     LDY #0
d1      LDX #0
d2      DEX
        BNE d2
        DEY
        BNE d1
        LDA #$77
        STA wv
idle3   JMP idle3
wv      .byte 0
`;
      const at = m.base + 0x180;
      await ok('breakpoints_delete', { all: true });
      await ok('assemble', { address: hex(at), source: DELAY, keep_labels: true });
      await ok('registers_set', { pc: hex(at) });
      await ok('execution_run_until', { address: 'idle3', warp: true, timeout_ms: 20000 });
      await runCycles(20000);
      await ok('breakpoints_memory_watch', { address: 'wv', on: 'write' });
      const { r, regs: got } = await back();
      assert.equal(got.pc, at + 15, `after the STA: ${resultText(r)}`);
      const log = (await ok('memory_history', { address: 'wv', count: 1 })).structuredContent.writes;
      assert.deepEqual(log.map((w) => [w.pc, w.new]), [[at + 12, 0x77]], 'the write is still in the write log');
    });

    it('answers clearly when a condition never held, and leaves the machine where it was', async () => {
      await ok('breakpoints_set', { address: 'mark', condition: 'x == 200' });
      // (the KERNAL's RAM test reads and writes there too: the pc tells ours)
      await ok('breakpoints_memory_watch', { address: 'var', on: 'write', condition: `value == 99 && pc >= ${hex(m.base)}` });
      // the chip event log on, for a stretch the search re-executes
      await ok('trace_events_get', { size: 4096 });
      await runCycles(60000);
      const events = async () => (await ok('trace_events_get', { count: 200 })).structuredContent.events;
      const logged = await events();
      assert.ok(logged.length > 3, 'chip events logged');
      const saved = join(dir, `before${n++}.mhsnap`);
      await ok('snapshot_save', { path: saved });
      const before = { hash: sha(readFileSync(saved)), cycles: await cycles(), regs: await regs() };
      await refused('execution_reverse_continue', {}, /no enabled breakpoint or watchpoint would have stopped/);
      assert.equal(await cycles(), before.cycles, 'the same cycle');
      assert.deepEqual(await regs(), before.regs);
      assert.equal(await stateHash(), before.hash, 'the whole machine state unchanged');
      assert.deepEqual(await events(), logged, 'the chip event log as it was (the search logs nothing)');
      // and it runs on as it would have without the search
      await runCycles(50000);
      const searched = await stateHash();
      await ok('snapshot_load', { path: saved });
      await runCycles(50000);
      assert.equal(await stateHash(), searched, 'the same state 50000 cycles on');
      await ok('trace_events_get', { size: 0 });
    });

    if (m.name === 'c64') {
      it('stops a watchpoint after its instruction and before an interrupt taken there, as forward', async () => {
        // The KERNAL's CIA timer interrupt waits behind SEI; after CLI the CPU
        // runs one more instruction (the watched read), then takes it.
        const IRQT = `irqt    SEI
        LDY #20
w1      LDX #0
w2      DEX
        BNE w2
        DEY
        BNE w1
        CLI
probe   LDA isrc
after2  NOP
idle    JMP idle
isrc    .byte $5A
`;
        const at = m.base + 0x100;
        await ok('breakpoints_delete', { all: true });
        await ok('assemble', { address: hex(at), source: IRQT, keep_labels: true });
        await ok('registers_set', { pc: hex(at) });
        await ok('breakpoints_memory_watch', { address: 'isrc', on: 'read' });
        await ok('execution_run');
        await ok('execution_wait', { timeout_ms: 10000 });
        const forward = { cycles: await cycles(), regs: await regs(), hash: await stateHash() };
        assert.equal(forward.regs.pc, at + 15, 'forward: stopped after the LDA');
        assert.equal(forward.regs.a, 0x5a);
        await ok('execution_step');
        assert.ok((await regs()).pc >= 0xe000, 'the interrupt comes next (its handler in the KERNAL)');
        await runCycles(100000);
        const { r } = await back();
        assert.equal(await cycles(), forward.cycles, `the same cycle: ${resultText(r)}`);
        assert.deepEqual(await regs(), forward.regs);
        assert.equal(await stateHash(), forward.hash, 'the same machine state');
      });

      it('takes (printed) this long over 1 s and 10 s of history', async () => {
        for (const seconds of [1, 10]) { // 59 s: bench_reverse
          await runLoops(0);
          await ok('breakpoints_delete', { all: true });
          await ok('breakpoints_set', { address: 'mark', condition: 'x == 3 && y == 0' });
          await runCycles(seconds * 985248);
          const { s, regs: at } = await back();
          assert.deepEqual([at.pc, at.x, at.y], [m.base + MARK, 3, 0], `${seconds} s back`);
          console.log(`# reverse-continue over ${seconds} s of C64 history: ${s.elapsed_ms.toFixed(1)} ms ` +
            `(${s.replayed_cycles} cycles replayed to land, ring ${s.ring_snapshots} snapshots)`);
        }
      });
    }
  });
}
