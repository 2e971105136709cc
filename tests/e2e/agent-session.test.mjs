// End-to-end: an agent's debugging session on a C64, through the real
// mcphost binary over stdio with the official MCP TypeScript SDK client and
// every in-tree plugin. It loads a program, sets a breakpoint before the
// program runs, runs, waits, reads registers, steps over a JSR, steps out,
// sets a conditional watchpoint, searches memory, saves and restores a
// snapshot, types on the keyboard and sees the screen change, and receives
// the stop events it subscribed to.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';

// The program, at $C000 (hand-assembled; addresses in the comments):
const PROGRAM = [
  [0xc000, [0xa2, 0x00]],             // LDX #0
  [0xc002, [0x20, 0x20, 0xc0]],       // loop: JSR sub
  [0xc005, [0xe8]],                   // INX
  [0xc006, [0x8e, 0x00, 0xc1]],       // STX $C100
  [0xc009, [0xe0, 0x0a]],             // CPX #10
  [0xc00b, [0xd0, 0xf5]],             // BNE loop
  [0xc00d, [0x60]],                   // RTS (back to BASIC)
  [0xc020, [0xa9, 0x42]],             // sub: LDA #$42
  [0xc022, [0x8d, 0x01, 0xc1]],       // STA $C101
  [0xc025, [0x20, 0x30, 0xc0]],       // JSR sub2
  [0xc028, [0x60]],                   // RTS
  [0xc030, [0xea]],                   // sub2: NOP
  [0xc031, [0x60]]                    // RTS
];

function prgBytes() {
  const image = new Uint8Array(0x32);
  for (const [address, bytes] of PROGRAM) image.set(bytes, address - 0xc000);
  return Buffer.concat([Buffer.from([0x00, 0xc0]), Buffer.from(image)]);
}

describe('an agent debugging a C64 program over stdio', () => {
  let host, dir;
  const call = async (name, args = {}) => {
    const result = await host.client.callTool({ name, arguments: args });
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  const stop = (result) => result.structuredContent.stop;
  const pcOf = (result) => stop(result).pc;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mh-agent-'));
    writeFileSync(join(dir, 'loop.prg'), prgBytes());
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir, '--no-confirm'] });
  });
  after(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts paused and boots to READY in warp', async () => {
    const state = await call('execution_get_state');
    assert.equal(state.structuredContent.state, 'paused');
    await call('events_subscribe', { types: ['stopped', 'breakpoint'] });
    const booted = await call('execution_run_until', { frames: 150, warp: true, timeout_ms: 20000 });
    assert.equal(stop(booted).reason, 'frames');
    const screen = await call('screen_text');
    assert.match(resultText(screen), /READY\./);
  });

  it('sets a breakpoint before the program exists, loads it and runs it from BASIC', async () => {
    const bp = await call('breakpoints_set', { address: '$C020' });
    assert.equal(bp.structuredContent.id, 1);
    await call('files_autostart', { path: join(dir, 'loop.prg') });
    // The program is in memory now; start it the way a user does.
    await call('keyboard_type', { text: 'SYS 49152\n' });
    await call('execution_run', { warp: false });
    const waited = await call('execution_wait', { timeout_ms: 20000 });
    assert.equal(waited.structuredContent.state, 'stopped');
    assert.equal(stop(waited).reason, 'breakpoint');
    assert.equal(stop(waited).pc_hex, '$C020');
    assert.equal(stop(waited).breakpoint.id, 1);
    assert.ok(Array.isArray(stop(waited).disassembly));
    assert.ok(stop(waited).raster.line >= 0);
    const regs = await call('registers_get');
    assert.equal(resultText(regs).length > 0, true);
    assert.equal(regs.structuredContent.x, 0, `X at the first call: ${JSON.stringify(regs.structuredContent)}`);
  });

  it('steps over a JSR and steps out of the subroutine', async () => {
    let r = await call('execution_step', { count: 2 }); // LDA, STA
    assert.equal(pcOf(r), 0xc025);
    r = await call('execution_step', { over: true }); // JSR sub2 as one step
    assert.equal(stop(r).reason, 'step_over');
    assert.equal(pcOf(r), 0xc028);
    r = await call('execution_step', { count: 2 }); // RTS, INX
    assert.equal(pcOf(r), 0xc006);
    r = await call('execution_run_until', { address: '$C022' }); // into sub again
    r = await call('execution_step_out');
    assert.equal(stop(r).reason, 'step_out');
    assert.equal(pcOf(r), 0xc005);
  });

  it('stops on a conditional watchpoint with the access in the stop record', async () => {
    await call('breakpoints_delete', { all: true });
    await call('breakpoints_memory_watch', { address: '$C100', on: 'write', condition: 'value == 5' });
    await call('execution_run');
    const r = await call('execution_wait', { timeout_ms: 20000 });
    assert.equal(stop(r).reason, 'watchpoint');
    assert.equal(stop(r).access.address_hex, '$C100');
    assert.equal(stop(r).access.value, 5);
    assert.equal(stop(r).access.by_pc_hex, '$C006');
  });

  it('searches memory for the JSR', async () => {
    const r = await call('memory_search', { address: '$C000', length: 64, pattern: '20 20 C0' });
    assert.match(JSON.stringify(r.structuredContent), /49154|\$C002/);
  });

  it('saves a snapshot, changes memory, and restores it with breakpoints kept', async () => {
    const file = join(dir, 'at5.mhsnap');
    await call('snapshot_save', { path: file });
    assert.ok(existsSync(file));
    await call('memory_write', { address: '$C100', bytes: 'EE' });
    let r = await call('memory_read', { address: '$C100', length: 1 });
    assert.match(JSON.stringify(r.structuredContent), /EE/i);
    await call('snapshot_load', { path: file });
    r = await call('memory_read', { address: '$C100', length: 1 });
    assert.match(JSON.stringify(r.structuredContent), /"05"|\b05\b/);
    const regs = await call('registers_get');
    assert.equal(regs.structuredContent.x, 5);
    const list = await call('breakpoints_list');
    assert.equal(list.structuredContent.breakpoints.length, 1);
  });

  it('refuses a snapshot path outside the allowed directories', async () => {
    const result = await host.client.callTool({ name: 'snapshot_save', arguments: { path: '../../etc/x.mhsnap' } });
    assert.ok(result.isError);
    assert.match(resultText(result), /outside the allowed directories/);
  });

  it('lets the program finish, types on the keyboard and sees the screen change', async () => {
    await call('breakpoints_delete', { all: true });
    await call('execution_run', { warp: true });
    await call('execution_run_until', { frames: 30, warp: true, timeout_ms: 20000 });
    await call('keyboard_type', { text: 'PRINT "DONE"\n' });
    await call('execution_run_until', { frames: 60, warp: true, timeout_ms: 20000 });
    const screen = await call('screen_text');
    // The echo of the command and, on a line of its own, what it printed.
    assert.match(resultText(screen), /^PRINT "DONE"\s*$/m);
    assert.match(resultText(screen), /^DONE\s*$/m);
    const c101 = await call('memory_read', { address: '$C101', length: 1 });
    assert.match(JSON.stringify(c101.structuredContent), /42/);
  });

  it('received stop and breakpoint events as notifications', async () => {
    const events = host.received.filter((m) => m.method === 'notifications/mcphost/event');
    const types = new Set(events.map((e) => e.params.type));
    assert.ok(types.has('stopped'), `event types: ${[...types]}`);
    assert.ok(types.has('breakpoint'), `event types: ${[...types]}`);
    const hit = events.find((e) => e.params.type === 'breakpoint');
    assert.equal(hit.params.detail.pc_hex ?? hit.params.detail.stop?.pc_hex, '$C020');
    assert.deepEqual(host.errors, []);
  });
});
