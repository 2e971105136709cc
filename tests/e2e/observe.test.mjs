// End-to-end: mh.observe/1 seen by an in-process observer. The test-only
// frontend plugin test-observer (tests/fixtures/observer) is loaded with
// --frontend, so it owns mcphost's main thread as the SDL window will, and
// watches the host from there while the official MCP SDK client drives the
// C64 over stdio. Its tool observer_report says what it saw: tool calls
// begun and ended (client, tool, duration, error), stop events, a run of
// consecutive frames in warp, frames read from the mailbox on its own
// thread, and the audio stream while a capture runs. Needs
// /usr/share/open-roms/C64.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText } from './lib/client.mjs';

const OBSERVER_DIR = process.env.MH_OBSERVER_DIR;
const CLOCK_PAL = 985248;

describe('an in-process observer (mh.observe/1) beside an MCP client', () => {
  let host;

  before(async () => {
    assert.ok(OBSERVER_DIR, 'MH_OBSERVER_DIR names the test-observer plugin directory (CTest sets it)');
    host = await connectHost({
      args: ['--machine', 'c64', '--plugin-dir', OBSERVER_DIR, '--frontend', 'test-observer']
    });
  });
  after(async () => {
    await host?.close();
  });

  const call = async (name, args = {}) => host.client.callTool({ name, arguments: args });
  const report = async () => {
    const r = await call('observer_report');
    assert.equal(r.isError, false, resultText(r));
    return r.structuredContent;
  };
  /** Asks for the report until ok(report) holds; fails with the last one after 60 s. */
  const waitReport = async (what, ok) => {
    const deadline = Date.now() + 60000;
    let last;
    while (Date.now() < deadline) {
      last = await report();
      if (ok(last)) return last;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`observer never saw ${what}: ${JSON.stringify(last)}`);
  };

  it('sees an MCP client\'s tool calls begin and end, with client, duration and result', async () => {
    const ok = await call('registers_get');
    assert.equal(ok.isError, false, resultText(ok));
    let r = await waitReport('registers_get end', (r) => r.lastEnded.tool === 'registers_get');
    assert.equal(r.lastBegun.tool, 'registers_get');
    assert.equal(r.lastBegun.callId, r.lastEnded.callId, 'begin and end pair up');
    assert.equal(r.lastEnded.client, 'mcphost-e2e 1.0.0 (stdio)');
    assert.equal(r.lastEnded.session, 'c64-1');
    assert.equal(r.lastEnded.isError, false);
    assert.ok(r.lastEnded.durationNs > 0, 'a duration');
    assert.ok(r.lastEnded.summary.length > 0, 'a summary of the result');

    const bad = await call('memory_read', { address: 'nowhere', length: 4 });
    assert.equal(bad.isError, true);
    r = await waitReport('memory_read end', (r) => r.lastEnded.tool === 'memory_read');
    assert.equal(r.lastEnded.isError, true);
    assert.equal(r.lastEnded.summary, resultText(bad).split('\n')[0].slice(0, r.lastEnded.summary.length));
    assert.ok(r.counts.toolBegins >= 2 && r.counts.toolEnds >= 2);
  });

  it('sees 100 consecutive frames in warp, reads frames on its own thread, and sees the stop', async () => {
    const before = await report();
    const run = await call('execution_run', { warp: true });
    assert.equal(run.isError, false, resultText(run));
    const r = await waitReport('100 consecutive frames', (r) => r.longestConsecutiveFrames >= 100);
    const paused = await call('execution_pause');
    assert.equal(paused.isError, false, resultText(paused));
    const after = await waitReport('the stop event', (r) => r.stopEvents > before.stopEvents);
    assert.equal(after.lastEventSession, 'c64-1');
    assert.equal(after.watching, 'c64-1', 'the observer watches the focused session');
    assert.ok(after.framesRead > 0, `frames read from the mailbox: ${after.framesRead}`);
    assert.ok(after.framesReadNonBlank > 0, 'a read frame has more than one colour (the boot screen)');
    assert.ok(after.lastReadFrame > 0 && after.lastReadFrame <= after.lastFrame);
    assert.ok(r.counts.frames >= 100);
  });

  it('reads the audio stream while a capture records the same sound', async () => {
    const boot = await call('audio_capture', { milliseconds: 500 });
    assert.equal(boot.isError, false, resultText(boot));
    const freq = Math.round((440 * 16777216) / CLOCK_PAL);
    const set = await call('sid_registers_set', {
      registers: { mode_vol: 15, v1_freq: freq, v1_attack_decay: 0, v1_sustain_release: '$F0', v1_control: '$21' }
    });
    assert.equal(set.isError, false, resultText(set));
    const before = await report();
    const cap = await call('audio_capture', { milliseconds: 300 });
    assert.equal(cap.isError, false, resultText(cap));
    assert.ok(cap.structuredContent.peak > 1000, `the capture is not silent: ${resultText(cap)}`);
    const r = await waitReport('the capture\'s samples', (r) => r.audioSamples - before.audioSamples >= 13230);
    assert.equal(r.audioError, '');
    assert.equal(r.audioDropped, 0, 'the observer kept up');
    assert.ok(r.audioPeak > 1000, `the observer heard the note (peak ${r.audioPeak})`);
  });
});
