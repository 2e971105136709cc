// A small, independent D64 (1541 disk image) builder and reader for the
// end-to-end tests: a blank formatted 35-track disk, optionally with files
// or with every block used, and a directory reader that follows the
// directory and file chains with a loop guard. Written from the documented
// format, not with mcphost's library, so the tests check the binary's
// output against a second implementation.

const SECTORS = (t) => (t <= 17 ? 21 : t <= 24 ? 19 : t <= 30 ? 18 : 17);
const SIZE_35 = 174848;

/** Byte offset of track/sector in a 35-track image. */
export function offset(t, s) {
  let n = 0;
  for (let i = 1; i < t; i++) n += SECTORS(i);
  return (n + s) * 256;
}

/** A blank disk: every sector free but the BAM (18/0) and the first
 * directory sector (18/1). full: every data sector used too (0 BLOCKS FREE). */
export function blankD64(name = 'SAVES', id = 'MH', { full = false } = {}) {
  const img = Buffer.alloc(SIZE_35);
  const bam = offset(18, 0);
  img[bam] = 18; img[bam + 1] = 1; img[bam + 2] = 0x41;
  for (let t = 1; t <= 35; t++) {
    const used = t === 18 ? [0, 1] : [];
    let bits = 0, free = 0;
    if (!(full && t !== 18))
      for (let s = 0; s < SECTORS(t); s++) if (!used.includes(s)) { bits |= 1 << s; free++; }
    const e = bam + 4 * t;
    img[e] = free;
    img[e + 1] = bits & 0xff; img[e + 2] = (bits >> 8) & 0xff; img[e + 3] = (bits >> 16) & 0xff;
  }
  img.fill(0xa0, bam + 0x90, bam + 0xab);
  img.write(name, bam + 0x90, 'latin1');
  img.write(id, bam + 0xa2, 'latin1');
  img.write('2A', bam + 0xa5, 'latin1');
  const dir = offset(18, 1);
  img[dir] = 0; img[dir + 1] = 0xff;
  return img;
}

/** Blocks free on tracks 1-35 but 18, from the BAM's counts. */
export function blocksFree(img) {
  const bam = offset(18, 0);
  let n = 0;
  for (let t = 1; t <= 35; t++) if (t !== 18) n += img[bam + 4 * t];
  return n;
}

/** The directory: [{ name, typeByte, track, sector, blocks }]. */
export function directory(img) {
  const out = [];
  const seen = new Set();
  let t = 18, s = 1;
  while (t !== 0) {
    if (t > 35 || s >= SECTORS(t) || seen.has(`${t}/${s}`)) throw new Error(`bad directory link ${t}/${s}`);
    seen.add(`${t}/${s}`);
    const base = offset(t, s);
    for (let k = 0; k < 8; k++) {
      const e = base + 32 * k;
      if (img[e + 2] === 0) continue;
      let name = '';
      for (let i = 0; i < 16 && img[e + 5 + i] !== 0xa0; i++) name += String.fromCharCode(img[e + 5 + i]);
      out.push({ name, typeByte: img[e + 2], track: img[e + 3], sector: img[e + 4], blocks: img[e + 30] | (img[e + 31] << 8) });
    }
    [t, s] = [img[base], img[base + 1]];
  }
  return out;
}

/** A file's bytes (load address first), or null when no entry has that name. */
export function readFile(img, name) {
  const entry = directory(img).find((e) => e.name === name);
  if (!entry) return null;
  const parts = [];
  const seen = new Set();
  let t = entry.track, s = entry.sector;
  for (;;) {
    if (t < 1 || t > 35 || s >= SECTORS(t) || seen.has(`${t}/${s}`)) throw new Error(`bad chain link ${t}/${s}`);
    seen.add(`${t}/${s}`);
    const base = offset(t, s);
    if (img[base] === 0) {
      parts.push(img.subarray(base + 2, base + img[base + 1] + 1));
      break;
    }
    parts.push(img.subarray(base + 2, base + 256));
    [t, s] = [img[base], img[base + 1]];
  }
  return Buffer.concat(parts);
}

/** Adds a file of at most 254 bytes in track 17 sector 0 (a blank disk). */
export function withFile(img, name, bytes) {
  const bam = offset(18, 0) + 4 * 17;
  img[bam] -= 1; img[bam + 1] &= 0xfe;
  const dir = offset(18, 1);
  img[dir + 2] = 0x82; img[dir + 3] = 17; img[dir + 4] = 0;
  img.fill(0xa0, dir + 5, dir + 21);
  img.write(name, dir + 5, 'latin1');
  img[dir + 30] = 1;
  const data = offset(17, 0);
  img[data] = 0; img[data + 1] = bytes.length + 1;
  bytes.copy(img, data + 2);
  return img;
}
