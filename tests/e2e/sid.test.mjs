// End-to-end: the SID tools through the real mcphost binary (--machine c64,
// the tools-sid plugin from the build's plugin directory) driven by the
// official MCP TypeScript SDK client. audio_capture returns audio
// content that decodes as a RIFF/WAV (header parsed and samples read here)
// and is not silent, at the pitch of the note written with
// sid_registers_set; the file written with `path` lands in --allow-dir and
// a path outside it is refused. Needs /usr/share/open-roms/C64.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText } from './lib/client.mjs';

const SID_TOOLS = ['sid_registers_get', 'sid_registers_set', 'sid_voices_get', 'audio_capture', 'audio_analyze'];
const CLOCK_PAL = 985248;

/** Parses a 16-bit PCM WAV; returns { rate, channels, samples: Int16Array }. */
function decodeWav(buf) {
  assert.ok(buf.length >= 44, `a WAV has a 44-byte header (got ${buf.length} bytes)`);
  assert.equal(buf.toString('latin1', 0, 4), 'RIFF');
  assert.equal(buf.readUInt32LE(4), buf.length - 8, 'RIFF size');
  assert.equal(buf.toString('latin1', 8, 16), 'WAVEfmt ');
  assert.equal(buf.readUInt32LE(16), 16, 'fmt chunk size');
  assert.equal(buf.readUInt16LE(20), 1, 'PCM');
  const channels = buf.readUInt16LE(22);
  const rate = buf.readUInt32LE(24);
  assert.equal(buf.readUInt32LE(28), rate * channels * 2, 'byte rate');
  assert.equal(buf.readUInt16LE(32), channels * 2, 'block align');
  assert.equal(buf.readUInt16LE(34), 16, 'bits per sample');
  assert.equal(buf.toString('latin1', 36, 40), 'data');
  const bytes = buf.readUInt32LE(40);
  assert.equal(bytes, buf.length - 44, 'data size');
  const samples = new Int16Array(bytes / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(44 + 2 * i);
  return { rate, channels, samples };
}

/** Frequency from upward zero crossings (mean removed, with hysteresis). */
function crossingHz(x, rate) {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length;
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v - mean));
  const hyst = peak * 0.1;
  let armed = false, first = -1, last = -1, count = 0;
  for (let i = 1; i < x.length; i++) {
    const a = x[i - 1] - mean, b = x[i] - mean;
    if (b < -hyst) armed = true;
    if (armed && a < 0 && b >= 0) {
      const t = i - 1 + -a / (b - a);
      if (first < 0) first = t;
      else count++;
      last = t;
      armed = false;
    }
  }
  return count ? (count * rate) / (last - first) : 0;
}

function audioOf(result) {
  const audio = result.content.find((c) => c.type === 'audio');
  assert.ok(audio, `the result has audio content: ${JSON.stringify(result.content.map((c) => c.type))}`);
  assert.equal(audio.mimeType, 'audio/wav');
  return decodeWav(Buffer.from(audio.data, 'base64'));
}

describe('SID tools through the binary, --machine c64', () => {
  let host;
  let dir;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mh-e2e-sid-'));
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir] });
  });
  after(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the SID tools with output schemas', async () => {
    const { tools } = await host.client.listTools();
    for (const name of SID_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.ok(tool.outputSchema, `${name} has an outputSchema`);
    }
  });

  it('audio_capture returns a WAV that decodes and plays the note written', async () => {
    // Let the KERNAL boot first, so nothing it does touches the SID later.
    const boot = await host.client.callTool({ name: 'audio_capture', arguments: { milliseconds: 2500 } });
    assert.equal(boot.isError, false, resultText(boot));
    const freq = Math.round((440 * 16777216) / CLOCK_PAL);
    const set = await host.client.callTool({
      name: 'sid_registers_set',
      arguments: { registers: { mode_vol: 15, v1_freq: freq, v1_attack_decay: 0, v1_sustain_release: '$F0', v1_control: '$21' } }
    });
    assert.equal(set.isError, false, resultText(set));
    assert.equal(set.structuredContent.voices[0].frequency, freq);

    const res = await host.client.callTool({ name: 'audio_capture', arguments: { milliseconds: 300 } });
    assert.equal(res.isError, false, resultText(res));
    const wav = audioOf(res);
    assert.equal(wav.channels, 1);
    assert.equal(wav.rate, 44100);
    assert.equal(wav.samples.length, 13230);
    assert.equal(res.structuredContent.samples, 13230);
    let peak = 0;
    for (const v of wav.samples) peak = Math.max(peak, Math.abs(v));
    assert.ok(peak > 1000, `not silent (peak ${peak})`);
    assert.equal(res.structuredContent.peak, peak);
    const expected = (freq * CLOCK_PAL) / 16777216;
    // skip the first 20 ms (attack, output high-pass)
    const hz = crossingHz(wav.samples.subarray(882), wav.rate);
    assert.ok(Math.abs(hz - expected) / expected < 0.01, `pitch ${hz} Hz, expected ${expected} Hz`);
    assert.match(resultText(res), /captured 300\.0 ms of mixed/);

    const analysis = await host.client.callTool({ name: 'audio_analyze', arguments: { source: 'last' } });
    assert.equal(analysis.isError, false, resultText(analysis));
    const dominant = analysis.structuredContent.mixed.dominant_hz;
    assert.ok(Math.abs(dominant - expected) / expected < 0.01, `dominant ${dominant} Hz, expected ${expected} Hz`);
    assert.equal(analysis.structuredContent.voices[0].tonal, true);
  });

  it('writes the WAV into the allowed directory and refuses a path outside', async () => {
    const res = await host.client.callTool({ name: 'audio_capture', arguments: { frames: 5, path: 'e2e.wav' } });
    assert.equal(res.isError, false, resultText(res));
    const file = join(dir, 'e2e.wav');
    assert.ok(existsSync(file), `${file} was written`);
    const onDisk = decodeWav(readFileSync(file));
    assert.equal(onDisk.samples.length, res.structuredContent.samples);
    assert.deepEqual(onDisk.samples, audioOf(res).samples, 'the file holds the returned audio');

    const refused = await host.client.callTool({ name: 'audio_capture', arguments: { frames: 5, path: '../escape.wav' } });
    assert.equal(refused.isError, true);
    assert.match(resultText(refused), /allowed directories/);
    assert.ok(!existsSync(join(dir, '..', 'escape.wav')));
  });

  it('bad inputs are tool errors that say what to do', async () => {
    const bad = [
      ['sid_registers_set', { register: 'v9_freq', value: 1 }, /unknown SID register "v9_freq"/],
      ['sid_registers_set', { register: 'v1_control', value: 300 }, /0-255/],
      ['audio_capture', { frames: 0 }, /frames/],
      ['audio_capture', { milliseconds: 1e9 }, /30000/]
    ];
    for (const [name, args, re] of bad) {
      const res = await host.client.callTool({ name, arguments: args });
      assert.equal(res.isError, true, `${name} ${JSON.stringify(args)} is an error`);
      assert.match(resultText(res), re);
    }
  });

  it('the audio tools are refused on a machine without sound, naming what is missing', async () => {
    const made = await host.client.callTool({
      name: 'session_create', arguments: { machine: 'bare6502', name: 'quiet', select: false }
    });
    assert.equal(made.isError, false, resultText(made));
    for (const name of ['audio_capture', 'audio_analyze']) {
      const res = await host.client.callTool({ name, arguments: { session: 'quiet', frames: 1 } });
      assert.equal(res.isError, true);
      assert.match(resultText(res), new RegExp(`${name} is not available on session "quiet".*bare6502.*sound output \\(mh\\.audio/1\\)`));
    }
    const gone = await host.client.callTool({ name: 'session_destroy', arguments: { session: 'quiet' } });
    assert.equal(gone.isError, false, resultText(gone));
  });
});
