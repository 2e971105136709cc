// End-to-end: how mcphost writes files and which directories a client may
// name, through the real binary over stdio with the official MCP client
// (issue #20). Every write goes through the SDK's file writer
// (mcphost/file_write.h):
//   - snapshot_save is not redirected by a symbolic link, nor blocked by a
//     FIFO, planted at the temporary name older versions used
//     (<path>.tmp<pid>);
//   - snapshot_save, audio_capture's path and bare6502's output refuse
//     to replace an existing file unless overwrite: true, naming the file;
//   - a snapshot is fsynced before an exclusive rename (renameat2
//     RENAME_NOREPLACE) and its directory synced after (seen with strace);
//   - the C64's rom_dir from a client must lie in the allowed directories,
//     and the refusal does not tell whether an outside directory exists;
//     --rom-dir on the command line may name any directory.
// Needs /usr/share/open-roms/C64 and strace (.ci/install-deps).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync,
  rmSync, symlinkSync, writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectHost, resultText } from './lib/client.mjs';
import { MCPHOST_BIN, hostArgs, within } from './lib/env.mjs';

const ROMS = '/usr/share/open-roms/C64';

describe('file writing and rom_dir over stdio', () => {
  let host, base, dir, outside;
  const call = (name, args = {}) => within(30000, name, host.client.callTool({ name, arguments: args }));
  const ok = async (name, args = {}) => {
    const result = await call(name, args);
    assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${resultText(result)}`);
    return result;
  };
  const refused = async (name, args, ...needles) => {
    const result = await call(name, args);
    assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) must fail`);
    const text = resultText(result);
    for (const needle of needles) assert.ok(text.includes(needle), `"${needle}" in: ${text}`);
    return text;
  };

  before(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mh-files-')));
    dir = join(base, 'allowed');
    outside = join(base, 'outside');
    mkdirSync(dir);
    mkdirSync(outside);
    host = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir, '--warp'] });
  });
  after(async () => {
    await host?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('snapshot_save writes nothing through a link planted at <path>.tmp<pid>', async () => {
    const pid = host.transport.pid;
    assert.ok(pid > 0, 'the host process id');
    const victim = join(outside, 'victim');
    symlinkSync(victim, join(dir, `planted.mhsnap.tmp${pid}`));
    const saved = await ok('snapshot_save', { path: 'planted.mhsnap' });
    assert.ok(!existsSync(victim), 'nothing was written outside the allowed directory');
    const target = lstatSync(join(dir, 'planted.mhsnap'));
    assert.ok(target.isFile(), 'the snapshot is a regular file, not a link out');
    assert.equal(target.size, saved.structuredContent.size);
    assert.ok(lstatSync(join(dir, `planted.mhsnap.tmp${pid}`)).isSymbolicLink(), 'the planted link is left alone');
    assert.deepEqual(readdirSync(outside), []);
  });

  it('snapshot_save is not blocked by a FIFO planted at <path>.tmp<pid>', async () => {
    const fifo = join(dir, `fifo.mhsnap.tmp${host.transport.pid}`);
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    await ok('snapshot_save', { path: 'fifo.mhsnap' });
    assert.ok(lstatSync(join(dir, 'fifo.mhsnap')).isFile());
    // The session still answers (its thread was not stuck in open()).
    await ok('memory_read', { address: '$0400', length: 4 });
  });

  it('snapshot_save refuses an existing file, a FIFO or a directory unless told, naming it', async () => {
    const precious = join(dir, 'precious.mhsnap');
    writeFileSync(precious, 'keep me');
    await refused('snapshot_save', { path: 'precious.mhsnap' }, precious, 'overwrite: true');
    assert.equal(readFileSync(precious, 'utf8'), 'keep me');
    // Replacing a file is confirmed first (docs/tools.md, "Confirmation").
    const asked = await call('snapshot_save', { path: 'precious.mhsnap', overwrite: true });
    assert.equal(asked.isError, true);
    const token = resultText(asked).match(/requires_confirmation: .*"confirm": "([0-9a-f]{32})"/s)?.[1];
    assert.ok(token, resultText(asked));
    assert.equal(readFileSync(precious, 'utf8'), 'keep me');
    await ok('snapshot_save', { path: 'precious.mhsnap', overwrite: true, confirm: token });
    assert.equal(readFileSync(precious).subarray(0, 6).toString(), 'MHSNAP');
    mkdirSync(join(dir, 'adir'));
    await refused('snapshot_save', { path: 'adir', overwrite: true }, 'directory');
  });

  it('audio_capture refuses to replace a file unless overwrite: true', async () => {
    const precious = join(dir, 'precious.prg');
    writeFileSync(precious, 'program');
    const text = await refused('audio_capture', { frames: 2, path: 'precious.prg' }, precious, 'overwrite: true');
    assert.ok(!/written to/.test(text));
    assert.equal(readFileSync(precious, 'utf8'), 'program', 'the file is untouched');
    const asked = await call('audio_capture', { frames: 2, path: 'precious.prg', overwrite: true });
    const token = resultText(asked).match(/requires_confirmation: .*"confirm": "([0-9a-f]{32})"/s)?.[1];
    assert.ok(token, resultText(asked));
    assert.equal(readFileSync(precious, 'utf8'), 'program', 'untouched until confirmed');
    const res = await ok('audio_capture', { frames: 2, path: 'precious.prg', overwrite: true, confirm: token });
    assert.equal(res.structuredContent.path, precious);
    assert.equal(readFileSync(precious).subarray(0, 4).toString(), 'RIFF');
    // A FIFO is refused at once, with or without overwrite.
    assert.equal(spawnSync('mkfifo', [join(dir, 'pipe.wav')]).status, 0, 'mkfifo');
    await refused('audio_capture', { frames: 2, path: 'pipe.wav', overwrite: true }, 'pipe.wav');
  });

  it('bare6502 output does not truncate an existing file unless overwrite: true', async () => {
    const precious = join(dir, 'precious.d64');
    writeFileSync(precious, 'disk image');
    await refused('session_create', { machine: 'bare6502', name: 'b1', select: false, options: { output: 'precious.d64' } },
      precious, 'overwrite: true');
    assert.equal(readFileSync(precious, 'utf8'), 'disk image', 'not truncated');
    // A FIFO as output is refused without blocking the new session's thread.
    assert.equal(spawnSync('mkfifo', [join(dir, 'out.fifo')]).status, 0, 'mkfifo');
    await refused('session_create', { machine: 'bare6502', name: 'b2', select: false, options: { output: 'out.fifo', overwrite: true } },
      'out.fifo');
    await ok('session_create', { machine: 'bare6502', name: 'b3', select: false, options: { output: 'precious.d64', overwrite: true } });
    assert.equal(readFileSync(precious, 'utf8'), '', 'replaced on request');
    await ok('session_destroy', { session: 'b3' });
  });

  it('a client rom_dir must be inside the allowed directories and the refusal tells nothing about outside', async () => {
    const existing = await refused('session_create', { machine: 'c64', name: 'r1', select: false, options: { rom_dir: ROMS } },
      'rom_dir', 'outside', '--allow-dir');
    const missing = await refused('session_create', { machine: 'c64', name: 'r2', select: false, options: { rom_dir: '/nonexistent-mh/C64' } },
      'rom_dir', 'outside', '--allow-dir');
    assert.equal(existing.replace(ROMS, 'X'), missing.replace('/nonexistent-mh/C64', 'X'),
      'the same answer for an outside directory that exists and one that does not');
    const roms = join(dir, 'roms');
    mkdirSync(roms);
    for (const name of ['kernal', 'basic', 'chargen']) copyFileSync(join(ROMS, name), join(roms, name));
    await ok('session_create', { machine: 'c64', name: 'r3', select: false, options: { rom_dir: 'roms' } });
    await ok('session_destroy', { session: 'r3' });
  });

  it('--rom-dir on the command line may name any directory', async () => {
    const other = await connectHost({ args: ['--machine', 'c64', '--allow-dir', dir, '--rom-dir', ROMS] });
    try {
      const info = await other.client.callTool({ name: 'session_list', arguments: {} });
      assert.ok(!info.isError, resultText(info));
    } finally {
      await other.close();
    }
  });
});

describe('snapshot durability (strace)', () => {
  it('fsyncs the snapshot, renames it exclusively, then syncs the directory', async () => {
    assert.equal(spawnSync('strace', ['-V']).status, 0, 'strace is needed for this test: run .ci/install-deps');
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'mh-durable-')));
    const log = join(base, 'trace.log');
    const transport = new StdioClientTransport({
      command: 'strace',
      args: ['-f', '-qq', '-o', log, '-e', 'trace=openat,fsync,fdatasync,rename,renameat,renameat2,linkat,newfstatat,stat',
        MCPHOST_BIN, ...hostArgs('--machine', 'c64', '--allow-dir', base)],
      stderr: 'pipe'
    });
    const client = new Client({ name: 'mcphost-e2e', version: '1.0.0' }, { capabilities: {} });
    try {
      await client.connect(transport);
      const res = await within(60000, 'snapshot_save', client.callTool({ name: 'snapshot_save', arguments: { path: 'durable.mhsnap' } }));
      assert.ok(!res.isError, resultText(res));
    } finally {
      await client.close();
    }
    const lines = readFileSync(log, 'utf8').split('\n');
    const at = (re) => lines.findIndex((l) => re.test(l));
    const create = lines.find((l) => /openat\(.*\.durable\.mhsnap\.[a-z0-9]+\.tmp".*O_EXCL.*=\s*\d+$/.test(l));
    assert.ok(create, `an exclusive, unpredictable temporary file:\n${lines.filter((l) => l.includes('durable')).join('\n')}`);
    assert.match(create, /O_NOFOLLOW/);
    const fd = create.match(/=\s*(\d+)$/)[1];
    const rename = at(/renameat2\(.*durable\.mhsnap".*RENAME_NOREPLACE\)\s*= 0/);
    assert.ok(rename > 0, 'renamed with RENAME_NOREPLACE');
    const fsyncFile = lines.findIndex((l, i) => i > lines.indexOf(create) && new RegExp(`fsync\\(${fd}\\)\\s*= 0`).test(l));
    assert.ok(fsyncFile > 0 && fsyncFile < rename, 'the file is fsynced before the rename');
    assert.ok(lines.slice(rename + 1).some((l) => /fsync\(\d+\)\s*= 0/.test(l)), 'the directory is synced after the rename');
    assert.ok(readFileSync(join(base, 'durable.mhsnap')).subarray(0, 6).toString() === 'MHSNAP');
    rmSync(base, { recursive: true, force: true });
  });
});
