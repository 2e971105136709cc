// End-to-end: the debugging data tools of tools-debug (registers, memory,
// code) through the real mcphost binary over stdio, driven by the official
// MCP TypeScript SDK client, on a C64 session (--machine c64): write, read
// (also 64 KiB in hex and base64), search with wildcards, disassemble,
// assemble, banks, registers, and tool errors that say what to do. The SDK
// client checks every structuredContent against the tool's outputSchema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText } from './lib/client.mjs';
import { TOOL_NAME_RE } from './lib/env.mjs';

const DATA_TOOLS = [
  'registers_get', 'registers_set', 'memory_read', 'memory_write', 'memory_fill', 'memory_search',
  'memory_compare', 'memory_banks', 'disassemble', 'assemble', 'symbols_load', 'symbols_list',
  'backtrace', 'cycles_stopwatch'
];

describe('debug data tools over stdio on a C64', () => {
  let host;
  let call;

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64'] });
    call = (name, args = {}) => host.client.callTool({ name, arguments: args });
  });
  after(async () => {
    await host?.close();
    assert.deepEqual(host?.errors ?? [], [], 'the client saw no transport or protocol errors');
  });

  it('lists every data tool with a valid name, an object input schema and an output schema', async () => {
    const { tools } = await host.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of DATA_TOOLS) {
      assert.ok(byName[name], `${name} is listed`);
      assert.match(name, TOOL_NAME_RE);
      assert.equal(byName[name].inputSchema.type, 'object');
      assert.ok(byName[name].outputSchema, `${name} has an outputSchema`);
    }
    assert.equal(byName.memory_read.annotations.readOnlyHint, true);
    // Hints at MCP's default are not sent: destructiveHint defaults to true.
    assert.equal(byName.memory_write.annotations.destructiveHint ?? true, true);
    assert.equal(byName.memory_write.annotations.readOnlyHint ?? false, false);
  });

  it('writes, reads back, searches and disassembles', async () => {
    const w = await call('memory_write', { address: '$C000', bytes: 'A9 05 8D 20 D0 60' });
    assert.equal(w.isError, false, resultText(w));
    assert.equal(w.structuredContent.verified, true);
    assert.equal(w.structuredContent.address_hex, '$C000');

    const r = await call('memory_read', { address: 49152, length: 6, format: 'both' });
    assert.equal(r.isError, false, resultText(r));
    assert.equal(r.structuredContent.hex, 'A9058D20D060');
    assert.deepEqual([...Buffer.from(r.structuredContent.base64, 'base64')], [0xa9, 5, 0x8d, 0x20, 0xd0, 0x60]);
    assert.match(resultText(r), /C000 {2}A9 05 8D 20 D0 60/);

    const s = await call('memory_search', { pattern: 'A9 ?? 8D 20 D0', address: '$C000', end: '$CFFF' });
    assert.equal(s.isError, false, resultText(s));
    assert.equal(s.structuredContent.count, 1);
    assert.equal(s.structuredContent.matches[0].address, 0xc000);
    assert.equal(s.structuredContent.matches[0].address_hex, '$C000');

    const d = await call('disassemble', { address: '$C000', count: 3 });
    assert.equal(d.isError, false, resultText(d));
    assert.deepEqual(d.structuredContent.lines.map((l) => l.text), ['LDA #$05', 'STA $D020', 'RTS']);
    assert.equal(d.structuredContent.next_address_hex, '$C006');
  });

  it('assembles a block into memory and it disassembles back', async () => {
    const a = await call('assemble', { address: '$C100', source: 'loop: INC $D020\n JMP loop\n' });
    assert.equal(a.isError, false, resultText(a));
    assert.equal(a.structuredContent.bytes_written, 6);
    assert.equal(a.structuredContent.chunks[0].hex, 'EE20D04C00C1');
    const r = await call('memory_read', { address: '$C100', length: 6 });
    assert.equal(r.structuredContent.hex, 'EE20D04C00C1');
    const d = await call('disassemble', { address: '$C100', end: '$C105' });
    assert.deepEqual(d.structuredContent.lines.map((l) => l.text), ['INC $D020', 'JMP $C100']);

    const bad = await call('assemble', { address: '$C200', source: 'NOP\nLDX ($12),Y\n' });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /nothing was written: line 2/);
  });

  it('reads all 64 KiB in one call, hex and base64 agreeing', async () => {
    const hex = await call('memory_read', { address: 0, length: 65536, format: 'hex' });
    assert.equal(hex.isError, false, resultText(hex));
    assert.equal(hex.structuredContent.hex.length, 131072);
    assert.equal(hex.structuredContent.base64, undefined);
    assert.equal(hex.structuredContent.hex.slice(2 * 0xc000, 2 * 0xc000 + 12), 'A9058D20D060');
    /* over 4096 bytes base64 is the default */
    const b64 = await call('memory_read', { address: '$0000', end: '$FFFF' });
    assert.equal(b64.structuredContent.hex, undefined);
    const bytes = Buffer.from(b64.structuredContent.base64, 'base64');
    assert.equal(bytes.length, 65536);
    assert.equal(bytes.toString('hex').toUpperCase(), hex.structuredContent.hex);
    assert.match(resultText(hex), /structured result's "hex"/);
    assert.match(resultText(b64), /structured result's "base64"/);
    /* up to 4096 bytes hex stays the default */
    const small = await call('memory_read', { address: '$C000', length: 4096 });
    assert.equal(small.structuredContent.hex.length, 8192);
    assert.equal(small.structuredContent.base64, undefined);
  });

  it('reads 64 KiB in one call exactly as the concatenation of small reads, in two bankings', async () => {
    /* The big read goes through the machine's runs in place (RAM, ROM) and
     * its per-byte reads (port, I/O); small reads of odd sizes and offsets
     * must give the same bytes, and base64 must carry groups across runs. */
    const readAll = async () => {
      const parts = [];
      for (let at = 0; at < 65536;) {
        const length = Math.min(4093, 65536 - at); /* odd: parts end inside banks and groups */
        const r = await call('memory_read', { address: at, length });
        assert.equal(r.isError, false, resultText(r));
        parts.push(Buffer.from(r.structuredContent.hex, 'hex'));
        at += length;
      }
      return Buffer.concat(parts);
    };
    const bankings = [0x37, 0x35]; /* BASIC/KERNAL/I/O in, then only I/O */
    const seen = [];
    const portBefore = (await call('memory_read', { address: 0, length: 2 })).structuredContent.hex;
    try {
      for (const port of bankings) {
        /* the port's direction first: a paused machine may not have set it */
        const w = await call('memory_write', { address: 0, bytes: [0x2f, port] });
        assert.equal(w.isError, false, resultText(w));
        const small = await readAll();
        assert.equal(small.length, 65536);
        seen.push(small);
        const b64 = await call('memory_read', { address: 0, length: 65536, format: 'base64' });
        assert.deepEqual(Buffer.from(b64.structuredContent.base64, 'base64'), small, `$01 = ${port}: base64`);
        const hex = await call('memory_read', { address: 0, length: 65536, format: 'hex' });
        assert.deepEqual(Buffer.from(hex.structuredContent.hex, 'hex'), small, `$01 = ${port}: hex`);
        const both = await call('memory_read', { address: '$9FFE', length: 0x4003, format: 'both' });
        const slice = small.subarray(0x9ffe, 0x9ffe + 0x4003);
        assert.deepEqual(Buffer.from(both.structuredContent.hex, 'hex'), slice);
        assert.deepEqual(Buffer.from(both.structuredContent.base64, 'base64'), slice);
        /* the text dump shows the first bytes of the same read */
        assert.match(resultText(both), new RegExp(`9FFE  ${[...slice.subarray(0, 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ')}`));
      }
      /* the two bankings really differ: BASIC ROM, then the RAM below it */
      assert.notDeepEqual(seen[0].subarray(0xa000, 0xc000), seen[1].subarray(0xa000, 0xc000));
    } finally {
      const back = await call('memory_write', { address: 0, bytes: portBefore });
      assert.equal(back.isError, false, resultText(back));
    }
  });

  it('memory_banks and registers_get describe the machine now', async () => {
    const b = await call('memory_banks');
    assert.equal(b.isError, false, resultText(b));
    assert.ok(b.structuredContent.banks.some((x) => x.start_hex === '$A000' && x.end_hex === '$BFFF' && x.space === 'basic'));
    assert.match(resultText(b), /\$E000-\$FFFF kernal/);
    const g = await call('registers_get');
    assert.equal(g.isError, false, resultText(g));
    assert.equal(g.structuredContent.model, '6510');
    assert.equal(typeof g.structuredContent.pc, 'number');
    assert.match(g.structuredContent.pc_hex, /^\$[0-9A-F]{4}$/);
    assert.match(g.structuredContent.flags, /^[Nn][Vv]-[Bb][Dd][Ii][Zz][Cc]$/);
  });

  it('steps assembled code with the engine: registers and the stopwatch follow', async () => {
    // A fresh C64 is in its reset sequence: registers can be set once a
    // step has brought the CPU to an instruction boundary.
    const refused = await call('registers_set', { pc: '$C000' });
    if (refused.isError) {
      assert.match(resultText(refused), /middle of an instruction/);
      const first = await call('execution_step');
      assert.equal(first.isError, false, resultText(first));
    }
    const a = await call('assemble', { address: '$C300', source: 'LDA #$42\nLDX #7\nNOP\n' });
    assert.equal(a.isError, false, resultText(a));
    const set = await call('registers_set', { pc: '$C300', flags: 'nv-bdIzc' });
    assert.equal(set.isError, false, resultText(set));
    assert.equal(set.structuredContent.pc_hex, '$C300');
    await call('cycles_stopwatch', { reset: true });
    const step = await call('execution_step', { count: 2 });
    assert.equal(step.isError, false, resultText(step));
    const g = await call('registers_get');
    assert.equal(g.structuredContent.a, 0x42);
    assert.equal(g.structuredContent.x, 7);
    assert.equal(g.structuredContent.pc_hex, '$C304');
    assert.equal(g.structuredContent.instruction.text, 'NOP');
    assert.equal(g.structuredContent.state, 'stopped');
    const sw = await call('cycles_stopwatch');
    assert.equal(sw.isError, false, resultText(sw));
    assert.equal(sw.structuredContent.cycles, 4);
  });

  it('snapshot compare sees exactly what a fill changed', async () => {
    const known = await call('memory_write', { address: '$C00F', bytes: '11 22 EA 44 55 66' });
    assert.equal(known.isError, false, resultText(known));
    const saved = await call('memory_compare', { address: '$C000', length: 256, save_as: 'before' });
    assert.equal(saved.isError, false, resultText(saved));
    const fill = await call('memory_fill', { address: '$C010', length: 4, bytes: 'EA' });
    assert.equal(fill.isError, false, resultText(fill));
    const after = await call('memory_read', { address: '$C00F', length: 6 });
    assert.equal(after.structuredContent.hex, '11EAEAEAEA66', 'the four bytes and nothing around them');
    const cmp = await call('memory_compare', { against: 'before' });
    assert.equal(cmp.isError, false, resultText(cmp));
    // $C011 held $EA already: three bytes differ, in two runs.
    assert.equal(cmp.structuredContent.differences, 3, resultText(cmp));
    assert.deepEqual(cmp.structuredContent.runs.map((r) => [r.start_hex, r.end_hex]), [['$C010', '$C010'], ['$C012', '$C013']]);
    assert.deepEqual(cmp.structuredContent.changes.map((c) => c.address_hex), ['$C010', '$C012', '$C013']);
  });

  it('bad inputs come back as tool errors that say what to do', async () => {
    const cases = [
      ['memory_read', { address: 0, length: 65537 }, /length: 65537 is above the maximum 65536/],
      ['memory_read', { address: '$10000' }, /above the highest address \$FFFF/],
      ['memory_read', { address: 0, space: 'rom' }, /unknown memory space "rom"; this machine has "cpu", "ram", "basic"/],
      ['memory_write', { address: '$C000', bytes: 'A9 ZZ' }, /bytes/],
      ['memory_search', { pattern: 'A9 G1' }, /token 2 "G1" is not a byte/],
      ['registers_set', { a: 300 }, /a: 300 is out of range/],
      ['symbols_load', { path: '../../etc/passwd' }, /\.\./],
      ['disassemble', { address: 0, count: 0 }, /count/]
    ];
    for (const [name, args, re] of cases) {
      const res = await call(name, args);
      assert.equal(res.isError, true, `${name} ${JSON.stringify(args)} is an error`);
      assert.match(resultText(res), re, `${name} ${JSON.stringify(args)}`);
    }
  });
});
