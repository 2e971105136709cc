// End-to-end: the debugger calls its access hook for reads only while a
// read watchpoint is armed (issue 21). A read watchpoint set while the C64
// runs (the hook on for the write log's writes only until then) stops at
// the next read; deleted, reads stop being watched and the machine runs on.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, toolCallers } from './lib/client.mjs';

describe('read watchpoints armed while running (C64)', () => {
  let host;
  const { ok } = toolCallers(() => host);

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--transport', 'stdio'] });
    // to BASIC's READY prompt: the KERNAL's input loop reads the keyboard
    // queue's length at $C6 over and over
    await ok('execution_run_until', { frames: 150, warp: true, timeout_ms: 20000 });
  });
  after(async () => {
    await host?.close();
  });

  it('a read watchpoint set while running stops at the next read', async () => {
    await ok('execution_run', { warp: true });
    const watch = await ok('breakpoints_memory_watch', { address: '$00C6', on: 'read' });
    const stop = (await ok('execution_wait', { timeout_ms: 20000 })).structuredContent.stop;
    assert.equal(stop.reason, 'watchpoint', JSON.stringify(stop));
    assert.equal(stop.access.kind, 'read');
    assert.equal(stop.access.address, 0xC6);
    assert.equal(stop.access.value, 0, 'no key queued');
    assert.equal(stop.breakpoint.id, watch.structuredContent.id);

    // The same watchpoint disabled and enabled again between runs.
    await ok('breakpoints_toggle', { id: watch.structuredContent.id, enabled: false });
    await ok('execution_run_until', { frames: 2, warp: true, timeout_ms: 20000 });
    await ok('breakpoints_toggle', { id: watch.structuredContent.id, enabled: true });
    await ok('execution_run', { warp: true });
    const again = (await ok('execution_wait', { timeout_ms: 20000 })).structuredContent.stop;
    assert.equal(again.reason, 'watchpoint', JSON.stringify(again));
    assert.equal(again.access.kind, 'read');

    // Deleted: two frames run through without a stop.
    await ok('breakpoints_delete', { id: watch.structuredContent.id });
    const run = (await ok('execution_run_until', { frames: 2, warp: true, timeout_ms: 20000 }))
      .structuredContent;
    assert.notEqual(run.stop?.reason, 'watchpoint', JSON.stringify(run));
  });
});
