// End-to-end: the MCP bundle a user installs. packaging/mcpb/pack.mjs packs
// the built binary and plugins; the official CLI (@anthropic-ai/mcpb)
// validates and unpacks it; the bundle's own manifest command then starts
// the server, and the MCP SDK client checks that the tools it lists are the
// manifest's and that a machine runs.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCPHOST_BIN, HANG_MS, within } from './lib/env.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const packScript = resolve(here, '../../packaging/mcpb/pack.mjs');
const mcpbCli = resolve(here, 'node_modules/.bin/mcpb');
const pluginDir = resolve(dirname(MCPHOST_BIN), '../lib/mcphost/plugins');
const docsDir = resolve(dirname(packScript), '../../docs');

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('the .mcpb bundle', () => {
  let work;
  let bundle;
  let unpacked;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'mcphost-mcpb-test-'));
    bundle = join(work, 'mcphost-test.mcpb');
    unpacked = join(work, 'unpacked');
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs, and the official CLI reads it back', () => {
    run(process.execPath, [packScript, '--bin', MCPHOST_BIN, '--plugins', pluginDir, '--docs', docsDir,
      '--version', '0.1.0', '--out', bundle]);
    assert.ok(statSync(bundle).size > 100000, 'the bundle holds the binary and plugins');
    const info = run(mcpbCli, ['info', bundle]);
    assert.match(info, /mcphost/);
    run(mcpbCli, ['unpack', bundle, unpacked]);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    assert.equal(manifest.server.type, 'binary');
    assert.ok(existsSync(join(unpacked, manifest.server.entry_point)), 'the entry point is in the bundle');
    assert.ok(existsSync(join(unpacked, 'server/lib/mcphost/plugins/machine-c64.so')), 'the plugins are in the bundle');
    assert.ok(existsSync(join(unpacked, 'server/share/doc/mcphost/docs/resources.md')), 'the docs are in the bundle');
    run(mcpbCli, ['validate', join(unpacked, 'manifest.json')]);
  });

  it('starts from its manifest and serves exactly the tools the manifest lists', async () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    // What an MCPB host does: fill ${__dirname} and the user's settings in.
    const fill = (s) => s.replaceAll('${__dirname}', unpacked)
      .replaceAll('${user_config.machine}', 'c64')
      .replaceAll('${user_config.work_dir}', work);
    const { command, args } = manifest.server.mcp_config;
    const client = new Client({ name: 'mcpb-e2e', version: '1.0.0' });
    await within(HANG_MS, 'the bundled server to initialize',
      client.connect(new StdioClientTransport({ command: fill(command), args: args.map(fill), stderr: 'ignore' })));
    try {
      const listed = [];
      let cursor;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        listed.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
      // The manifest lists every tool the bundle has (packed with no machine
      // running); tools/list shows those the live C64 session can run
      // (docs/tools.md): the rest are exactly the ones host_info calls
      // unavailable there (the VIA, VIC and TED tools).
      const inManifest = manifest.tools.map((t) => t.name);
      for (const name of listed) assert.ok(inManifest.includes(name), `${name} is in the manifest`);
      const info = await client.callTool({ name: 'host_info', arguments: {} });
      const unavailable = info.structuredContent.tools.filter((t) => !t.available).map((t) => t.name);
      assert.deepEqual(inManifest.filter((n) => !listed.includes(n)).sort(), [...unavailable].sort(),
        'what the C64 does not list is what it cannot run');
      assert.ok(listed.includes('breakpoints_set') && listed.includes('screen_capture'));
      const sessions = await client.callTool({ name: 'session_list', arguments: {} });
      assert.notEqual(sessions.isError, true, JSON.stringify(sessions));
      assert.match(JSON.stringify(sessions.structuredContent ?? sessions.content), /c64/);
    } finally {
      await client.close();
    }
  });
});
