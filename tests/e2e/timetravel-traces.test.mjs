// End-to-end (issue #18): time travel cuts the chip event log and the frame
// trace back to where it lands, through the real mcphost binary with the
// official MCP SDK client. The KERNAL's interrupts run at READY with the
// event log and a frame trace (every chip register write, until stopped)
// on; after 40 frames the machine rewinds 20 frames and runs forward to
// the same cycle again:
//   - right after the rewind nothing newer than the landing cycle is left;
//   - after running forward the event log and the frame trace are strictly
//     increasing in cycle (no duplicates from re-execution, no leftovers
//     of the abandoned future) and equal to the first run's (C64, VIC-20:
//     their cycle stamps are exact);
//   - the frame trace counts its frames again from the landing point.
// The C64 (built-in ROMs) always; the VIC-20 and Plus/4 when their original
// ROMs are present.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { ROMS, skipReason } from './lib/roms.mjs';

const MACHINES = [
  { name: 'c64', args: ['--machine', 'c64'], skip: false, exact: true },
  { name: 'vic20', args: ['--machine', 'vic20', '--rom-dir', join(ROMS, 'VIC20')], skip: skipReason('VIC20'), exact: true },
  // the Plus/4 counts TED ticks; trace stamps are CPU cycles from the slice start
  { name: 'plus4', args: ['--machine', 'plus4', '--rom-dir', join(ROMS, 'PLUS4')], skip: skipReason('PLUS4'), exact: false },
];

const increasing = (rows, what) => {
  for (let i = 1; i < rows.length; i++)
    assert.ok(rows[i].cycle > rows[i - 1].cycle || (rows[i].cycle === rows[i - 1].cycle &&
      JSON.stringify(rows[i]) !== JSON.stringify(rows[i - 1])),
      `${what} ${i}: cycle ${rows[i].cycle} after ${rows[i - 1].cycle}`);
  const seen = new Set(rows.map((r) => JSON.stringify(r)));
  assert.equal(seen.size, rows.length, `${what}: no duplicates`);
};

for (const m of MACHINES) {
  describe(`time travel cuts the traces back on ${m.name}`, { skip: m.skip }, () => {
    let host;
    const { ok } = toolCallers(() => host);
    const cycles = async () => (await ok('execution_get_state')).structuredContent.cycles;
    const runCycles = async (count) =>
      ok('execution_run_until', { cycles: count, warp: true, timeout_ms: 120000 });
    // every row of a paged trace tool, oldest first
    const all = async (tool, key) => {
      const rows = [];
      for (let offset = 0; ; offset += 1000) {
        const s = (await ok(tool, { order: 'oldest', count: 1000, offset })).structuredContent;
        rows.push(...s[key]);
        if (!s.more) return { rows, status: s };
      }
    };

    before(async () => {
      host = await connectHost({ args: m.args });
      await runCycles(3000000); // at READY, the KERNAL's interrupts running
    });
    after(async () => {
      await host?.close();
    });

    it('drops the abandoned future and logs re-execution once', async () => {
      await ok('trace_events_get', { size: 65536 });
      await ok('trace_frame_start', { frames: 0, capacity: 100000 });
      await ok('execution_run_until', { frames: 40, warp: true, timeout_ms: 60000 });
      const end = await cycles();
      const first = { events: (await all('trace_events_get', 'events')).rows,
        writes: await all('trace_frame_get', 'writes') };
      assert.ok(first.events.length > 40, `events logged: ${first.events.length}`);
      assert.ok(first.writes.rows.length > 10, `register writes traced: ${first.writes.rows.length}`);
      increasing(first.events, 'first run events');
      increasing(first.writes.rows, 'first run writes');

      const r = await ok('execution_rewind', { frames: 20 });
      const landed = r.structuredContent.cycle;
      const back = { events: (await all('trace_events_get', 'events')).rows,
        writes: await all('trace_frame_get', 'writes') };
      assert.ok(back.events.length < first.events.length, resultText(r));
      assert.ok(back.events.every((e) => e.cycle <= landed), 'no event newer than the landing cycle');
      assert.ok(back.writes.rows.every((w) => w.cycle < landed), 'no traced write at or after it');
      assert.equal(back.writes.status.state, 'recording');
      assert.ok(back.writes.status.frames_done < first.writes.status.frames_done,
        `frames taken back: ${back.writes.status.frames_done} < ${first.writes.status.frames_done}`);

      await runCycles(end - landed);
      assert.equal(await cycles(), end);
      const again = { events: (await all('trace_events_get', 'events')).rows,
        writes: await all('trace_frame_get', 'writes') };
      increasing(again.events, 'events after rewind and re-run');
      increasing(again.writes.rows, 'writes after rewind and re-run');
      if (m.exact) {
        assert.deepEqual(again.events, first.events, 'the same events as the first run');
        assert.deepEqual(again.writes.rows, first.writes.rows, 'the same writes as the first run');
        assert.equal(again.writes.status.frames_done, first.writes.status.frames_done);
      } else {
        const near = (a, b) => Math.abs(a - b) <= Math.max(3, b / 50);
        assert.ok(near(again.events.length, first.events.length),
          `about as many events: ${again.events.length} vs ${first.events.length}`);
      }
      await ok('trace_frame_stop');
      await ok('trace_events_get', { size: 0 });
    });
  });
}
