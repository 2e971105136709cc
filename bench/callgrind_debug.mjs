// bench/callgrind_debug.mjs - what the debugger's hooks cost in the real
// mcphost binary, in instructions per emulated cycle (issue #21; prints
// numbers, asserts nothing). Runs `mcphost --machine c64 --transport stdio`
// under valgrind's callgrind, lets the C64 reach READY (3 million cycles,
// not counted), then for each case zeroes callgrind's counters
// (callgrind_control -z), runs a fixed number of cycles with
// execution_run_until and dumps (callgrind_control -d): the dump's total
// over the cycles run. Cases: nothing set (history, write log and the
// snapshot ring on, as by default), a read watchpoint, a write watchpoint
// (on addresses the idle machine never touches), nothing set again. The
// ring takes a snapshot about every 200000 cycles, so figures move by a
// few instructions per cycle with how many fell into a run.
// Run from the source tree (valgrind and callgrind_control on PATH):
//   node bench/callgrind_debug.mjs [build/bin/mcphost] [cycles]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const binary = process.argv[2] ?? 'build/bin/mcphost';
const cycles = Number(process.argv[3] ?? 1000000);
const out = mkdtempSync(join(tmpdir(), 'mh-callgrind-'));
const child = spawn('valgrind', ['--tool=callgrind', '--dump-instr=no',
  `--callgrind-out-file=${out}/cg.%p`, binary, '--log-level', 'error', '--machine', 'c64',
  '--transport', 'stdio', '--no-confirm'], { stdio: ['pipe', 'pipe', 'ignore'] });
const waiting = new Map();
createInterface({ input: child.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message);
});
let nextId = 0;
const rpc = (method, params) => new Promise((resolve) => {
  const id = ++nextId;
  waiting.set(id, resolve);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
});
const tool = async (name, args = {}) => {
  const answer = await rpc('tools/call', { name, arguments: args });
  if (answer.error || answer.result.isError) throw new Error(`${name}: ${JSON.stringify(answer)}`);
  return answer.result.structuredContent ?? {};
};
const control = (flag) => execFileSync('callgrind_control', [flag, String(child.pid)],
  { stdio: 'ignore' });
const newestDump = () => readdirSync(out).filter((f) => f.startsWith(`cg.${child.pid}.`))
  .map((f) => join(out, f)).sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs).pop();

async function measure(label) {
  const before = (await tool('execution_get_state')).cycles;
  control('-z');
  await tool('execution_run_until', { cycles, warp: true });
  control('-d');
  const total = Number(readFileSync(newestDump(), 'utf8').match(/^summary:\s*(\d+)/m)[1]);
  const ran = (await tool('execution_get_state')).cycles - before;
  console.log(`  ${label.padEnd(28)} ${(total / ran).toFixed(1).padStart(7)} instructions/cycle` +
    `  (${total} over ${ran} cycles)`);
}

try {
  await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {},
    clientInfo: { name: 'callgrind_debug', version: '1' } });
  await tool('execution_run_until', { cycles: 3000000, warp: true });
  console.log(`callgrind_debug: ${binary}, C64 at READY, ${cycles} cycles a case`);
  await measure('nothing set');
  await tool('breakpoints_memory_watch', { address: '$C300', on: 'read' });
  await measure('a read watchpoint');
  await tool('breakpoints_delete', { all: true });
  await tool('breakpoints_memory_watch', { address: '$C200', on: 'write' });
  await measure('a write watchpoint');
  await tool('breakpoints_delete', { all: true });
  await measure('nothing set again');
} finally {
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  rmSync(out, { recursive: true, force: true });
}
