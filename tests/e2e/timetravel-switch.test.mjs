// End-to-end (issue #18): switching time travel's snapshot ring, through
// the real mcphost binary (C64, built-in ROMs):
//   - mcphost --help lists --time-travel, --time-travel-seconds and
//     --time-travel-mib; bad values are refused with the option's name;
//   - --time-travel off starts sessions without the ring: the travel tools
//     fail saying how to turn it on; execution_rewind ring: "on" turns it
//     on for the session (it covers what runs from then on), ring: "off"
//     off again;
//   - MCPHOST_TRAVEL=off still starts the ring off, and --time-travel on
//     overrides it;
//   - --time-travel-seconds 4 keeps about 4 s of emulated time, not 60.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';
import { MCPHOST_BIN } from './lib/env.mjs';

const C64_HZ = 985248;
const OFF = /time travel is off for this session: execution_rewind with ring: "on" turns its snapshot ring on.*--time-travel on/;

const session = (args, env) => {
  let host;
  const calls = toolCallers(() => host);
  return {
    ...calls,
    open: async () => { host = await connectHost({ args: ['--machine', 'c64', ...args], ...(env ? { env } : {}) }); },
    close: async () => host?.close(),
    frames: (frames) => calls.ok('execution_run_until', { frames, warp: true, timeout_ms: 120000 }),
  };
};

describe('the time travel switch', () => {
  it('mcphost --help lists the options; bad values are refused', () => {
    const help = spawnSync(MCPHOST_BIN, ['--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    for (const option of ['--time-travel on|off', '--time-travel-seconds N', '--time-travel-mib N'])
      assert.ok(help.stdout.includes(option), `--help mentions ${option}`);
    for (const [args, message] of [
      [['--time-travel', 'maybe'], /--time-travel takes on or off, not "maybe"/],
      [['--time-travel-seconds', '0'], /--time-travel-seconds takes 1 to 600/],
      [['--time-travel-mib', '5000'], /--time-travel-mib takes 1 to 1024/],
    ]) {
      const r = spawnSync(MCPHOST_BIN, [...args, '--version'], { encoding: 'utf8' });
      assert.notEqual(r.status, 0, args.join(' '));
      assert.match(r.stderr, message);
    }
  });

  it('--time-travel off: the travel tools say how to turn it on; ring: "on" / "off" switch one session', async () => {
    const s = session(['--time-travel', 'off']);
    await s.open();
    try {
      await s.frames(30);
      await s.refused('execution_rewind', { frames: 5 }, OFF);
      await s.refused('execution_step_back', {}, OFF);
      const on = await s.ok('execution_rewind', { ring: 'on' });
      assert.equal(on.structuredContent.ring, 'on', resultText(on));
      assert.ok(on.structuredContent.cycle > 0);
      await s.frames(30);
      const r = (await s.ok('execution_rewind', { frames: 10 })).structuredContent;
      assert.ok(r.ring_snapshots > 0 && r.cycle < r.from_cycle, JSON.stringify(r));
      await s.refused('execution_rewind', { frames: 60 }, /older than the snapshot ring reaches/);
      const off = (await s.ok('execution_rewind', { ring: 'off' })).structuredContent;
      assert.equal(off.ring, 'off');
      assert.equal(off.ring_bytes, 0, 'off frees the ring');
      await s.frames(10);
      await s.refused('execution_rewind', { frames: 2 }, OFF);
      await s.refused('execution_rewind', { ring: 'sideways' }, /ring/);
      await s.refused('execution_rewind', { ring: 'on', frames: 2 }, /exactly one of/);
    } finally {
      await s.close();
    }
  });

  it('MCPHOST_TRAVEL=off still starts the ring off; --time-travel on overrides it', async () => {
    const env = { ...process.env, MCPHOST_TRAVEL: 'off' };
    const off = session([], env);
    await off.open();
    try {
      await off.frames(20);
      await off.refused('execution_rewind', { frames: 5 }, OFF);
    } finally {
      await off.close();
    }
    const on = session(['--time-travel', 'on'], env);
    await on.open();
    try {
      await on.frames(20);
      const r = (await on.ok('execution_rewind', { frames: 5 })).structuredContent;
      assert.ok(r.cycle < r.from_cycle);
    } finally {
      await on.close();
    }
  });

  it('--time-travel-seconds 4 keeps about 4 s of emulated time', async () => {
    const s = session(['--time-travel-seconds', '4']);
    await s.open();
    try {
      await s.frames(50 * 12); // 12 s
      await s.refused('execution_rewind', { cycle: 1 }, /older than the snapshot ring/);
      const r = (await s.ok('execution_rewind', { frames: 1 })).structuredContent;
      const reach = (r.from_cycle - r.oldest_cycle) / C64_HZ;
      assert.ok(reach >= 3.9 && reach < 8, `reaches ${reach.toFixed(1)} s back`);
    } finally {
      await s.close();
    }
  });
});
