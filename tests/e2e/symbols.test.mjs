// End-to-end: debugging by name and by source line (issue #17), through the
// real mcphost binary over stdio with the official MCP SDK client.
//   1. A ca65 program with a --dbgfile .dbg, assembled and linked IN THE TEST
//      (cc65 package): load the .dbg; breakpoint by label; stop there with
//      file:line and the line's text; step by line (also across a JSR into a
//      module without line info); a condition with a label; label+offset in
//      run_until, memory and disassembly; source_lines both ways; an unknown
//      label names the closest; labels are per session.
//   2. Every other format from the real assemblers' output made here (ACME,
//      64tass, dasm, xa65, ld65 -Ln) and the checked-in KickAssembler
//      samples (KickAssembler needs Java and is not in Debian): loaded,
//      detected, names and addresses checked.
// A missing assembler skips its test, saying which package to install.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, realpathSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

function have(tool) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function run(dir, cmd, args) {
  return execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

const MAIN_S = `        .import helper
        .export start
        .segment "CODE"
start:  ldx #0
; @mcp-function: fills the first four screen bytes with 1
fill_screen:
        lda #1
        sta $0400,x
        inx
        cpx #4
        bne fill_screen
        jsr helper
        ldy #7
; @mcp-Bug-Known: loops forever here
done:   jmp done
`;
// assembled without -g: no line info, so stepping by line steps out of it
const HELPER_S = `        .export helper
        .segment "CODE"
helper: lda #2
        nop
        rts
`;
const LINK_CFG = `MEMORY { RAM: start=$C000, size=$1000, file=%O; }
SEGMENTS { CODE: load=RAM, type=ro; }
`;

describe('ca65 debug info: breakpoints by label, stops with source lines, stepping by line', { skip: !(have('ca65') && have('ld65')) && 'ca65/ld65 are not installed (apt-get install cc65)' }, () => {
  let host, dir;
  const { call, ok } = toolCallers(() => host);

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-sym-')));
    writeFileSync(join(dir, 'main.s'), MAIN_S);
    writeFileSync(join(dir, 'helper.s'), HELPER_S);
    writeFileSync(join(dir, 'link.cfg'), LINK_CFG);
    run(dir, 'ca65', ['-g', '-o', 'main.o', 'main.s']);
    run(dir, 'ca65', ['-o', 'helper.o', 'helper.s']);
    run(dir, 'ld65', ['-C', 'link.cfg', '-o', 'main.bin', '--dbgfile', 'main.dbg', '-Ln', 'main.lbl', 'main.o', 'helper.o']);
    host = await connectHost({
      args: ['--machine', 'bare6502', '--allow-dir', dir, '--config', `program=${join(dir, 'main.bin')}`,
        '--config', 'load_address=$C000', '--config', 'start=$C000']
    });
  });
  after(async () => {
    await host?.close();
    assert.deepEqual(host?.errors ?? [], []);
  });

  it('loads the .dbg (detected) with symbols and line ranges', async () => {
    const res = await ok('symbols_load', { path: join(dir, 'main.dbg') });
    const s = res.structuredContent;
    assert.equal(s.format, 'ca65-dbg');
    assert.ok(s.loaded >= 3, resultText(res));
    assert.ok(s.lines >= 8, `line ranges: ${resultText(res)}`);
    const list = (await ok('symbols_list', {})).structuredContent.symbols;
    const at = Object.fromEntries(list.map((x) => [x.name, x.address]));
    assert.equal(at.start, 0xc000);
    assert.equal(at.fill_screen, 0xc002);
    assert.equal(at.helper, undefined, 'helper.s was assembled without -g: no symbols of it');
    assert.equal(at.done, 0xc011);
  });

  it('indexes the @mcp annotations of the sources the .dbg names', async () => {
    const all = await ok('annotations_list', {});
    assert.equal(all.structuredContent.count, 2, resultText(all));
    const got = await ok('annotations_get', { address: 'done' });
    const g = got.structuredContent;
    assert.equal(g.symbol, 'done');
    assert.equal(g.file, 'main.s');
    assert.equal(g.line, 15);
    assert.equal(g.annotations[0].type, 'bug-known');
    assert.equal(g.annotations[0].text, 'loops forever here');
    assert.equal(g.annotations[0].line, 14);
    assert.match(resultText(got), /@mcp-bug-known: loops forever here/);
    const inside = await ok('annotations_get', { address: 'fill_screen+3' });
    assert.equal(inside.structuredContent.governing, true);
    assert.equal(inside.structuredContent.annotations[0].type, 'function');
    assert.equal((await ok('annotations_search', { type: 'function' })).structuredContent.count, 1);
    const byText = await ok('annotations_search', { text: 'FOREVER' });
    assert.equal(byText.structuredContent.count, 1);
    assert.equal(byText.structuredContent.annotations[0].address, 0xc011);
  });

  it('source_lines maps an address or label to file:line and back', async () => {
    const byLabel = await ok('source_lines', { address: 'fill_screen' });
    assert.equal(byLabel.structuredContent.lines[0].source.line, 7);
    assert.equal(byLabel.structuredContent.lines[0].source.text, 'lda #1');
    assert.match(resultText(byLabel), /main\.s:7: lda #1/);
    const back = await ok('source_lines', { file: 'main.s', line: 8 });
    assert.equal(back.structuredContent.lines[0].address, 0xc004);
    assert.equal(back.structuredContent.lines[0].symbol, 'fill_screen+2');
  });

  it('memory, disassembly and run_until take labels and label+offset', async () => {
    const mem = await ok('memory_read', { address: 'fill_screen', length: 2 });
    assert.match(resultText(mem), /A9 ?01/i);
    const dis = await ok('disassemble', { address: 'fill_screen-2', count: 2 });
    assert.equal(dis.structuredContent.lines[0].address, 0xc000);
    assert.equal(dis.structuredContent.lines[1].address, 0xc002);
    const asm = await ok('assemble', { address: 'done+10', source: 'NOP' }); // past the program
    assert.equal(asm.structuredContent.chunks[0].address, 0xc01b);
    const inside = await ok('disassemble', { address: 'fill_screen+2', count: 1 });
    assert.equal(inside.structuredContent.lines[0].symbol, 'fill_screen+2');
    assert.match(resultText(inside), /C004 .*STA \$0400,X +; fill_screen\+2/);
  });

  it('stops at a breakpoint set by label, with the condition naming a label, and the stop has file:line and text', async () => {
    await ok('breakpoints_set', { address: 'fill_screen+5', log_only: true }); // INX, traced
    const set = await ok('breakpoints_set', { address: 'fill_screen', condition: 'pc == fill_screen && x == 2' });
    assert.equal(set.structuredContent.breakpoints.at(-1).start, 0xc002);
    await ok('execution_run', {});
    const stop = await ok('execution_wait', { timeout_ms: 5000 });
    const rec = stop.structuredContent.stop;
    assert.equal(rec.reason, 'breakpoint', resultText(stop));
    assert.equal(rec.pc, 0xc002);
    assert.equal(rec.registers.x, 2, 'the condition held (x == 2), not the first pass');
    assert.equal(rec.symbol, 'fill_screen');
    assert.equal(rec.source.file, 'main.s');
    assert.equal(rec.source.line, 7);
    assert.equal(rec.source.text, 'lda #1');
    assert.deepEqual(rec.annotation, { type: 'function', text: 'fills the first four screen bytes with 1' });
    assert.match(resultText(stop), /fill_screen \| main\.s:7: lda #1 \| @mcp-function: fills the first/);
    const trace = (await ok('breakpoints_trace', {})).structuredContent;
    assert.equal(trace.entries.length, 2, 'INX ran twice before x == 2');
    assert.equal(trace.entries[0].pc, 0xc007);
    assert.equal(trace.entries[0].symbol, 'fill_screen+5');
    assert.equal(trace.entries[0].annotation.type, 'function', 'trace entries carry the annotation too');
    await ok('breakpoints_delete', { all: true });
  });

  it('steps by source line, and over a JSR into code without lines', async () => {
    let step = await ok('execution_step', { unit: 'line' });
    assert.equal(step.structuredContent.stop.pc, 0xc004, resultText(step));
    assert.equal(step.structuredContent.stop.source.line, 8);
    assert.equal(step.structuredContent.stop.source.text, 'sta $0400,x');
    assert.equal(step.structuredContent.stop.symbol, 'fill_screen+2');
    const until = await ok('execution_run_until', { address: 'done-5' });
    assert.equal(until.structuredContent.stop.pc, 0xc00c, resultText(until));
    assert.equal(until.structuredContent.stop.source.line, 12);
    step = await ok('execution_step', { unit: 'line' });
    // into helper (no lines) and back out: the next line of main.s
    assert.equal(step.structuredContent.stop.pc, 0xc00f, resultText(step));
    assert.equal(step.structuredContent.stop.source.line, 13);
    assert.equal(step.structuredContent.stop.source.text, 'ldy #7');
    const regs = await ok('registers_get', {});
    assert.match(JSON.stringify(regs.structuredContent), /"a":2\b/, 'helper ran (A=2)');
    // registers_get says where PC is, as a stop record does
    assert.equal(regs.structuredContent.source.line, 13);
    assert.match(regs.structuredContent.symbol, /^[a-z_]+\+\d+$/, 'label+offset at PC');
    assert.match(resultText(regs), /main\.s:13: ldy #7/);
  });

  it('an unknown label, in an address or a condition, names the closest labels', async () => {
    let res = await call('breakpoints_set', { address: 'fill_scren' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /unknown label "fill_scren".*closest: fill_screen \(\$C002\)/);
    res = await call('breakpoints_set', { address: 'start', condition: 'pc == fil' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /unknown name "fil".*closest: fill_screen/);
    res = await call('memory_read', { address: 'don+1', length: 1 });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /closest: done/);
    res = await call('memory_read', { address: 'C000', length: 1 }); // bare hex, no such label
    assert.equal(res.isError, true);
    assert.match(resultText(res), /for hex write "\$C000"/);
    res = await call('breakpoints_condition', { id: 999, condition: 'pc == done' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /no breakpoint/);
  });

  it('registers_set takes PC by label', async () => {
    const r = await ok('registers_set', { pc: 'fill_screen+2' });
    assert.equal(r.structuredContent.pc, 0xc004);
    const bad = await call('registers_set', { pc: 'fill_scree' });
    assert.equal(bad.isError, true);
    assert.match(resultText(bad), /pc: unknown label "fill_scree"; closest: fill_screen/);
  });

  it('stop events name the label and source line, as the tool answer does', async () => {
    await ok('events_subscribe', { types: ['breakpoint', 'stopped'] });
    await ok('registers_set', { pc: 'start' });
    await ok('breakpoints_set', { address: 'fill_screen' });
    const from = host.received.length;
    await ok('execution_run', {});
    const stop = await ok('execution_wait', { timeout_ms: 5000 });
    assert.equal(stop.structuredContent.stop.pc, 0xc002, resultText(stop));
    // the event goes out after the stop is recorded: wait for it, never poll the machine
    const event = async (type) => {
      for (let i = 0; i < 250; i++) {
        const found = host.received.slice(from).find((m) => m.method === 'notifications/mcphost/event' && m.params.type === type);
        if (found) return found.params;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.fail(`no "${type}" event arrived`);
    };
    for (const type of ['breakpoint', 'stopped']) {
      const { detail } = await event(type);
      assert.equal(detail.pc, 0xc002);
      assert.equal(detail.symbol, 'fill_screen', `${type}: ${JSON.stringify(detail)}`);
      assert.deepEqual(detail.source, { file: 'main.s', line: 7, text: 'lda #1' });
      assert.equal(detail.annotation.type, 'function');
      assert.equal(detail.where, 'fill_screen | main.s:7: lda #1 | @mcp-function: fills the first four screen bytes with 1');
      assert.ok(resultText(stop).includes(detail.where), 'the same words as the tool answer');
    }
    await ok('breakpoints_delete', { all: true });
    await ok('events_unsubscribe', {});
  });

  it('a stop after the source was edited shows the edited line', async () => {
    // a stop's line is read once for its event and its answer (remembered
    // per session while the file is unchanged): an edit must still show
    await ok('registers_set', { pc: 'start' });
    await ok('breakpoints_set', { address: 'fill_screen' });
    let stop = await ok('execution_run_until', { address: 'fill_screen' });
    assert.equal(stop.structuredContent.stop.source.text, 'lda #1', resultText(stop));
    writeFileSync(join(dir, 'main.s'), MAIN_S.replace('lda #1', 'lda #1 ; edited'));
    try {
      await ok('registers_set', { pc: 'start' });
      stop = await ok('execution_run_until', { address: 'fill_screen' });
      assert.equal(stop.structuredContent.stop.source.text, 'lda #1 ; edited', resultText(stop));
    } finally {
      writeFileSync(join(dir, 'main.s'), MAIN_S);
      await ok('breakpoints_delete', { all: true });
    }
  });

  it('labels are per session', async () => {
    await ok('session_create', { machine: 'bare6502', name: 'other', select: false });
    const res = await call('breakpoints_set', { address: 'fill_screen', session: 'other' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /no symbols/);
  });
});

// ---- every other format, from real assembler output ----

const SIMPLE = {
  // name: [assembler check, source, commands, files to load with the format expected]
  acme: {
    tool: 'acme', pkg: 'acme', src: 'p.a',
    text: '*=$c000\nstart   ldx #0\nfill_screen lda #1\n        sta $0400,x\n        inx\n        bne fill_screen\nvalue = $1234\n',
    cmds: [['acme', ['-f', 'cbm', '-o', 'p.prg', '--labeldump', 'p.lab', '--vicelabels', 'p.vl', 'p.a']]],
    loads: [['p.lab', 'labels'], ['p.vl', 'labels']]
  },
  '64tass': {
    tool: '64tass', pkg: '64tass', src: 'p.s',
    text: '*=$c000\nstart   ldx #0\nfill_screen lda #1\n        sta $0400,x\n        inx\n        bne fill_screen\nvalue = $1234\n',
    cmds: [['64tass', ['-q', '-o', 'p.prg', '--labels=p.lab', 'p.s']], ['64tass', ['-q', '-o', 'p.prg', '--vice-labels', '--labels=p.vl', 'p.s']]],
    loads: [['p.lab', 'labels'], ['p.vl', 'labels']]
  },
  dasm: {
    tool: 'dasm', pkg: 'dasm', src: 'p.s',
    text: '        processor 6502\n        org $c000\nstart   ldx #0\nfill_screen lda #1\n        sta $0400,x\n        inx\n        bne fill_screen\nvalue = $1234\n',
    cmds: [['dasm', ['p.s', '-op.prg', '-sp.sym']]],
    loads: [['p.sym', 'dasm']]
  },
  xa65: {
    tool: 'xa', pkg: 'xa65', src: 'p.s',
    text: '*=$c000\nstart   ldx #0\nfill_screen lda #1\n        sta $0400,x\n        inx\n        bne fill_screen\nvalue = $1234\n',
    cmds: [['xa', ['-o', 'p.prg', '-l', 'p.lab', 'p.s']]],
    loads: [['p.lab', 'xa65']]
  },
  'ld65 -Ln': {
    tool: 'ld65', pkg: 'cc65', src: 'p.s',
    text: '        .export start, fill_screen\n        .segment "CODE"\nstart:  ldx #0\nfill_screen:\n        lda #1\n        sta $0400,x\n        inx\n        bne fill_screen\nvalue = $1234\n        .export value\n',
    cmds: [['ca65', ['-o', 'p.o', 'p.s']], ['ld65', ['-C', 'link.cfg', '-o', 'p.bin', '-Ln', 'p.lbl', 'p.o']]],
    loads: [['p.lbl', 'labels']]
  }
};

describe('symbols_load reads every assembler\'s output', () => {
  let host, dir;
  const { call, ok } = toolCallers(() => host);

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-symfmt-')));
    host = await connectHost({ args: ['--machine', 'bare6502', '--allow-dir', dir] });
  });
  after(async () => {
    await host?.close();
    assert.deepEqual(host?.errors ?? [], []);
  });

  async function loadAndCheck(path, format, expect) {
    const res = await ok('symbols_load', { path, replace: true });
    assert.equal(res.structuredContent.format, format, `${path}: ${resultText(res)}`);
    const list = (await ok('symbols_list', {})).structuredContent.symbols;
    const at = Object.fromEntries(list.map((x) => [x.name, x.address]));
    for (const [name, address] of Object.entries(expect))
      assert.equal(at[name], address, `${path}: ${name} in ${JSON.stringify(at)}`);
    // the explicit format gives the same
    const forced = await ok('symbols_load', { path, replace: true, format });
    assert.equal(forced.structuredContent.loaded, res.structuredContent.loaded);
    // and a label from it is an address argument
    const bp = await ok('breakpoints_set', { address: 'fill_screen+2' });
    assert.equal(bp.structuredContent.breakpoints.at(-1).start, expect.fill_screen + 2);
    await ok('breakpoints_delete', { all: true });
  }

  for (const [name, spec] of Object.entries(SIMPLE)) {
    it(`${name}`, { skip: !have(spec.tool) && `${spec.tool} is not installed (apt-get install ${spec.pkg})` }, async () => {
      const sub = join(dir, name.replace(/\W/g, '_'));
      execFileSync('mkdir', ['-p', sub]);
      writeFileSync(join(sub, spec.src), spec.text);
      writeFileSync(join(sub, 'link.cfg'), 'MEMORY { RAM: start=$C000, size=$1000, file=%O; }\nSEGMENTS { CODE: load=RAM, type=ro; }\n');
      for (const [cmd, args] of spec.cmds) run(sub, cmd, args);
      const expect = { start: 0xc000, fill_screen: 0xc002 };
      for (const [file, format] of spec.loads) {
        const e = file === 'p.vl' ? expect : { ...expect, value: 0x1234 };
        await loadAndCheck(join(sub, file), format, e);
      }
    });
  }

  it('annotations of sources without line info take the address of the label after them', { skip: !have('acme') && 'acme is not installed (apt-get install acme)' }, async () => {
    const src = join(dir, 'irq.a');
    writeFileSync(src, '*=$c000\n; @mcp-irq-handler: raster split at line 100\nirq     inc $d019\n        jmp $ea31\n' +
      '// @mcp-timing-critical: stable raster\nsplit   nop\n        rts\n; @mcp-state: not before a label\n');
    run(dir, 'acme', ['-f', 'cbm', '-o', 'irq.prg', '--labeldump', 'irq.lab', 'irq.a']);
    await ok('symbols_load', { path: join(dir, 'irq.lab'), replace: true });
    const res = await ok('annotations_list', { sources: [src] });
    const list = res.structuredContent.annotations;
    assert.equal(list.length, 3, resultText(res));
    assert.deepEqual(list.map((a) => [a.type, a.address]), [['irq-handler', 0xc000], ['timing-critical', 0xc006], ['state', undefined]]);
    assert.equal(list[0].symbol, 'irq');
    const bad = await call('annotations_list', { sources: ['/etc/passwd'] });
    assert.equal(bad.isError, true, 'sources outside the allowed directories are not read');
  });

  it('KickAssembler .sym and .dbg (checked-in samples of its documented formats)', async () => {
    for (const f of ['kickass.sym', 'kickass.dbg', 'kickass.asm']) copyFileSync(join(HERE, 'data', f), join(dir, f));
    await loadAndCheck(join(dir, 'kickass.sym'), 'kickass-sym', { start: 0xc000, fill_screen: 0xc002, 'music.play': 0xc010 });
    await loadAndCheck(join(dir, 'kickass.dbg'), 'kickass-dbg', { start: 0xc000, fill_screen: 0xc002 });
    const lines = await ok('source_lines', { address: 'fill_screen' });
    assert.equal(lines.structuredContent.lines[0].source.line, 6);
    assert.equal(lines.structuredContent.lines[0].source.text, 'fill_screen: lda #1');
  });

  it('ca65 cheap locals are named by their parent; "@loop" alone is ambiguous', { skip: !have('ca65') && 'ca65 is not installed (apt-get install cc65)' }, async () => {
    const sub = join(dir, 'cheap');
    execFileSync('mkdir', ['-p', sub]);
    writeFileSync(join(sub, 'c.s'), '        .segment "CODE"\nfill:   ldx #0\n@loop:  inx\n        bne @loop\nclear:  ldy #0\n@loop:  iny\n        bne @loop\n.proc sub\ninner:  rts\n.endproc\n');
    writeFileSync(join(sub, 'link.cfg'), 'MEMORY { RAM: start=$C000, size=$1000, file=%O; }\nSEGMENTS { CODE: load=RAM, type=ro; }\n');
    run(sub, 'ca65', ['-g', '-o', 'c.o', 'c.s']);
    run(sub, 'ld65', ['-C', 'link.cfg', '-o', 'c.bin', '--dbgfile', 'c.dbg', 'c.o']);
    await ok('symbols_load', { path: join(sub, 'c.dbg'), replace: true });
    let res = await ok('breakpoints_set', { address: 'clear@loop' });
    assert.equal(res.structuredContent.breakpoints.at(-1).start, 0xc007);
    res = await ok('breakpoints_set', { address: 'inner' }); // sub::inner by its last part
    assert.equal(res.structuredContent.breakpoints.at(-1).start, 0xc00a);
    res = await call('breakpoints_set', { address: '@loop' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /ambiguous label "@loop": 2 labels match.*(fill|clear)@loop/);
    await ok('breakpoints_delete', { all: true });
  });

  it('a label in two namespaces is ambiguous by its last part, found by its full name or any case', async () => {
    writeFileSync(join(dir, 'two.sym'), '.namespace music {\n.label loop=$c100\n}\n.namespace sfx {\n.label loop=$c200\n.label Tick=$c210\n}\n');
    await ok('symbols_load', { path: join(dir, 'two.sym'), replace: true });
    let res = await call('memory_read', { address: 'loop', length: 1 });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /ambiguous label "loop": 2 labels match.*closest: (music|sfx)\.loop/);
    res = await ok('breakpoints_set', { address: 'sfx.loop' });
    assert.equal(res.structuredContent.breakpoints.at(-1).start, 0xc200);
    res = await ok('breakpoints_set', { address: 'tick+1' }); // by its last part, any case
    assert.equal(res.structuredContent.breakpoints.at(-1).start, 0xc211);
    res = await call('breakpoints_set', { address: 'sfx.loop+$FF00' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /outside \$0000-\$FFFF/);
    await ok('breakpoints_delete', { all: true });
  });

  it('hostile and wrong files are refused with the reason, and nothing is loaded', async () => {
    writeFileSync(join(dir, 'junk.bin'), Buffer.from([0, 1, 2, 0xff, 0x0a, 0x41]));
    let res = await call('symbols_load', { path: join(dir, 'junk.bin') });
    assert.equal(res.isError, true);
    writeFileSync(join(dir, 'bad.dbg'), 'version\tmajor=2,minor=0\nline\tid=0,file=9,line=1,span=77\nsym\tid=0,name="x",val=0x1FFFF\n');
    res = await call('symbols_load', { path: join(dir, 'bad.dbg') });
    assert.equal(res.isError, true, resultText(res));
    assert.match(resultText(res), /ca65-dbg.*nothing was loaded/);
    res = await call('symbols_load', { path: join(dir, 'bad.dbg'), format: 'nonsense' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /format.*"ca65-dbg".*got "nonsense"/);
  });
});
