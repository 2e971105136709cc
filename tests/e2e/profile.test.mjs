// End-to-end (issue #18): the profiler, the functions seen, the control-flow
// graph and the code/data log, through the real mcphost binary with the
// official MCP SDK client, on a program assembled in the test (labels kept):
// a loop calls suba 10 times and subb 3 times, so
//   - profile_get's call counts are 10 and 3, and their exclusive cycles
//     10 x 12 (INC abs 6 + RTS 6) and 3 x 15 (LDA abs,Y 4 + STA abs,Y 5 +
//     RTS 6), sorted and paged;
//   - functions_list finds both with their call sites and returns;
//   - cfg_get of the main code has both loops as back edges, and its DOT
//     and Mermaid texts have the structure those formats need;
//   - memory_usage_get marks the code executed and the table read and
//     written, and its heat map PNG shows the same;
//   - after profile_stop the counts stand still.
// On bare6502 and the C64 (interrupts masked: the counts are exact); and on
// the C64 with its interrupts on, the IRQ handler (the $FFFE vector's
// target) is an entry of kind irq that returns with RTI.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { decodeIndexedPng } from './lib/png.mjs';

const PROGRAM = `start   LDX #10
loopa   JSR suba
        DEX
        BNE loopa
        LDY #3
loopb   JSR subb
        DEY
        BNE loopb
done    NOP
        JMP done
suba    INC counter
        RTS
subb    LDA table,Y
        STA table+4,Y
        RTS
counter .byte 0
table   .byte 1,2,3,4,0,0,0,0
`;
// Offsets in PROGRAM (assembled at base).
const AT = { loopa: 0x02, loopb: 0x0a, done: 0x10, suba: 0x14, subb: 0x18, counter: 0x1f, table: 0x20 };

const MACHINES = [
  { name: 'bare6502', base: 0xc000, args: ['--machine', 'bare6502'] },
  { name: 'c64', base: 0xc000, args: ['--machine', 'c64'] },
];

for (const m of MACHINES) {
  describe(`profiler on ${m.name}`, () => {
    let host;
    const { ok, refused } = toolCallers(() => host);
    const at = (label) => m.base + AT[label];
    const hex = (n) => '$' + n.toString(16).toUpperCase().padStart(4, '0');

    before(async () => {
      host = await connectHost({ args: [...m.args, '--no-confirm'] });
      await ok('execution_step'); // to an instruction boundary
      await refused('profile_get', {}, /profile_start/);
      await ok('assemble', { address: hex(m.base), source: PROGRAM, keep_labels: true });
      await ok('registers_set', { pc: hex(m.base), i: true });
      await ok('breakpoints_set', { address: 'done' });
      const started = (await ok('profile_start')).structuredContent;
      assert.equal(started.on, true);
      assert.equal(started.instructions, 0);
      await ok('execution_run');
      const stop = (await ok('execution_wait', { timeout_ms: 10000 })).structuredContent.stop;
      assert.equal(stop.pc, at('done'), `stopped at done: ${JSON.stringify(stop)}`);
    });
    after(async () => host?.close());

    it('profile_get counts the calls and the exclusive cycles of each subroutine', async () => {
      const r = await ok('profile_get');
      const s = r.structuredContent;
      assert.equal(s.by, 'function');
      assert.equal(s.sort, 'exclusive');
      const rows = Object.fromEntries(s.rows.map((row) => [row.symbol, row]));
      assert.equal(s.matched, 2, resultText(r));
      assert.equal(rows.suba.address, at('suba'));
      assert.equal(rows.suba.calls, 10);
      assert.equal(rows.suba.instructions, 20);
      assert.equal(rows.suba.exclusive, 10 * 12);
      assert.equal(rows.suba.inclusive, 10 * 12, 'suba calls nothing');
      assert.equal(rows.subb.calls, 3);
      assert.equal(rows.subb.exclusive, 3 * 15);
      assert.deepEqual(s.rows.map((row) => row.symbol), ['suba', 'subb'], 'most exclusive cycles first');
      assert.match(resultText(r), /suba\): 10 calls/);
      // sorted by calls the other way round? no: by calls suba (10) still leads; by address too
      const byAddress = (await ok('profile_get', { sort: 'address', count: 1 })).structuredContent;
      assert.equal(byAddress.rows[0].symbol, 'suba');
      assert.equal(byAddress.more, true);
      const page2 = (await ok('profile_get', { sort: 'address', count: 1, offset: 1 })).structuredContent;
      assert.equal(page2.rows[0].symbol, 'subb');
      assert.equal(page2.more, false);
      // per address: INC counter ran 10 times, 6 cycles each
      const addresses = (await ok('profile_get', { by: 'address', sort: 'calls', count: 1000 })).structuredContent;
      const inc = addresses.rows.find((row) => row.address === at('suba'));
      assert.deepEqual([inc.instructions, inc.cycles], [10, 60]);
      assert.ok(addresses.rows.every((row) => row.address >= m.base && row.address < at('counter')),
        'only the program ran (interrupts masked)');
      // per loaded symbol: each label's code up to the next label
      const symbols = (await ok('profile_get', { by: 'symbol', sort: 'address', count: 1000 })).structuredContent;
      assert.deepEqual(symbols.rows.map((row) => [row.symbol, row.instructions, row.calls]),
        [['start', 1, 0], ['loopa', 31, 0], ['loopb', 9, 0], ['suba', 20, 10], ['subb', 9, 3]]);
      assert.equal(symbols.rows[3].exclusive, 120);
    });

    it('functions_list finds the subroutines with their callers and returns', async () => {
      const r = await ok('functions_list');
      const fns = r.structuredContent.functions;
      assert.deepEqual(fns.map((f) => [f.symbol, f.calls, f.kinds]), [['suba', 10, 'jsr'], ['subb', 3, 'jsr']]);
      assert.deepEqual(fns[0].callers.map((c) => c.address), [at('loopa')]);
      assert.deepEqual(fns[0].returns.map((c) => c.address), [at('suba') + 3]);
      assert.deepEqual(fns[1].callers.map((c) => c.symbol), ['loopb']);
      assert.deepEqual(fns[1].returns.map((c) => c.address), [at('subb') + 6]);
      assert.match(resultText(r), /callers: \$[0-9A-F]{4} \(loopa\)/);
      assert.equal(r.structuredContent.complete, true);
    });

    it('cfg_get has the loops as back edges, in JSON, DOT and Mermaid', async () => {
      const s = (await ok('cfg_get', { function: 'start' })).structuredContent;
      const blocks = s.blocks.map((b) => [b.start, b.last]);
      assert.deepEqual(blocks, [
        [m.base, m.base],
        [at('loopa'), at('loopa') + 4],
        [at('loopa') + 6, at('loopa') + 6],
        [at('loopb'), at('loopb') + 4],
      ]);
      assert.equal(s.blocks[1].count, 10, 'the loopa block ran 10 times');
      const back = s.edges.filter((e) => e.back).map((e) => [e.from, e.to]);
      assert.deepEqual(back.sort(), [[at('loopa'), at('loopa')], [at('loopb'), at('loopb')]].sort());
      const edge = (from, to) => s.edges.find((e) => e.from === from && e.to === to);
      assert.equal(edge(at('loopa'), at('loopa') + 6)?.kind, 'fall', 'BNE not taken leaves the loop');
      assert.equal(edge(at('loopa'), at('loopa')).kind, 'taken');

      const dot = (await ok('cfg_get', { function: hex(m.base), format: 'dot' })).structuredContent.graph;
      const lines = dot.trim().split('\n');
      assert.match(lines[0], /^digraph "start" \{$/);
      assert.equal(lines.at(-1), '}');
      const nodes = new Set(), targets = [];
      for (const line of lines.slice(1, -1)) {
        const node = line.match(/^ {2}(b[0-9A-F]{4}) \[label="[^"]*"( style=bold)?\];$/);
        const arrow = line.match(/^ {2}(b[0-9A-F]{4}) -> (b[0-9A-F]{4}) \[label="(fall|taken|jump)( \(back\))?"( style=dashed)?\];$/);
        assert.ok(node || arrow || /^ {2}node \[/.test(line), `a DOT statement: ${line}`);
        if (node) nodes.add(node[1]);
        if (arrow) targets.push(arrow[1], arrow[2]);
      }
      assert.equal(nodes.size, 4);
      assert.equal(targets.length, 2 * s.edges.length);
      assert.ok(targets.every((t) => nodes.has(t)), 'every edge joins declared nodes');
      assert.equal((dot.match(/style=dashed/g) ?? []).length, 2, 'two back edges');

      const mermaid = (await ok('cfg_get', { function: 'start', format: 'mermaid' })).structuredContent.graph;
      const mlines = mermaid.trim().split('\n');
      assert.equal(mlines[0], 'flowchart TD');
      const mnodes = mlines.filter((l) => /^ {2}b[0-9A-F]{4}\["[^"]*"\]$/.test(l));
      const medges = mlines.filter((l) => /^ {2}b[0-9A-F]{4} (-->|-\.->)\|(fall|taken|jump)\| b[0-9A-F]{4}$/.test(l));
      assert.equal(mnodes.length, 4);
      assert.equal(medges.length, s.edges.length);
      assert.equal(mlines.length, 1 + mnodes.length + medges.length, 'nothing else');
      await refused('cfg_get', { function: 'table' }, /no instruction ran/);
    });

    it('memory_usage_get marks the code executed and the table read and written', async () => {
      const code = (await ok('memory_usage_get', { address: 'suba', length: 4, image: false })).structuredContent;
      assert.deepEqual([code.opcode, code.operand, code.read, code.written], [2, 2, 0, 0]);
      assert.deepEqual(code.code.map((r) => [r.start, r.end]), [[at('suba'), at('suba') + 3]]);
      const table = (await ok('memory_usage_get', { address: 'table', length: 8, image: false })).structuredContent;
      // LDA table,Y with Y = 3, 2, 1; STA table+4,Y the same
      assert.deepEqual([table.opcode, table.read, table.written, table.untouched], [0, 3, 3, 2]);
      assert.deepEqual(table.data.map((r) => [r.start, r.end]),
        [[at('table') + 1, at('table') + 3], [at('table') + 5, at('table') + 7]]);
      assert.equal(table.code.length, 0);
      const counter = (await ok('memory_usage_get', { address: 'counter', image: false })).structuredContent;
      assert.deepEqual([counter.read, counter.written, counter.reads, counter.writes], [1, 1, 10, 20],
        'INC reads once and writes twice (the dummy write)');

      const r = await ok('memory_usage_get');
      const image = r.content.find((c) => c.type === 'image');
      assert.equal(image?.mimeType, 'image/png');
      const png = decodeIndexedPng(Buffer.from(image.data, 'base64'));
      assert.deepEqual([png.width, png.height], [256, 256]);
      const colour = (address) => png.palette[png.pixels[address]];
      assert.equal(colour(at('suba')), 0x40ff40, 'opcode green');
      assert.equal(colour(at('suba') + 1), 0x209020, 'operand dark green');
      assert.equal(colour(at('table') + 1), 0x4080ff, 'read blue');
      assert.equal(colour(at('table') + 5), 0xff4040, 'written red');
      assert.equal(colour(at('counter')), 0xff40ff, 'read and written magenta');
      assert.equal(colour(at('table') + 4), 0x181818, 'untouched');
    });

    it('profile_stop keeps the tables and counts no more', async () => {
      const stopped = (await ok('profile_stop')).structuredContent;
      assert.equal(stopped.on, false);
      await ok('execution_step', { count: 5 });
      const s = (await ok('profile_get')).structuredContent;
      assert.equal(s.on, false);
      assert.equal(s.instructions, stopped.instructions);
      assert.equal(s.rows.find((row) => row.symbol === 'suba').calls, 10);
      // a fresh start empties them
      await ok('profile_start');
      const empty = (await ok('profile_get')).structuredContent;
      assert.equal(empty.matched, 0);
      // and it starts, reads and stops while the machine runs
      await ok('breakpoints_delete', { all: true });
      await ok('execution_run');
      let running;
      for (let i = 0; i < 200; i++) { // until the running machine has looped a while
        running = (await ok('profile_get', { by: 'address' })).structuredContent;
        if (running.instructions >= 100) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(running.on, true);
      assert.ok(running.instructions >= 100, `counted while running: ${running.instructions}`);
      await ok('profile_stop');
      await ok('execution_pause');
      const after = (await ok('profile_get', { by: 'address' })).structuredContent;
      assert.equal(after.on, false);
      assert.ok(after.instructions > 0, 'it counted the done loop');
      assert.deepEqual(after.rows.map((row) => row.address).sort(), [at('done'), at('done') + 1]);
    });
  });
}

describe('profiler on a C64 taking interrupts', () => {
  let host;
  const { ok } = toolCallers(() => host);
  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--no-confirm'] });
  });
  after(async () => host?.close());

  it('finds the IRQ handler as an entry of kind irq, entered from the interrupted code', async () => {
    await ok('execution_pause');
    await ok('profile_start');
    await ok('execution_run_until', { frames: 5 });
    const hex = (await ok('memory_read', { address: '$FFFE', length: 2 })).structuredContent.hex;
    const vector = parseInt(hex.slice(2, 4) + hex.slice(0, 2), 16);
    const fns = (await ok('functions_list', { count: 1000 })).structuredContent.functions;
    const irq = fns.find((f) => f.entry === vector);
    assert.ok(irq, `an entry at the IRQ vector $${vector.toString(16)}: ${JSON.stringify(fns.slice(0, 5))}`);
    assert.equal(irq.kinds, 'irq');
    assert.ok(irq.calls >= 3 && irq.calls <= 8, `the timer IRQ about once a frame (60 Hz): ${irq.calls}`);
    assert.ok(irq.callers.length >= 1);
    assert.ok(irq.returns.length >= 1);
    const rti = (await ok('memory_read', { address: irq.returns[0].address, length: 1 })).structuredContent.hex;
    assert.equal(rti, '40', 'it returns with RTI');
    const row = (await ok('profile_get', { count: 1000 })).structuredContent.rows.find((r) => r.address === vector);
    assert.ok(row.inclusive >= row.exclusive && row.exclusive >= 7 * row.calls, JSON.stringify(row));
    await ok('profile_stop');
  });
});
