// End-to-end: tools-screen in the real mcphost binary, driven by the official
// MCP TypeScript SDK client over stdio. On a C64 booted to READY.,
// screen_text reads the text screen through the machine's mh.textscreen/1;
// screen_capture returns a PNG (decoded here with node's zlib) whose border
// pixels have the border colour vic2_registers_get reports, and writes the
// same PNG into an allowed directory when given a path (an existing file
// only with overwrite: true; a path outside is refused). On bare6502, which has no video and no text screen, the host
// refuses both tools with a "not available" message naming the machine and
// the missing capability.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';
import { decodeIndexedPng } from './lib/png.mjs';
import { MCPHOST_BIN } from './lib/env.mjs';

const PLUGIN_DIR = join(dirname(MCPHOST_BIN), '..', 'lib', 'mcphost', 'plugins');
const PEPTO = [0x000000, 0xffffff, 0x68372b, 0x70a4b2, 0x6f3d86, 0x588d43, 0x352879, 0xb8c76f,
  0x6f4f25, 0x433900, 0x9a6759, 0x444444, 0x6c6c6c, 0x9ad284, 0x6c5eb5, 0x959595];

for (const plugin of ['tools-screen.so', 'tools-vic2.so', 'machine-c64.so', 'machine-bare6502.so']) {
  if (!existsSync(join(PLUGIN_DIR, plugin)))
    throw new Error(`${plugin} is not in ${PLUGIN_DIR}: build it first (cmake --build <build>)`);
}


async function call(host, name, args = {}) {
  return host.client.callTool({ name, arguments: args });
}

describe('screen_capture and screen_text on a C64', () => {
  let host, dir;
  const ok = async (name, args = {}) => {
    const res = await call(host, name, args);
    assert.equal(res.isError, false, `${name}: ${resultText(res)}`);
    return res;
  };
  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcphost-screen-')));
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir] });
    // The Open ROMs reach READY. well within 150 frames.
    await ok('execution_run_until', { frames: 150, warp: true, timeout_ms: 60000 });
  });
  after(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('are listed for the machine, with session but no instance to choose', async () => {
    const { tools } = await host.client.listTools();
    for (const name of ['screen_capture', 'screen_text']) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.ok(tool.inputSchema.properties.session, `${name} takes session`);
      assert.equal(tool.inputSchema.properties.instance, undefined, `${name} takes no instance`);
    }
    assert.ok(!tools.some((t) => t.name === 'vic2_screen_capture' || t.name === 'vic2_screen_text'));
  });

  it('screen_text reads READY. in 25 lines of 40 characters', async () => {
    const res = await ok('screen_text');
    const text = resultText(res);
    assert.match(text, /^READY\.\s*$/m, `the screen shows READY.:\n${text}`);
    const s = res.structuredContent;
    assert.equal(s.columns, 40);
    assert.equal(s.rows, 25);
    assert.equal(s.lines.length, 25);
    for (const line of s.lines) assert.equal([...line].length, 40, `a line of 40 characters: "${line}"`);
    assert.equal(s.screen, 0x0400);
    assert.equal(s.mode, 'standard text');
    assert.equal(s.charset, 'upper case/graphics');
    assert.equal(s.colors, undefined, 'colours only when asked for');
    const colors = (await ok('screen_text', { colors: true })).structuredContent.colors;
    assert.equal(colors.foreground.length, 25);
    assert.match(colors.foreground[0], /^[0-9A-F]{40}$/);
    assert.ok(colors.reverse.some((row) => row.includes('R')), 'the cursor is a reverse-video cell');
    assert.equal(typeof colors.border_name, 'string');
  });

  it('screen_capture returns a PNG with the border colour at the edges', async () => {
    const regs = await ok('vic2_registers_get');
    const border = regs.structuredContent.colors.border;
    const background = regs.structuredContent.colors.background0;
    const res = await ok('screen_capture', { scale: 2 });
    const image = res.content.find((c) => c.type === 'image');
    assert.ok(image, 'an image content item');
    assert.equal(image.mimeType, 'image/png');
    const png = decodeIndexedPng(Buffer.from(image.data, 'base64'));
    assert.equal(png.width, 768);
    assert.equal(png.height, 544);
    assert.equal(res.structuredContent.width, 768);
    assert.equal(res.structuredContent.scale, 2);
    const rgbAt = (x, y) => png.palette[png.pixels[y * png.width + x]];
    for (const [x, y] of [[0, 0], [767, 0], [0, 543], [767, 543], [10, 300]])
      assert.equal(rgbAt(x, y), PEPTO[border], `pixel ${x},${y} has the border colour ${border}`);
    // Inside the display window (x 32.., y 35.. on PAL, doubled): background.
    assert.equal(rgbAt(2 * 200, 2 * 200), PEPTO[background], 'an empty cell shows the background');
  });

  it('screen_capture with a path writes the same PNG into the allowed directory', async () => {
    const res = await ok('screen_capture', { path: 'shot.png' });
    const file = join(dir, 'shot.png');
    assert.equal(res.structuredContent.path, file);
    const image = res.content.find((c) => c.type === 'image');
    assert.deepEqual(readFileSync(file), Buffer.from(image.data, 'base64'));
    const again = await call(host, 'screen_capture', { path: 'shot.png' });
    assert.equal(again.isError, true, 'an existing file is kept');
    assert.match(resultText(again), /overwrite: true/);
    // Replacing it is confirmed with a token first (docs/sessions.md).
    const asked = await call(host, 'screen_capture', { path: 'shot.png', overwrite: true });
    const token = resultText(asked).match(/requires_confirmation: .*"confirm": "([0-9a-f]{32})"/s)?.[1];
    assert.ok(token, resultText(asked));
    await ok('screen_capture', { path: 'shot.png', overwrite: true, confirm: token });
    const outside = await call(host, 'screen_capture', { path: '../escape.png' });
    assert.equal(outside.isError, true);
    assert.match(resultText(outside), /--allow-dir/);
  });

  it('bad arguments are tool errors naming the argument', async () => {
    for (const scale of [0, 5]) {
      const res = await call(host, 'screen_capture', { scale });
      assert.equal(res.isError, true);
      assert.match(resultText(res), /scale/);
    }
    const res = await call(host, 'screen_text', { colors: 'yes' });
    assert.equal(res.isError, true);
    assert.match(resultText(res), /colors/);
  });
});

describe('the screen tools on a machine without video', () => {
  let host;
  before(async () => {
    host = await connectHost({ args: ['--machine', 'bare6502'] });
  });
  after(async () => {
    await host?.close();
  });

  it('screen_text is refused: the machine has no text screen', async () => {
    const res = await call(host, 'screen_text');
    assert.equal(res.isError, true);
    assert.match(resultText(res),
      /^screen_text is not available on session "bare6502-1": the bare6502 machine does not have a text screen \(mh\.textscreen\/1\)/);
  });

  it('screen_capture is refused: the machine has no video output', async () => {
    const res = await call(host, 'screen_capture');
    assert.equal(res.isError, true);
    assert.match(resultText(res), /screen_capture is not available .*bare6502.*video output \(mh\.video\/1\)/);
  });
});
