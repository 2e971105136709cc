import { connectHost, resultText, toolCallers } from '/work/wt-travel/tests/e2e/lib/client.mjs';
const M = process.argv[2];
const args = M === 'c64' ? ['--machine','c64'] : ['--machine', M, '--rom-dir', '/work/shared/roms/' + (M==='vic20'?'VIC20':'PLUS4')];
const host = await connectHost({ args: [...args, '--no-confirm'] });
const { ok, call } = toolCallers(() => host);
const hz = {c64: 985248, vic20: 1108405, plus4: 1773447}[M];
await ok('execution_run_until', { cycles: 3 * hz, warp: true, timeout_ms: 60000 });
await ok('keyboard_type', { text: '10 POKE 53280,X AND 15:X=X+1:PRINT X;:GOTO 10\nRUN\n' });
for (const secs of [10, 30, 65]) {
  await ok('execution_run_until', { cycles: (secs === 10 ? 10 : secs === 30 ? 20 : 35) * hz, warp: true, timeout_ms: 120000 });
  const now = (await ok('execution_get_state')).structuredContent.cycles;
  const r = await call('execution_step_back');
  const s = r.structuredContent;
  console.log(M, 'after', secs, 's: ring', s?.ring_bytes, 'bytes in', s?.ring_snapshots, 'snapshots, reaches back', ((now - s?.oldest_cycle) / hz).toFixed(1), 's; step back', s?.elapsed_ms, 'ms replayed', s?.replayed_cycles);
  const f = await call('execution_rewind', { frames: 50 * 59 });
  console.log('   rewind 59 s:', f.isError ? resultText(f) : `${f.structuredContent.elapsed_ms} ms, replayed ${f.structuredContent.replayed_cycles}`);
  await ok('execution_run_until', { cycles: 59 * hz, warp: true, timeout_ms: 120000 });
}
const mem = await import('node:fs');
console.log(host.stderr().split("\n").filter(l=>l.includes("TT")).join(" | "));
await host.close();
