// bench/bench_gui.mjs - the SDL window's cost and latency (prints numbers,
// asserts nothing). Starts Xvfb, then `mcphost --machine c64 --gui` under
// the MCP SDK client (stdio) with SDL's dummy audio driver and the window's
// test hook, and measures:
//   - the host process's CPU use in percent of one core with the window
//     open at real time, idle at READY (from /proc/PID/stat, over N s);
//   - input-to-screen latency in frames: from the X key event the window
//     got (xdotool) to the first changed frame it presented after the key
//     reached the machine (the window's own pipeline; the C64's keyboard
//     scan and KERNAL echo add their own time, measured separately as the
//     frames until the typed character is on the screen).
// Run from a build tree:
//   MCPHOST_BIN=build/bin/mcphost MH_FIXTURE_DIR=build/tests/fixtures/plugins \
//     node bench/bench_gui.mjs [seconds]
import { readFileSync } from 'node:fs';
import { connectHost } from '../tests/e2e/lib/client.mjs';
import { startXvfb, xrun } from '../tests/e2e/lib/xserver.mjs';

const seconds = Number(process.argv[2] ?? 10);
const FRAME_MS = 1000 / 50.125; // PAL C64
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const x = await startXvfb();
const host = await connectHost({
  args: ['--machine', 'c64', '--gui'],
  env: { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp', DISPLAY: x.display, SDL_AUDIODRIVER: 'dummy', MH_SDL_TEST_HOOK: '1' }
});
const call = async (name, args = {}) => (await host.client.callTool({ name, arguments: args })).structuredContent;
const pid = host.transport.pid;
const ticks = () => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime after the command name
};
const HZ = 100; // USER_HZ on Linux

// boot to READY with the window open
for (;;) {
  const t = await call('screen_text');
  if (t.lines.some((l) => l.trim() === 'READY.')) break;
  await sleep(200);
}
await sleep(1000);

const t0 = ticks();
const w0 = process.hrtime.bigint();
await sleep(seconds * 1000);
const cpu = ((ticks() - t0) / HZ) / (Number(process.hrtime.bigint() - w0) / 1e9) * 100;
console.log(`window open, C64 idle at READY, real time: host CPU ${cpu.toFixed(1)}% of one core (${seconds} s)`);

const r0 = await call('sdl_window_report');
const win = String(r0.window.x11Window);
await xrun(x.display, 'xdotool', ['windowfocus', '--sync', win]);
const pipeline = [];
const echo = [];
for (let i = 0; i < 10; i++) {
  const before = (await call('screen_text')).lines.join('\n');
  const t = process.hrtime.bigint();
  await xrun(x.display, 'xdotool', ['key', 'a']);
  let r;
  do {
    await sleep(5);
    r = await call('sdl_window_report');
  } while (!r.window.lastKey.shownNs);
  pipeline.push((r.window.lastKey.shownNs - r.window.lastKey.eventNs) / 1e6 / FRAME_MS);
  while ((await call('screen_text')).lines.join('\n') === before) await sleep(5);
  echo.push(Number(process.hrtime.bigint() - t) / 1e6 / FRAME_MS);
  await sleep(100);
}
const stats = (a) => {
  const s = [...a].sort((p, q) => p - q);
  return `median ${s[s.length >> 1].toFixed(2)}, max ${s.at(-1).toFixed(2)}`;
};
console.log(`input to screen, window pipeline (X key event -> next changed frame presented): ${stats(pipeline)} frames`);
console.log(`input to screen, until the typed character is on the C64 screen (xdotool included): ${stats(echo)} frames`);

await host.close();
await x.stop();
