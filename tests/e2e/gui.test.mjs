// End-to-end: the SDL window (plugins/frontend-sdl) under a real X server.
// mcphost --gui runs with a C64 inside Xvfb while the official MCP SDK
// client drives it over stdio, as an agent would beside a person:
//   - the window's emulator area, grabbed with ImageMagick, equals the
//     frame screen_capture returns, at the same scale;
//   - keys typed with xdotool reach the C64 (PRINT "HI" on the screen);
//   - an agent's breakpoints_set + execution_run + stop are in the
//     window's activity model no later than 100 ms after the agent saw
//     them (both clocks are CLOCK_MONOTONIC; the model's timestamps come
//     through the test hook sdl_window_report, MH_SDL_TEST_HOOK=1);
//   - the person's pause hotkey (F9) reaches the agent as a stop event
//     requested by "window";
//   - a person's pause and an agent's run at the same instant leave one
//     state that the agent, the engine and the window agree on;
//   - sound plays to SDL's dummy driver for 10 s without an underrun.
// Without a display, --gui fails at once with a clear message.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connectHost, resultText } from './lib/client.mjs';
import { MCPHOST_BIN, hostArgs } from './lib/env.mjs';
import { guiPrerequisites, startXvfb, xrun, pngToRgb } from './lib/xserver.mjs';

const missing = guiPrerequisites();
if (missing && process.env.CI === 'true') throw new Error(`GUI tests cannot run in CI: ${missing}`);
const skip = missing ? `skipped outside CI: ${missing}` : false;

const nowNs = () => process.hrtime.bigint(); // CLOCK_MONOTONIC, the model's clock too
const CLOCK_PAL = 985248;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('mcphost --gui without a display', { skip }, () => {
  it('fails at once with a clear message, before serving anyone', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp' };
    const child = spawn(MCPHOST_BIN, hostArgs('--machine', 'c64', '--transport', 'stdio', '--gui'), {
      env,
      stdio: ['pipe', 'pipe', 'pipe']
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.on('data', (c) => (stdout += c));
    // an initialize request that must never be answered
    child.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) + '\n'
    );
    const code = await new Promise((r) => child.on('exit', (c) => r(c)));
    assert.equal(code, 2, `exit code; stderr: ${stderr}`);
    assert.match(stderr, /cannot open a window/);
    assert.match(stderr, /without --gui/);
    assert.equal(stdout, '', 'no client was served');
  });
});

describe('mcphost --gui in an X server beside an MCP client', { skip }, () => {
  let x;
  let host;
  let windowId;

  const call = async (name, args = {}) => {
    const r = await host.client.callTool({ name, arguments: args });
    return r;
  };
  const ok = async (name, args = {}) => {
    const r = await call(name, args);
    assert.equal(r.isError, false, `${name}: ${resultText(r)}`);
    return r;
  };
  const report = async () => (await ok('sdl_window_report')).structuredContent;
  /** Asks for the window's report until pass(report) holds; fails after 60 s. */
  const waitReport = async (what, pass) => {
    const deadline = Date.now() + 60000;
    let last;
    while (Date.now() < deadline) {
      last = await report();
      if (pass(last)) return last;
      await sleep(20);
    }
    assert.fail(`the window never showed ${what}: ${JSON.stringify({ ...last, entries: last?.entries.slice(-6) })}`);
  };
  const xdo = (...args) => xrun(x.display, 'xdotool', args);
  const events = () => host.received.filter((m) => m.method === 'notifications/mcphost/event').map((m) => m.params);

  before(async () => {
    x = await startXvfb();
    host = await connectHost({
      args: ['--machine', 'c64', '--gui'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? '/tmp',
        DISPLAY: x.display,
        SDL_AUDIODRIVER: 'dummy',
        MH_SDL_TEST_HOOK: '1',
        ...(process.env.ASAN_OPTIONS ? { ASAN_OPTIONS: process.env.ASAN_OPTIONS } : {}),
        ...(process.env.UBSAN_OPTIONS ? { UBSAN_OPTIONS: process.env.UBSAN_OPTIONS } : {})
      }
    });
    await ok('events_subscribe');
    const r = await waitReport('the running C64', (r) => r.window.open && r.window.screen.frameShown > 0 && r.status.state === 'running');
    windowId = String(r.window.x11Window);
    assert.notEqual(windowId, '0', 'the window has an X window id');
    // READY. is on the screen before the tests type
    const deadline = Date.now() + 60000;
    for (;;) {
      const t = await ok('screen_text');
      if (t.structuredContent.lines.some((l) => l.trim() === 'READY.')) break;
      assert.ok(Date.now() < deadline, `the C64 never showed READY.: ${resultText(t)}`);
      await sleep(100);
    }
  });
  after(async () => {
    await host?.close();
    await x?.stop();
  });

  it('shows the emulated screen: the window area equals screen_capture at the same scale', async () => {
    const paused = await ok('execution_pause');
    assert.equal(paused.structuredContent.stop.requested_by, 'mcphost-e2e 1.0.0 (stdio)', 'the stop record names who paused');
    const cap0 = await ok('screen_capture');
    const r = await waitReport('the paused frame', (r) => r.status.state === 'paused' && r.window.screen.frameShown === cap0.structuredContent.frame);
    const s = r.window.screen;
    assert.ok(s.scale >= 1, 'an integer scale');
    assert.equal(s.width, s.frameWidth * s.scale);
    assert.equal(s.height, s.frameHeight * s.scale);
    const cap = await ok('screen_capture', { scale: s.scale });
    assert.equal(cap.structuredContent.frame, r.window.screen.frameShown, 'the same frame');
    const image = cap.content.find((c) => c.type === 'image');
    const expected = await pngToRgb(Buffer.from(image.data, 'base64'));
    // let the window present it (a redraw follows every report change)
    await waitReport('a presented frame after the pause', (q) => q.window.framesPresented > r.window.framesPresented);
    const shot = await xrun(x.display, 'import', ['-window', windowId, 'png:-']);
    const actual = await pngToRgb(shot, { x: s.x, y: s.y, width: s.width, height: s.height });
    assert.equal(actual.length, expected.length, 'the same size');
    let differ = 0;
    for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) differ++;
    assert.equal(differ, 0, `${differ} bytes differ between the window and the capture`);
    await ok('execution_run');
  });

  it('types what xdotool presses on the X keyboard into the C64 (PRINT "HI")', async (t) => {
    await waitReport('running', (r) => r.status.state === 'running');
    await xdo('windowfocus', '--sync', windowId);
    // A key lost on the way (seen once in CI under heavy load, not
    // reproduced since) is reported and the line typed again, at most
    // three times.
    let lines = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      // by position: Shift+2 is '"' on a C64 keyboard; 200 ms a key: keys
      // held 2 frames after release must not overlap even when a loaded
      // (sanitizer) build runs the C64 slower for a moment
      await xdo('key', '--delay', '200', 'p', 'r', 'i', 'n', 't', 'space', 'shift+2', 'h', 'i', 'shift+2', 'Return');
      const deadline = Date.now() + 20000;
      for (;;) {
        lines = (await ok('screen_text')).structuredContent.lines.map((l) => l.trimEnd());
        const at = lines.lastIndexOf('PRINT "HI"');
        if (at >= 0 && lines[at + 1] === 'HI') return;
        if (Date.now() > deadline) break;
        await sleep(100);
      }
      t.diagnostic(`attempt ${attempt}: PRINT "HI" did not appear:\n${lines.join('\n')}`);
    }
    assert.fail(`PRINT "HI" never appeared:\n${lines.join('\n')}`);
  });

  it("shows the agent's breakpoint, run and stop in the activity model within 100 ms", async () => {
    const vector = await ok('memory_read', { address: '$FFFE', length: 2 });
    const hex = vector.structuredContent.hex;
    const irq = parseInt(hex.slice(0, 2), 16) | (parseInt(hex.slice(2, 4), 16) << 8);
    const set = await ok('breakpoints_set', { address: irq });
    const setSeen = nowNs();
    const id = set.structuredContent.id ?? set.structuredContent.breakpoint?.id;
    const run = await ok('execution_run');
    const runSeen = nowNs();
    void run;
    const stop = await ok('execution_wait', { timeout_ms: 10000 });
    const stopSeen = nowNs();
    assert.equal(stop.structuredContent.stop.reason, 'breakpoint', resultText(stop));
    const r = await waitReport('the stop', (r) => r.status.stops > 0 && r.status.reason === 'breakpoint' && r.status.pc === irq);
    const within = (entry, seen, what) => {
      assert.ok(entry, `${what} is in the activity model`);
      const t = BigInt(entry.kind === 'call' ? entry.endedNs : entry.seenNs);
      const late = Number(t - seen) / 1e6;
      assert.ok(late <= 100, `${what} reached the model ${late.toFixed(1)} ms after the agent saw it`);
    };
    const calls = r.entries.filter((e) => e.kind === 'call' && e.client.startsWith('mcphost-e2e'));
    within(calls.findLast((e) => e.tool === 'breakpoints_set'), setSeen, 'breakpoints_set');
    within(calls.findLast((e) => e.tool === 'execution_run'), runSeen, 'execution_run');
    const stopEntry = r.entries.findLast((e) => e.kind === 'event' && e.tool === 'stopped');
    within(stopEntry, stopSeen, 'the stop');
    assert.match(stopEntry.args, /breakpoint/);
    assert.equal(r.status.breakpoint, id);
    assert.ok(r.status.disassemblyLines > 0, 'the disassembly around PC');
    const bpSet = calls.findLast((e) => e.tool === 'breakpoints_set');
    assert.equal(bpSet.isError, false);
    assert.match(bpSet.args, /address=/);
    assert.ok(bpSet.durationNs > 0 && bpSet.summary.length > 0);
    await ok('breakpoints_delete', { all: true });
    await ok('execution_run');
  });

  it("delivers the person's pause hotkey (F9) to the agent as an event from the user", async () => {
    await waitReport('running', (r) => r.status.state === 'running');
    const seen = events().length;
    await xdo('windowfocus', '--sync', windowId);
    await xdo('key', 'F9');
    const deadline = Date.now() + 60000;
    let stop;
    while (!(stop = events().slice(seen).find((e) => e.type === 'stopped'))) {
      assert.ok(Date.now() < deadline, 'no stop event reached the agent');
      await sleep(20);
    }
    assert.equal(stop.detail.reason, 'pause');
    assert.equal(stop.detail.requested_by, 'window', JSON.stringify(stop.detail));
    const r = await report();
    assert.ok(r.entries.some((e) => e.kind === 'call' && e.client === 'window' && e.tool === 'execution_pause'));
    assert.equal(r.status.requestedBy, 'window');
    const state = await ok('execution_get_state');
    assert.equal(state.structuredContent.state, 'paused');
  });

  it("leaves one consistent state when a person's pause and an agent's run meet", async () => {
    for (let round = 0; round < 5; round++) {
      await ok('execution_run');
      await waitReport('running', (r) => r.status.state === 'running');
      const seq0 = Math.max(0, ...(await report()).entries.map((e) => e.seq));
      await Promise.all([xdo('key', 'F9'), call('execution_run')]);
      // F9 pauses a running machine and runs a paused one: either way the
      // window makes its call, before or after the agent's run
      await waitReport("the window's call", (r) =>
        r.entries.some((e) => e.seq > seq0 && e.client === 'window' && e.tool.startsWith('execution_') && !e.pending)
      );
      const agent = (await ok('execution_get_state')).structuredContent.state;
      const settled = await waitReport(`the agent's state ${agent}`, (q) => q.status.state === agent);
      const last = events().filter((e) => e.type === 'stopped' || e.type === 'resumed').at(-1);
      assert.equal(last.type === 'stopped' ? 'paused' : 'running', agent, `the last event (${last.type}) agrees with the state`);
      assert.equal(settled.status.state, agent);
    }
    await ok('execution_run');
  });

  it('plays the sound to SDL\'s dummy driver for 10 s without an underrun', async (t) => {
    await waitReport('sound playing', (r) => r.status.state === 'running' && r.audio.playing);
    const a = await report();
    const c0 = (await ok('execution_get_state')).structuredContent.cycles;
    assert.equal(a.audio.driver, 'dummy');
    const t0 = nowNs();
    await sleep(10000);
    const b = await report();
    const c1 = (await ok('execution_get_state')).structuredContent.cycles;
    const seconds = Number(nowNs() - t0) / 1e9;
    const speed = ((c1 - c0) / CLOCK_PAL / seconds) * 100;
    const played = b.audio.played - a.audio.played;
    const underruns = b.audio.underruns - a.audio.underruns;
    const info = `played ${played} samples, ${underruns} underruns, skipped ${b.audio.skipped - a.audio.skipped}, prefill ${a.audio.prefillMs}/${b.audio.prefillMs} ms, emulation at ${speed.toFixed(0)}% of real time, ` +
      `fill ${b.audio.fillMinMs.toFixed(1)}..${b.audio.fillMaxMs.toFixed(1)} ms (target ${b.audio.targetMs.toFixed(0)} ms), pace ${b.audio.paceMin.toFixed(4)}..${b.audio.paceMax.toFixed(4)} (now ${b.audio.paceRatio.toFixed(4)})`;
    t.diagnostic(info);
    assert.equal(b.audio.pacing, true, 'the host offers set_pace');
    assert.ok(b.audio.paceMin >= 0.95 && b.audio.paceMax <= 1.05, `the pacing stays in its range (${info})`);
    assert.equal(b.audio.dropped, 0, 'the window kept up with the stream');
    // SDL's dummy driver keeps time with SDL_Delay and plays somewhat slower
    // than real time; a sound card plays at its rate
    assert.ok(played >= a.audio.rate * 5 * Math.min(1, speed / 100), info);
    if (speed < 97) {
      // a machine that cannot emulate in real time (a sanitizer build on
      // a loaded machine) cannot fill the sound card in time either
      t.diagnostic(`underruns not checked: the emulation ran at ${speed.toFixed(0)}% of real time`);
      return;
    }
    assert.equal(underruns, 0, `underruns in ${seconds.toFixed(1)} s (${info})`);
    // the sound card is the clock: the fill stays near the target
    assert.ok(b.audio.fillMaxMs <= 3 * b.audio.targetMs, `the fill stays bounded (${info})`);
  });
});
