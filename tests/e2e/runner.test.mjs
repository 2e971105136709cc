// End-to-end: mcphost's command line and its headless runner mode
// (--transport none), with the fixture machine (options exit_after, exit_code).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { HANG_MS, MCPHOST_BIN, hostArgs, within } from './lib/env.mjs';

/**
 * Runs mcphost to completion. stdin stays open (like a terminal) unless
 * closeStdin; resolves with { code, signal, stdout, stderr, ms }.
 */
function run(args, { timeout = HANG_MS, closeStdin = true, onSpawn } = {}) {
  const t0 = Date.now();
  const child = spawn(MCPHOST_BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.on('error', () => {});
  if (closeStdin) child.stdin.end();
  onSpawn?.(child);
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 }));
  });
  return within(timeout, `mcphost ${args.join(' ')} to exit`, done).finally(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

const fixtureRun = (...extra) => hostArgs('--machine', 'fixture', '--transport', 'none', ...extra);

describe('runner mode (--transport none)', () => {
  it('the machine ends the run: exit_code=7 after 1000 cycles exits 7', async () => {
    const r = await run(fixtureRun('--config', 'exit_after=1000', '--config', 'exit_code=7'));
    assert.equal(r.code, 7, `stderr: ${r.stderr}`);
    assert.equal(r.stdout, '', 'nothing on stdout');
  });

  it('exit_code=0 exits 0 (the machine code, not a default)', async () => {
    const r = await run(fixtureRun('--config', 'exit_after=1000', '--config', 'exit_code=0'));
    assert.equal(r.code, 0, `stderr: ${r.stderr}`);
  });

  it('--limit-cycles 500 before exit_after=100000 exits 1 and says so', async () => {
    const r = await run(fixtureRun('--config', 'exit_after=100000', '--config', 'exit_code=7', '--limit-cycles', '500'));
    assert.equal(r.code, 1, `stderr: ${r.stderr}`);
    assert.match(r.stderr, /500/, 'the log mentions the limit');
  });

  it('without --transport, a run option (--limit-cycles) means a headless run, not stdio', async () => {
    // stdin is at its end, as under a script or CI: a stdio server would
    // end there at once with 0 instead of running the machine.
    const r = await run(hostArgs('--machine', 'fixture', '--config', 'exit_after=1000', '--config', 'exit_code=7',
                                 '--limit-cycles', '100000'));
    assert.equal(r.code, 7, `stderr: ${r.stderr}`);
    assert.equal(r.stdout, '', 'no MCP on stdout');
  });

  it('a command-line directory given as an absolute path through ".." is taken as named', async () => {
    // The command line may name any file; only clients are confined. An
    // absolute "/a/../b" once was refused as a way outside the allowed dirs.
    const roms = '/usr/share/open-roms/C64/../C64';
    const r = await run(hostArgs('--machine', 'c64', '--transport', 'none', '--rom-dir', roms,
                                 '--limit-cycles', '1000', '--log-level', 'warning'));
    assert.equal(r.code, 1, `the run reached the cycle limit; stderr: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /refused/);
  });

  it('the machine exit before --limit-cycles wins', async () => {
    const r = await run(fixtureRun('--config', 'exit_after=1000', '--config', 'exit_code=9', '--limit-cycles', '100000'));
    assert.equal(r.code, 9, `stderr: ${r.stderr}`);
  });

  it('runs in real time by default and as fast as possible with --warp', async () => {
    // The fixture machine has a 1 MHz clock: 300000 cycles are 0.3 s of real
    // time. Paced, the run cannot end sooner (a lower bound: a loaded
    // machine only makes it longer).
    const paced = await run(fixtureRun('--config', 'exit_after=300000', '--config', 'exit_code=4'));
    assert.equal(paced.code, 4);
    assert.ok(paced.ms >= 200, `300000 cycles at 1 MHz took only ${paced.ms} ms without --warp`);
    // 60 s of machine time: paced, it would outlast the hang bound (20 s).
    const warp = await run(fixtureRun('--config', 'exit_after=60000000', '--config', 'exit_code=4', '--warp'));
    assert.equal(warp.code, 4);
  });

  it('SIGTERM ends a running machine with 128+15', async () => {
    // 100 s of machine time: only the signal ends it within the hang bound.
    const r = await run(fixtureRun('--config', 'exit_after=100000000'), {
      onSpawn: (child) => setTimeout(() => child.kill('SIGTERM'), 200)
    });
    assert.equal(r.signal, null, 'exited by itself, not killed');
    assert.equal(r.code, 143, `stderr: ${r.stderr}`);
  });

  it('--transport none without --machine exits 2 with a message', async () => {
    const r = await run(hostArgs('--transport', 'none'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--machine/, `stderr: ${r.stderr}`);
    assert.equal(r.stdout, '');
  });

  it('an unknown machine exits 2 naming it and the loaded machines', async () => {
    const r = await run(hostArgs('--machine', 'c65', '--transport', 'none'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /c65/);
    assert.match(r.stderr, /fixture/);
  });

  it('a machine that refuses its options exits 2 with its reason', async () => {
    const r = await run(fixtureRun('--config', 'fail=no-way'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no-way/);
  });
});

describe('command line', () => {
  it('an unknown option exits 2 naming it', async () => {
    const r = await run(hostArgs('--frobnicate'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--frobnicate/);
    assert.equal(r.stdout, '');
  });

  it('bad option values exit 2 naming the option', async () => {
    for (const [args, option] of [
      [['--limit-cycles', 'lots'], '--limit-cycles'],
      [['--port', '70000'], '--port'],
      [['--log-level', 'shouty'], '--log-level'],
      [['--machine'], '--machine'],
      [['--machine', 'fixture', '--transport', 'none', '--config', 'novalue'], '--config']
    ]) {
      const r = await run(hostArgs(...args));
      assert.equal(r.code, 2, `${args.join(' ')} exit code`);
      assert.ok(r.stderr.includes(option), `${args.join(' ')}: stderr names ${option}: ${r.stderr}`);
    }
  });

  it('an unknown transport exits 2 naming the loaded ones', async () => {
    const r = await run(hostArgs('--transport', 'carrier-pigeon'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /carrier-pigeon/);
    assert.match(r.stderr, /stdio/);
  });

  it('--version prints the version on stdout and exits 0', async () => {
    const r = await run(['--version']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^mcphost \d+\.\d+\.\d+/);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /usage: mcphost/);
    for (const option of ['--machine', '--transport', '--plugin-dir', '--config', '--limit-cycles', '--warp', '--list-plugins'])
      assert.ok(r.stdout.includes(option), `--help mentions ${option}`);
  });

  it('--list-plugins lists the fixture plugins with ids and exits 0', async () => {
    const r = await run(hostArgs('--list-plugins'));
    assert.equal(r.code, 0, `stderr: ${r.stderr}`);
    for (const id of ['org.mcphost.test.fixture-machine', 'org.mcphost.test.fixture-toolset', 'org.mcphost.transport-stdio', 'org.mcphost.core'])
      assert.ok(r.stdout.includes(id), `lists ${id}:\n${r.stdout}`);
    const machineLine = r.stdout.split('\n').find((l) => l.includes('org.mcphost.test.fixture-machine'));
    assert.match(machineLine, /\bmachine\b/, 'with its kind');
    assert.match(machineLine, /\b1\.0\.0\b/, 'with its version');
    assert.match(r.stdout, /machines:.*\bfixture\b/);
    assert.match(r.stdout, /transports:.*\bstdio\b/);
  });

  it('without --plugin-dir the fixtures are not loaded', async () => {
    const r = await run(['--list-plugins']);
    assert.equal(r.code, 0);
    assert.ok(!r.stdout.includes('org.mcphost.test.fixture-machine'), 'fixtures come only from --plugin-dir');
    assert.match(r.stdout, /org\.mcphost\.transport-stdio/, 'plugins next to the binary are found');
  });
});

describe('stdio transport with --limit-cycles', () => {
  it('the cycle limit ends serving and the process exits 1 with stdin still open', async () => {
    const r = await run(hostArgs('--machine', 'fixture', '--limit-cycles', '500'), { closeStdin: false });
    assert.equal(r.code, 1, `stderr: ${r.stderr}`);
    assert.equal(r.stdout, '', 'no stray output on the MCP stream');
  });
});
