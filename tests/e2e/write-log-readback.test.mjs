// End-to-end: the write log's old value is what the address read before
// the write (issue 21 spares the read-back only where a read reaches RAM):
// on the C64 an I/O register reads otherwise than the byte written ($D020:
// the upper nybble reads 1s), a write under the BASIC ROM goes to RAM
// while the address still reads the ROM, and plain RAM reads back the byte.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';

describe('write log old values on I/O, ROM over RAM and RAM (C64)', () => {
  let host;
  const { ok } = toolCallers(() => host);
  const byteAt = async (address) => {
    const r = await ok('memory_read', { address, length: 1 });
    const hex = JSON.stringify(r.structuredContent).match(/"([0-9A-Fa-f]{2})"/);
    assert.ok(hex, resultText(r));
    return parseInt(hex[1], 16);
  };
  const writes = async (address) =>
    (await ok('memory_history', { address, order: 'oldest', count: 2 })).structuredContent.writes;

  before(async () => {
    host = await connectHost({ args: ['--machine', 'c64', '--transport', 'stdio'] });
    await ok('execution_run_until', { frames: 150, warp: true, timeout_ms: 20000 });
    await ok('execution_pause');
  });
  after(async () => {
    await host?.close();
  });

  it('old values are what each address read before each write', async () => {
    await ok('assemble', {
      address: '$C000',
      source: [
        'lda #$02', 'sta $d020', 'lda #$05', 'sta $d020', // I/O
        'lda #$11', 'sta $a000', 'lda #$22', 'sta $a000', // RAM under the BASIC ROM
        'lda #$33', 'sta $c100', 'lda #$44', 'sta $c100', // RAM
        'loop: jmp loop',
      ].join('\n'),
    });
    await ok('memory_write', { address: '$C100', bytes: '00' });
    const rom = await byteAt('$A000');
    assert.notEqual(rom, 0x11);
    await ok('registers_set', { pc: '$C000' });
    await ok('execution_run_until', { address: '$C01E', timeout_ms: 20000 });

    const border = await writes('$D020');
    assert.equal(border.length, 2, JSON.stringify(border));
    assert.deepEqual(border.map((w) => w.new), [0x02, 0x05]);
    const upper = (await byteAt('$D020')) & 0xf0; // what the unused bits read
    assert.equal(border[1].old, upper | 0x02, `the read-back of the first write: ${JSON.stringify(border)}`);

    const under = await writes('$A000');
    assert.deepEqual(under.map((w) => [w.old, w.new]), [[rom, 0x11], [rom, 0x22]],
      'the address still reads the ROM after a write to the RAM below it');
    assert.equal(await byteAt('$A000'), rom);

    const ram = await writes('$C100');
    assert.deepEqual(ram.map((w) => [w.old, w.new]), [[0x00, 0x33], [0x33, 0x44]]);
  });
});
