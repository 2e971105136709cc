#!/usr/bin/env node
// pack.mjs - builds mcphost's MCP bundle (.mcpb, the zip that Claude Desktop
// and other MCPB hosts install): the binary and its plugins under server/,
// and a manifest.json whose tool list is what that very binary answers to
// tools/list, so the two cannot drift apart.
//
//   node packaging/mcpb/pack.mjs --bin build/bin/mcphost
//        --plugins build/lib/mcphost/plugins --version 0.1.0 --out FILE.mcpb
//
// Packing and validating go through the official CLI (@anthropic-ai/mcpb,
// installed by `npm ci --prefix tests/e2e`). The bundle runs on Linux with
// the runtime libraries of the Debian package (libcjson, libmicrohttpd,
// SDL2) installed.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const mcpbCli = resolve(here, '../../tests/e2e/node_modules/.bin/mcpb');

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!['bin', 'plugins', 'version', 'out', 'docs', 'docs-from-bin'].includes(name) || i + 1 >= argv.length)
      throw new Error(`usage: pack.mjs --bin FILE --plugins DIR --version V --out FILE.mcpb (bad "${argv[i]}")`);
    args[name] = argv[i + 1];
  }
  for (const need of ['bin', 'plugins', 'version', 'out'])
    if (!args[need]) throw new Error(`pack.mjs: --${need} is missing`);
  return args;
}

// Asks the binary for its tools over stdio: initialize, then tools/list
// (following nextCursor), with no machine running.
function listTools(bin) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, ['--transport', 'stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const tools = [];
    let buffer = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('tools/list timed out')); }, 20000);
    const send = (message) => child.stdin.write(JSON.stringify(message) + '\n');
    const listPage = (cursor) => send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: cursor ? { cursor } : {} });
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const message = JSON.parse(line);
        if (message.error) { reject(new Error(`${bin}: ${message.error.message}`)); child.kill(); return; }
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          listPage();
        } else if (message.id === 2) {
          tools.push(...message.result.tools);
          if (message.result.nextCursor) listPage(message.result.nextCursor);
          else { clearTimeout(timer); child.stdin.end(); resolvePromise(tools); }
        }
      }
    });
    child.on('error', reject);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize',
           params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcpb-pack', version: '1' } } });
  });
}

// The manifest lists each tool with the first sentence of its description.
function shortDescription(text) {
  const first = (text || '').split(/(?<=\.)\s/)[0];
  return first.length > 200 ? first.slice(0, 197) + '...' : first;
}

function manifest(version, tools) {
  return {
    manifest_version: '0.3',
    name: 'mcphost',
    display_name: 'mcphost: Commodore 64, VIC-20 and Plus/4 debugger',
    version,
    description: 'Debug 6502 programs on emulated Commodore machines: breakpoints, stepping, memory, chips, screen and sound.',
    long_description:
      'mcphost runs cycle-exact emulated Commodore machines (C64, VIC-20, Plus/4) as MCP sessions: ' +
      'load a program or disk, set breakpoints and watchpoints, step, read and write memory and chip ' +
      'registers, capture the screen and the sound. No Commodore ROM is shipped: the C64 boots the free ' +
      'Open ROMs (Debian package open-roms); give the original ROMs with the rom_dir setting. Linux only; ' +
      'needs the runtime libraries libcjson, libmicrohttpd and SDL2.',
    author: { name: 'mcphost developers' },
    server: {
      type: 'binary',
      entry_point: 'server/bin/mcphost',
      mcp_config: {
        command: '${__dirname}/server/bin/mcphost',
        args: ['--transport', 'stdio', '--machine', '${user_config.machine}',
               '--allow-dir', '${user_config.work_dir}'],
      },
    },
    user_config: {
      machine: {
        type: 'string', title: 'Machine', required: false, default: 'c64',
        description: 'The machine started with the server: c64, vic20 or plus4 (more sessions can be created).',
      },
      work_dir: {
        type: 'directory', title: 'Working directory', required: true,
        description: 'The only directory whose files the agent may read and write (programs, disks, snapshots).',
      },
    },
    tools: tools.map((t) => ({ name: t.name, description: shortDescription(t.description) })),
    compatibility: { platforms: ['linux'] },
  };
}

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${basename(command)} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const stage = mkdtempSync(join(tmpdir(), 'mcphost-mcpb-'));
  try {
    // The binary looks for its plugins in ../lib/mcphost/plugins.
    const bin = join(stage, 'server/bin/mcphost');
    const plugins = join(stage, 'server/lib/mcphost/plugins');
    mkdirSync(dirname(bin), { recursive: true });
    mkdirSync(plugins, { recursive: true });
    copyFileSync(args.bin, bin);
    chmodSync(bin, 0o755);
    for (const name of readdirSync(args.plugins).filter((n) => n.endsWith('.so')))
      copyFileSync(join(args.plugins, name), join(plugins, name));
    // The docs, where the binary looks for them (its resources mcphost://docs/...):
    // --docs-from-bin is the installed path relative to bin/.
    if (args.docs) {
      const docs = join(dirname(bin), args['docs-from-bin'] ?? '../share/doc/mcphost/docs');
      mkdirSync(docs, { recursive: true });
      for (const name of readdirSync(args.docs).filter((n) => n.endsWith('.md')))
        copyFileSync(join(args.docs, name), join(docs, name));
    }
    const tools = await listTools(bin);
    writeFileSync(join(stage, 'manifest.json'), JSON.stringify(manifest(args.version, tools), null, 2) + '\n');
    run(mcpbCli, ['validate', join(stage, 'manifest.json')]);
    rmSync(args.out, { force: true });
    run(mcpbCli, ['pack', stage, resolve(args.out)]);
    console.log(`pack.mjs: ${args.out}: ${tools.length} tools, ${readdirSync(plugins).length} plugins`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e.message); process.exit(1); });
