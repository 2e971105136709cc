// End-to-end (issue #18): "what happened and why" through the real mcphost
// binary with the official MCP SDK client. A program assembled in the test
// (the `assemble` tool, labels kept) has a routine that corrupts a variable:
//   - memory_history on the variable (by label) names the PC that wrote it,
//     with its label+offset, old and new value, and lists every writer
//     since the log started (also those the ring no longer holds);
//   - trace_instructions, filtered to the program's PC range (labels),
//     returns the last instructions before an exec breakpoint with the
//     right PCs and registers, newest or oldest first, paged;
//   - the ring sizes are settable and 0 turns a ring off.
// On bare6502 and the C64 (its built-in ROMs) always; on the VIC-20 and
// Plus/4 when their original ROMs are present.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { join } from 'node:path';
import { ROMS, skipReason } from './lib/roms.mjs';

const PROGRAM = `start   LDX #0
loop    JSR setvar
        JSR corrupt
        INX
        CPX #3
        BNE loop
done    NOP
        JMP done
setvar  LDA #$11
        STA var
        RTS
corrupt LDY #$99
        STY var
        RTS
var     .byte 0
`;

// Where the program goes: RAM on each machine.
const MACHINES = [
  { name: 'bare6502', base: 0xc000, args: ['--machine', 'bare6502'], skip: false },
  { name: 'c64', base: 0xc000, args: ['--machine', 'c64'], skip: false },
  { name: 'vic20', base: 0x1400, args: ['--machine', 'vic20', '--rom-dir', join(ROMS, 'VIC20')], skip: skipReason('VIC20') },
  { name: 'plus4', base: 0x3000, args: ['--machine', 'plus4', '--rom-dir', join(ROMS, 'PLUS4')], skip: skipReason('PLUS4') },
];

for (const m of MACHINES) {
  describe(`instruction history and write log on ${m.name}`, { skip: m.skip }, () => {
    let host;
    const { call, ok } = toolCallers(() => host);
    const at = (offset) => m.base + offset;
    const hex = (n) => '$' + n.toString(16).toUpperCase().padStart(4, '0');

    before(async () => {
      host = await connectHost({ args: [...m.args, '--no-confirm'] });
      await ok('execution_step'); // to an instruction boundary
      await ok('assemble', { address: hex(m.base), source: PROGRAM, keep_labels: true });
      await ok('registers_set', { pc: hex(m.base), i: true });
      await ok('breakpoints_set', { address: 'done' });
      await ok('execution_run');
      const stop = (await ok('execution_wait', { timeout_ms: 10000 })).structuredContent.stop;
      assert.equal(stop.pc, at(0x0d), `stopped at done: ${JSON.stringify(stop)}`);
    });
    after(async () => host?.close());

    it('memory_history names the routine that corrupted the variable', async () => {
      const r = await ok('memory_history', { address: 'var' });
      const s = r.structuredContent;
      assert.equal(s.address, at(0x1d));
      assert.equal(s.matched, 6, resultText(r));
      const newest = s.writes[0];
      assert.equal(newest.pc, at(0x19), 'STY var in corrupt');
      assert.equal(newest.symbol, 'corrupt+2');
      assert.equal(newest.old, 0x11);
      assert.equal(newest.new, 0x99);
      assert.equal(s.writes[1].pc, at(0x13), 'before it, STA var in setvar');
      assert.equal(s.writes[1].new, 0x11);
      assert.ok(s.writes[0].cycle > s.writes[1].cycle);
      // the beam where there is one (bare6502 has none: 0)
      const [a, b] = s.writes;
      if (m.name === 'bare6502') assert.deepEqual([a.line, a.line_cycle], [0, 0]);
      else {
        assert.ok(a.line < 320 && b.line < 320, JSON.stringify([a, b]));
        assert.notDeepEqual([a.line, a.line_cycle], [b.line, b.line_cycle], 'writes some cycles apart, beam moved');
      }
      assert.deepEqual(s.writers.map((w) => [w.symbol, w.writes]), [['setvar+2', 3], ['corrupt+2', 3]]);
      const text = resultText(r);
      assert.match(text, /corrupt\+2/);
      assert.match(text, /\$11 -> \$99/);
      // oldest first: the first write of all, $00 -> $11
      const first = (await ok('memory_history', { address: 'var', order: 'oldest', count: 1 })).structuredContent;
      assert.equal(first.writes[0].old, 0);
      assert.equal(first.writes[0].new, 0x11);
      assert.equal(first.more, true);
    });

    it('trace_instructions returns the last instructions before the breakpoint, filtered by PC', async () => {
      const r = await ok('trace_instructions', { start: 'start', end: 'done', count: 3 });
      const s = r.structuredContent;
      const rows = s.instructions;
      assert.deepEqual(rows.map((i) => i.pc), [at(0x0b), at(0x09), at(0x08)], resultText(r));
      assert.equal(rows[0].instruction.slice(0, 3), 'BNE');
      assert.equal(rows[0].x, 3, 'BNE ran with X = 3');
      assert.equal(rows[0].p & 0x02, 0x02, 'Z set by CPX #3');
      assert.equal(rows[1].x, 3);
      assert.equal(rows[2].x, 2, 'INX ran with X = 2');
      assert.equal(rows[2].symbol, 'loop+6');
      assert.equal(rows[0].bytes, 'D0 F5');
      // LDX + 3 * 5 instructions of the main loop ran
      assert.equal(s.matched, 16);
      assert.equal(s.more, true);
      // page on: offset 3, and oldest first starts at start
      const next = (await ok('trace_instructions', { start: 'start', end: 'done', count: 2, offset: 3 })).structuredContent;
      assert.equal(next.instructions[0].pc, at(0x05));
      const oldest = (await ok('trace_instructions', { start: 'start', end: 'done', count: 1, order: 'oldest' })).structuredContent;
      assert.equal(oldest.instructions[0].pc, at(0));
      assert.equal(oldest.instructions[0].instruction, 'LDX #$00');
      // unfiltered (no interrupts: I set), the newest is still the BNE
      const all = (await ok('trace_instructions', { count: 1 })).structuredContent;
      assert.equal(all.instructions[0].pc, at(0x0b));
    });

    it('ring sizes are settable; 0 turns a ring off', async () => {
      const off = (await ok('trace_instructions', { size: 0 })).structuredContent;
      assert.equal(off.size, 0);
      assert.equal(off.matched, 0);
      const on = (await ok('trace_instructions', { size: 1000 })).structuredContent;
      assert.equal(on.size, 1024);
      const logOff = (await ok('memory_history', { address: 'var', size: 0 })).structuredContent;
      assert.equal(logOff.matched, 0);
      await ok('memory_history', { address: 'var', size: 65536 });
      await ok('registers_set', { pc: hex(m.base) });
      await ok('execution_run');
      await ok('execution_wait', { timeout_ms: 10000 });
      const again = (await ok('memory_history', { address: 'var' })).structuredContent;
      assert.equal(again.matched, 6);
      assert.equal(again.writes[0].old, 0x11, 'the old value after re-arming comes from memory');
      // writers reach back beyond the ring: with room for 1 write, both
      // routines are still named (setvar's writes no longer in the log)
      await ok('memory_history', { address: 'var', size: 1 });
      await ok('registers_set', { pc: hex(m.base) });
      await ok('execution_run');
      await ok('execution_wait', { timeout_ms: 10000 });
      const small = (await ok('memory_history', { address: 'var' })).structuredContent;
      assert.equal(small.matched, 1);
      assert.deepEqual(small.writers.map((w) => [w.symbol, w.writes]), [['setvar+2', 0], ['corrupt+2', 1]]);
      assert.equal(small.writers_complete, true);
      const bad = await call('trace_instructions', { start: 'nosuchlabel' });
      assert.equal(bad.isError, true);
    });
  });
}
