// End-to-end: answers a text-only client can use (issue 17). Many MCP
// clients show the model only a result's text content, so every fact a tool
// returns in structuredContent must be in its text too. Through the real
// mcphost binary with the official MCP TypeScript SDK client, reading only
// `content[].text` as such a client does:
//   - the breakpoint list, the trace, a watchpoint stop (the writer's PC and
//     the old and new value), the bare6502 exit code, and a memory read over
//     4 KiB (the first 4 KiB as a dump and how to page on);
//   - for a broad run of tools on a C64, and the source-level tools on a
//     ca65 program (symbols, source lines, @mcp annotations, a stop with its
//     source line, a step by line), every scalar of structuredContent
//     appears in the text (numbers in decimal or hex), and every tool that
//     answers with structuredContent declares an outputSchema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';

/** Only what a text-only client shows the model. */
const textOf = (result) => resultText(result);

/** Every scalar of a structured result with its path (arrays: first 40). */
function leaves(value, path = '', out = []) {
  if (value === null || typeof value !== 'object') out.push([path, value]);
  else if (Array.isArray(value)) value.slice(0, 40).forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  else for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  return out;
}

/** Whether a scalar shows in the text: strings as themselves (a long one by
 * its start), numbers in decimal or as $hex, booleans and null as words. */
function shown(text, value) {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') {
    if (text.includes(String(value))) return true;
    if (!Number.isInteger(value)) return text.includes(String(Number(value.toPrecision(6))));
    const hex = value.toString(16).toUpperCase();
    const upper = text.toUpperCase();
    return [2, 4].some((w) => upper.includes('$' + hex.padStart(w, '0'))) || upper.includes(hex.padStart(2, '0'));
  }
  if (/^([0-9A-F]{2})+$/.test(value) && text.replace(/\s+/g, '').includes(value)) return true; // a hex dump
  if (/^\$[0-9A-F]+$/.test(value) && new RegExp(`(^|[^0-9A-Za-z])${value.slice(1)}([^0-9A-Za-z]|$)`).test(text))
    return true; // an address in a listing ("C002  8D 20 D0")
  return value.length > 200 ? text.includes(value.slice(0, 40)) : text.includes(value);
}

describe('text-only answers on a C64', () => {
  let host, tools;
  const call = (name, args = {}) => host.client.callTool({ name, arguments: args });
  const ok = async (name, args = {}) => {
    const result = await call(name, args);
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${textOf(result)}`);
    return result;
  };
  /** 6502 code at $C000, the PC on it, the machine paused. */
  const program = async (source) => {
    await ok('execution_pause');
    await ok('breakpoints_delete', { all: true }).catch(() => {});
    await ok('assemble', { address: '$C000', source });
    await ok('registers_set', { pc: '$C000' });
  };

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--transport', 'stdio'] });
    tools = (await host.client.listTools()).tools;
    await ok('execution_run_until', { frames: 100, warp: true, timeout_ms: 20000 });
  });
  after(async () => {
    await host?.close();
  });

  it('the breakpoint list is in the text: ids, addresses, kinds, conditions, hits', async () => {
    await program('loop: lda #$02\nsta $d020\ninc $c100\njmp loop');
    await ok('breakpoints_set', { address: '$C005', condition: 'a == 2' });
    await ok('breakpoints_memory_watch', { address: '$D020', group: 'border' });
    const list = await ok('breakpoints_list');
    const text = textOf(list);
    assert.equal(list.structuredContent.breakpoints.length, 2);
    for (const bp of list.structuredContent.breakpoints) {
      assert.match(text, new RegExp(`\\| ${bp.id} \\|`), `breakpoint #${bp.id} has a row: ${text}`);
      assert.ok(text.includes(bp.label), `label ${bp.label}`);
    }
    assert.ok(text.includes('a == 2'), 'the condition');
    assert.ok(text.includes('border'), 'the group');
    assert.match(text, /\| id \|.*\| hits \|/, 'a table with the hit counts');
    await ok('breakpoints_delete', { all: true });
  });

  it('the trace is in the text: every entry with its PC and cycle', async () => {
    await program('loop: lda #$02\nsta $d020\ninc $c100\njmp loop');
    await ok('breakpoints_set', { address: '$C008', log_only: true });
    await ok('execution_run_until', { address: '$C005', timeout_ms: 5000 });
    await ok('execution_run_until', { address: '$C005', timeout_ms: 5000 });
    const trace = await ok('breakpoints_trace');
    const text = textOf(trace);
    const entries = trace.structuredContent.entries;
    assert.ok(entries.length >= 1, 'the tracepoint was hit');
    for (const e of entries) {
      assert.ok(text.includes(String(e.cycles)), `entry ${e.seq}: cycles ${e.cycles} in: ${text}`);
      assert.ok(text.includes(e.pc_hex), `entry ${e.seq}: pc ${e.pc_hex}`);
    }
    assert.match(text, new RegExp(`next: ${trace.structuredContent.next}`));
    await ok('breakpoints_delete', { all: true });
  });

  it('a long trace stays a sensible size and says how to read on', async () => {
    await program('loop: inc $c100\njmp loop');
    const bp = await ok('breakpoints_set', { address: '$C000', log_only: true });
    await ok('execution_run_until', { cycles: 20000, warp: true, timeout_ms: 10000 });
    const all = await ok('breakpoints_trace');
    const entries = all.structuredContent.entries;
    assert.equal(entries.length, 1024, 'the log keeps the last 1024 hits');
    const text = textOf(all);
    assert.ok(text.length < 20000, `the text is ${text.length} bytes`);
    const rows = [...text.matchAll(/^\| (\d+) \| \d+ \| \$C000 \|/gm)].map((m) => Number(m[1]));
    assert.ok(rows.length > 100 && rows.length < 1024, `rows shown: ${rows.length}`);
    assert.match(text, /\(\d+ more rows not shown\)/);
    assert.match(text, /since = the last row's seq \+ 1 reads on/);
    // Paging on as the text says gives the next entries.
    const next = await ok('breakpoints_trace', { since: rows.at(-1) + 1 });
    assert.equal(next.structuredContent.entries[0].seq, rows.at(-1) + 1);
    assert.match(textOf(next), new RegExp(`^\\| ${rows.at(-1) + 1} \\|`, 'm'));
    await ok('breakpoints_delete', { id: bp.structuredContent.id });
  });

  it('a watchpoint stop names the writer\'s PC and the old and new value', async () => {
    await program('loop: lda #$02\nsta $d020\nlda #$05\nsta $d020\njmp loop');
    await ok('memory_write', { address: '$D020', bytes: '07' }); // yellow border before the run
    await ok('breakpoints_memory_watch', { address: '$D020' });
    await ok('execution_run');
    const stop = await ok('execution_wait', { timeout_ms: 5000 });
    const text = textOf(stop);
    const access = stop.structuredContent.stop.access;
    assert.equal(access.by_pc_hex, '$C002');
    // $D020 reads the colour in its low nybble, the unused bits as 1.
    assert.match(text, /write \$D020 = \$02 \(was \$F7\) by \$C002/, text);
    // The next write: the old value is the colour the previous one set.
    await ok('execution_run');
    const second = await ok('execution_wait', { timeout_ms: 5000 });
    assert.match(textOf(second), /write \$D020 = \$05 \(was \$F2\) by \$C007/, textOf(second));
    await ok('breakpoints_delete', { all: true });
  });

  it('a memory read over 4 KiB: the first 4 KiB as a dump and how to page on', async () => {
    const read = await ok('memory_read', { address: '$1000', length: 6000 });
    const text = textOf(read);
    assert.equal(read.structuredContent.length, 6000);
    const rows = text.split('\n').filter((l) => /^[0-9A-F]{4}  [0-9A-F]{2} /.test(l));
    assert.equal(rows.length, 256, 'sixteen bytes a row for 4096 bytes');
    assert.match(rows[0], /^1000 /);
    assert.match(rows.at(-1), /^1FF0 /);
    const hex = read.structuredContent.hex;
    assert.ok(rows[1].includes(hex.slice(32, 64).match(/../g).join(' ')), 'the dump shows the bytes');
    assert.match(text, /1904 more bytes.*memory_read address \$2000/, text);
  });

  it('every fact of structuredContent is in the text, and every such tool has an outputSchema', async () => {
    await program('loop: lda #$02\nsta $d020\ninc $c100\njmp loop');
    const plan = [
      ['ping'], ['session_list'], ['machine_capabilities'],
      ['breakpoints_set', { address: '$C005', group: 'g' }], ['breakpoints_list'],
      ['breakpoints_toggle', { group: 'g', enabled: false }],
      ['execution_step'], ['execution_get_state'], ['registers_get'], ['memory_read', { address: '$C000', length: 16 }],
      ['memory_search', { pattern: '8D 20 D0' }], ['memory_banks'], ['disassemble', { address: '$C000', count: 4 }],
      ['backtrace'], ['cycles_stopwatch'], ['config_list'], ['basic_list'], ['screen_text'],
      ['cia_registers_get'], ['cia_timers_get'], ['cia_keyboard_matrix'], ['sid_registers_get'], ['sid_voices_get'],
      ['vic2_registers_get'], ['vic2_raster_get'], ['vic2_memory_map'], ['vic2_sprites_get'], ['vic2_borders_get'],
      ['events_subscribe', { types: ['stopped'] }], ['events_unsubscribe'], ['breakpoints_delete', { all: true }],
      ['machine_profile_list'],
      ['execution_step', { count: 20 }], ['trace_instructions', { count: 5 }],
      ['memory_history', { address: '$C100', count: 3 }], ['memory_history', { address: '$D020', order: 'oldest' }],
      ['profile_start'], ['execution_step', { count: 20 }], ['profile_get'], ['profile_get', { by: 'address' }],
      ['functions_list'], ['cfg_get', { function: '$C000', format: 'dot' }],
      ['memory_usage_get', { address: '$C000', length: 16, image: false }], ['profile_stop']
    ];
    const problems = [];
    for (const [name, args = {}] of plan) {
      const result = await ok(name, args);
      const s = result.structuredContent;
      if (!s) continue;
      if (!tools.find((t) => t.name === name)?.outputSchema) problems.push(`${name}: structuredContent without an outputSchema`);
      const text = textOf(result);
      const missing = leaves(s).filter(([, v]) => !shown(text, v)).map(([p, v]) => `${p}=${JSON.stringify(v)}`);
      if (missing.length) problems.push(`${name}: not in the text: ${missing.slice(0, 8).join(', ')}`);
    }
    assert.deepEqual(problems, []);
  });

  it('every tool of every machine declares an outputSchema (each answers with structuredContent)', async () => {
    // tools/list shows the tools of the live sessions' chips: start one of
    // each machine so the VIA, VIC and TED tools are listed too.
    for (const machine of ['vic20', 'plus4', 'bare6502'])
      await ok('session_create', { machine, name: `schema-${machine}`, select: false });
    const all = (await host.client.listTools()).tools;
    for (const name of ['via_registers_get', 'vic_registers_get', 'ted_registers_get'])
      assert.ok(all.find((t) => t.name === name), `${name} is listed`);
    // The test fixture plugins (built, never installed) are not the catalogue.
    const without = all.filter((t) => !t.outputSchema && !t.name.startsWith('fixture_')).map((t) => t.name);
    assert.deepEqual(without, []);
    // Their chip tools keep every fact in the text too.
    const problems = [];
    for (const [name, session] of [['via_registers_get', 'vic20'], ['via_timers_get', 'vic20'],
      ['vic_registers_get', 'vic20'], ['ted_registers_get', 'plus4'], ['ted_timers_get', 'plus4'],
      ['registers_get', 'bare6502'], ['machine_capabilities', 'bare6502']]) {
      const result = await ok(name, { session: `schema-${session}` });
      const text = textOf(result);
      const missing = leaves(result.structuredContent).filter(([, v]) => !shown(text, v));
      if (missing.length) problems.push(`${name}: ${missing.slice(0, 6).map(([p, v]) => `${p}=${JSON.stringify(v)}`).join(', ')}`);
    }
    assert.deepEqual(problems, []);
    for (const machine of ['vic20', 'plus4', 'bare6502']) await ok('session_destroy', { session: `schema-${machine}` });
  });
});

describe('text-only answers on bare6502', () => {
  let host;
  const ok = async (name, args = {}) => {
    const result = await host.client.callTool({ name, arguments: args });
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${textOf(result)}`);
    return result;
  };
  before(async () => {
    host = await connectHost({ args: ['--machine', 'bare6502', '--transport', 'stdio'] });
  });
  after(async () => {
    await host?.close();
  });

  it('the exit code is in the text of the stop', async () => {
    await ok('assemble', { address: '$0200', source: 'lda #42\nsta $f002' });
    await ok('registers_set', { pc: '$0200' });
    await ok('execution_run');
    const stop = await ok('execution_wait', { timeout_ms: 5000 });
    assert.equal(stop.structuredContent.state, 'exited');
    assert.equal(stop.structuredContent.stop.exit_code, 42);
    assert.match(textOf(stop).split('\n')[0], /exit code 42/, textOf(stop));
  });
});

const have = (tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('text-only answers of the source-level tools (ca65 .dbg on bare6502)',
  { skip: !(have('ca65') && have('ld65')) && 'ca65/ld65 are not installed (apt-get install cc65)' }, () => {
    let host, dir;
    const ok = async (name, args = {}) => {
      const result = await host.client.callTool({ name, arguments: args });
      assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${textOf(result)}`);
      return result;
    };
    before(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), 'mh-text-')));
      writeFileSync(join(dir, 'main.s'), [
        '        .segment "CODE"',
        'start:  ldx #0',
        '; @mcp-function: fills the first four screen bytes with 1',
        'fill:   lda #1',
        '        sta $0400,x',
        '        inx',
        '        cpx #4',
        '        bne fill',
        '; @mcp-bug-known: loops forever here',
        'done:   jmp done', ''].join('\n'));
      writeFileSync(join(dir, 'link.cfg'), 'MEMORY { RAM: start=$C000, size=$1000, file=%O; }\nSEGMENTS { CODE: load=RAM, type=ro; }\n');
      const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      run('ca65', ['-g', '-o', 'main.o', 'main.s']);
      run('ld65', ['-C', 'link.cfg', '-o', 'main.bin', '--dbgfile', 'main.dbg', 'main.o']);
      host = await connectHost({
        args: ['--machine', 'bare6502', '--transport', 'stdio', '--allow-dir', dir, '--config',
          `program=${join(dir, 'main.bin')}`, '--config', 'load_address=$C000', '--config', 'start=$C000']
      });
    });
    after(async () => {
      await host?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('every fact of their structuredContent is in the text', async () => {
      const plan = [
        ['symbols_load', { path: join(dir, 'main.dbg') }], ['symbols_list'],
        ['source_lines', { address: 'fill' }], ['source_lines', { file: 'main.s', line: 5 }],
        ['annotations_list'], ['annotations_get', { address: 'fill' }], ['annotations_search', { text: 'forever' }],
        ['breakpoints_set', { address: 'fill+2' }], ['execution_run'], ['execution_wait', { timeout_ms: 5000 }],
        ['execution_step', { unit: 'line' }], ['disassemble', { address: 'start', count: 4 }], ['backtrace'],
        ['breakpoints_list']
      ];
      const problems = [];
      for (const [name, args = {}] of plan) {
        const result = await ok(name, args);
        if (!result.structuredContent) continue;
        const text = textOf(result);
        const missing = leaves(result.structuredContent).filter(([, v]) => !shown(text, v));
        if (missing.length) problems.push(`${name}: ${missing.slice(0, 6).map(([p, v]) => `${p}=${JSON.stringify(v)}`).join(', ')}`);
      }
      assert.deepEqual(problems, []);
    });
  });
