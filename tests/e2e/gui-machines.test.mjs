// End-to-end: the SDL window with a VIC-20 and with a Plus/4 (original ROMs
// from ../shared/roms or $MCPHOST_TEST_ROMS; skipped, saying so, without
// them or without Xvfb/xdotool/ImageMagick outside CI). mcphost --gui runs
// inside Xvfb beside the official MCP SDK client: keys typed with xdotool
// by position reach the machine through its keymap (PRINT 2+3 answers 5 on
// the screen), the chip pane shows the machine's own chips (VIC and VIAs;
// TED) through their interfaces, and the window is grabbed with
// ImageMagick's import. MH_GUI_SHOT_DIR=DIR keeps the screenshots there to
// look at.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';
import { romDir, skipReason } from './lib/roms.mjs';
import { guiPrerequisites, startXvfb, xrun, pngToRgb } from './lib/xserver.mjs';

const missing = guiPrerequisites();
if (missing && process.env.CI === 'true') throw new Error(`GUI tests cannot run in CI: ${missing}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const machines = [
  // pixelWidth: the VIC-20's pixels are wide (aspect 1.66 PAL), drawn two
  // screen pixels across; the TED's are about square.
  { machine: 'vic20', roms: 'VIC20', pixelWidth: 2, chips: [/^VIC 656[01] (PAL|NTSC) line/, /^ scr \$1E00/, /^via1 /, /^via2 .*T1 \$[0-9A-F]{4}\*/] },
  { machine: 'plus4', roms: 'PLUS4', pixelWidth: 1, chips: [/^TED 7360|^TED 8360/, /^ scr \$0C00/, /^ irq \$[0-9A-F]{2}\/\$[0-9A-F]{2} T1 \$/] }
];

for (const m of machines) {
  const skip = missing ? `skipped outside CI: ${missing}` : skipReason(m.roms);
  if (skip) console.log(`gui-machines (${m.machine}): ${skip}`);

  describe(`mcphost --gui with a ${m.machine}`, { skip }, () => {
    let x;
    let host;
    let windowId;
    const ok = async (name, args = {}) => {
      const r = await host.client.callTool({ name, arguments: args });
      assert.equal(r.isError, false, `${name}: ${resultText(r)}`);
      return r;
    };
    const report = async () => (await ok('sdl_window_report')).structuredContent;
    // Before the KERNAL has set up the video chip there is no text screen yet
    // (an error): no lines then.
    const screenLines = async () => {
      const r = await host.client.callTool({ name: 'screen_text', arguments: {} });
      return r.isError ? [] : r.structuredContent.lines.map((l) => l.trimEnd());
    };

    before(async () => {
      x = await startXvfb();
      host = await connectHost({
        args: ['--machine', m.machine, '--rom-dir', romDir(m.roms), '--gui'],
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
      const deadline = Date.now() + 60000;
      let r;
      for (;;) {
        r = await report();
        const lines = await screenLines();
        if (r.window.open && r.window.screen.frameShown > 0 && lines.some((l) => l.trim() === 'READY.')) break;
        assert.ok(Date.now() < deadline, `the ${m.machine} window never showed READY.: ${lines.join('\n')}`);
        await sleep(100);
      }
      windowId = String(r.window.x11Window);
    });
    after(async () => {
      await host?.close();
      await x?.stop();
    });

    it('types PRINT 2+3 by position with xdotool and the machine answers 5', async (t) => {
      await xdo(x, 'windowfocus', '--sync', windowId);
      let lines = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        // '+' is right of 0 on these keyboards: the host's '-' key
        await xdo(x, 'key', '--delay', '200', 'p', 'r', 'i', 'n', 't', 'space', '2', 'minus', '3', 'Return');
        const deadline = Date.now() + 20000;
        for (;;) {
          lines = await screenLines();
          const at = lines.lastIndexOf('PRINT 2+3');
          if (at >= 0 && lines[at + 1]?.trim() === '5') return;
          if (Date.now() > deadline) break;
          await sleep(100);
        }
        t.diagnostic(`attempt ${attempt}: PRINT 2+3 / 5 did not appear:\n${lines.join('\n')}`);
      }
      assert.fail(`PRINT 2+3 never answered 5:\n${lines.join('\n')}`);
    });

    it('the chip pane shows the machine\'s own chips', async () => {
      let chips = [];
      const deadline = Date.now() + 20000;
      while (Date.now() < deadline) {
        chips = (await report()).window.chips ?? [];
        if (m.chips.every((re) => chips.some((l) => re.test(l)))) break;
        await sleep(100);
      }
      for (const re of m.chips) assert.ok(chips.some((l) => re.test(l)), `${re} in the chip pane: ${JSON.stringify(chips)}`);
    });

    it('the window can be grabbed, and shows the emulated screen', async () => {
      const shot = await xrun(x.display, 'import', ['-window', windowId, 'png:-']);
      if (process.env.MH_GUI_SHOT_DIR) writeFileSync(join(process.env.MH_GUI_SHOT_DIR, `gui-${m.machine}.png`), shot);
      const r = await report();
      const s = r.window.screen;
      const area = await pngToRgb(shot, { x: s.x, y: s.y, width: s.width, height: s.height });
      const colours = new Set();
      for (let i = 0; i < area.length && colours.size < 3; i += 3) colours.add((area[i] << 16) | (area[i + 1] << 8) | area[i + 2]);
      assert.ok(colours.size >= 2, 'the screen area is not blank');
    });

    it('keeps the picture in the machine\'s shape (pixel aspect, integer scale)', async () => {
      const s = (await report()).window.screen;
      assert.equal(s.pixelWidth, m.pixelWidth, JSON.stringify(s));
      assert.equal(s.width, s.frameWidth * m.pixelWidth * s.scale);
      assert.equal(s.height, s.frameHeight * s.scale);
    });
  });
}

function xdo(x, ...args) {
  return xrun(x.display, 'xdotool', args);
}
