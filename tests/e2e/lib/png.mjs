// The PNG a screen_capture answers with, decoded for the tests' checks of
// its size and colours: 8-bit indexed, non-interlaced, filter 0 rows only
// (what the host writes); anything else fails an assertion.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

/** Decodes an 8-bit indexed, non-interlaced PNG: { width, height, palette: [rgb...], pixels }. */
export function decodeIndexedPng(bytes) {
  assert.ok(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature');
  let pos = 8;
  let width = 0, height = 0;
  const palette = [], idat = [];
  while (pos < bytes.length) {
    const len = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const data = bytes.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth 8');
      assert.equal(data[9], 3, 'colour type 3 (indexed)');
      assert.equal(data[12], 0, 'not interlaced');
    } else if (type === 'PLTE') {
      for (let i = 0; i < len; i += 3) palette.push((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, height * (width + 1), 'inflated size is the rows plus filter bytes');
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (width + 1)], 0, `row ${y} uses filter 0`);
    raw.copy(pixels, y * width, y * (width + 1) + 1, (y + 1) * (width + 1));
  }
  return { width, height, palette, pixels };
}
