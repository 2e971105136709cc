// End-to-end: machine profiles through the real binary (issue #19):
// machine_profile_create/apply/list/delete with XDG_CONFIG_HOME in a temp
// directory; the built-in profiles start the machine they name with its
// options; names with path tricks and hostile profile files are refused
// with a message that says why.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectHost, resultText, toolCallers } from './lib/client.mjs';

describe('machine profiles', () => {
  let host, config, dir;
  const { call, ok, refused } = toolCallers(() => host);
  const setting = async (session, name) =>
    (await ok('config_get', { session, name })).structuredContent.value;

  before(async () => {
    config = mkdtempSync(join(tmpdir(), 'mcphost-profiles-'));
    dir = join(config, 'mcphost', 'profiles');
    host = await connectHost({ args: ['--no-confirm'], env: { ...process.env, XDG_CONFIG_HOME: config } });
  });
  after(async () => {
    await host?.close();
    rmSync(config, { recursive: true, force: true });
  });

  it('lists the built-in profiles', async () => {
    const { profiles, directory } = (await ok('machine_profile_list')).structuredContent;
    assert.equal(directory, dir);
    const byName = Object.fromEntries(profiles.map((p) => [p.name, p]));
    for (const [name, machine] of [['c64_pal_6581', 'c64'], ['c64_ntsc_8580', 'c64'], ['vic20_pal_unexpanded', 'vic20'],
      ['vic20_8k', 'vic20'], ['plus4_pal', 'plus4'], ['c16_pal', 'plus4']]) {
      assert.equal(byName[name]?.machine, machine, name);
      assert.equal(byName[name].builtin, true);
    }
  });

  it('built-in profiles start their machine with their options', async () => {
    const checks = [
      ['c64_ntsc_8580', { sid_model: '8580', vicii_model: '8562', cia_model: '6526a' }],
      ['c64_pal_6581', { sid_model: '6581', vicii_model: '6569' }],
      ['vic20_8k', { vic20_memory: '8k' }],
      ['vic20_pal_unexpanded', { vic20_memory: 'none' }],
      ['c16_pal', { model: 'c16' }],
      ['plus4_pal', { model: 'plus4' }]
    ];
    for (const [profile, want] of checks) {
      const applied = (await ok('machine_profile_apply', { name: profile, session_name: `p-${profile}` })).structuredContent;
      assert.equal(applied.session, `p-${profile}`);
      assert.equal(applied.current, true);
      for (const [key, value] of Object.entries(want))
        assert.equal(String(await setting(applied.session, key)).toLowerCase(), value, `${profile}: ${key}`);
      await ok('session_destroy', { session: applied.session });
    }
  });

  it('create, apply, overwrite only when asked, delete: a round trip through the file', async () => {
    const made = await ok('machine_profile_create', {
      name: 'my-ntsc', machine: 'c64', description: 'NTSC with an 8580', options: { video: 'ntsc', sid_model: '8580' }
    });
    assert.equal(made.structuredContent.name, 'my-ntsc');
    const file = join(dir, 'my-ntsc.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(saved, { machine: 'c64', description: 'NTSC with an 8580', options: { video: 'ntsc', sid_model: '8580' } });
    await refused('machine_profile_create', { name: 'my-ntsc', machine: 'c64', options: { video: 'pal' } }, /already exists.*overwrite/);
    await ok('machine_profile_create', { name: 'my-ntsc', machine: 'c64', options: { video: 'ntsc', sid_model: '6581' }, overwrite: true });
    const applied = (await ok('machine_profile_apply', { name: 'my-ntsc', session_name: 'mine' })).structuredContent;
    assert.equal(await setting('mine', 'sid_model'), '6581');
    assert.equal(await setting('mine', 'video'), 'ntsc');
    const listed = (await ok('machine_profile_list')).structuredContent.profiles.find((p) => p.name === 'my-ntsc');
    assert.equal(listed.builtin, false);
    assert.deepEqual(listed.options, { video: 'ntsc', sid_model: '6581' });
    await ok('session_destroy', { session: applied.session });
    await ok('machine_profile_delete', { name: 'my-ntsc' });
    assert.equal(existsSync(file), false);
    await refused('machine_profile_apply', { name: 'my-ntsc' }, /no profile named "my-ntsc"/);
    await refused('machine_profile_delete', { name: 'my-ntsc' }, /no profile named/);
  });

  it('refuses bad names, built-in names, unknown machines and options that are not a machine model', async () => {
    for (const name of ['../evil', 'a/b', '.hidden', '', 'x'.repeat(65), 'sp ace'])
      await refused('machine_profile_create', { name, machine: 'c64', options: {} }, /invalid/);
    await refused('machine_profile_apply', { name: '../../etc/passwd' }, /invalid/);
    await refused('machine_profile_delete', { name: '../x' }, /invalid/);
    await refused('machine_profile_create', { name: 'c64_pal_6581', machine: 'c64', options: {} }, /built-in/);
    await refused('machine_profile_delete', { name: 'c64_pal_6581' }, /built-in/);
    await refused('machine_profile_create', { name: 'z', machine: 'amiga', options: {} }, /unknown machine "amiga"/);
    await refused('machine_profile_create', { name: 'z', machine: 'c64', options: { autostart: 'x.prg' } }, /"autostart" cannot be in a profile/);
    await refused('machine_profile_create', { name: 'z', machine: 'c64', options: { sid_model: { deep: 1 } } }, /string, whole number or boolean/);
    // A value the machine refuses is caught when the profile is applied.
    await ok('machine_profile_create', { name: 'badvalue', machine: 'c64', options: { sid_model: '9999' } });
    await refused('machine_profile_apply', { name: 'badvalue' }, /badvalue.*9999/s);
  });

  it('hostile profile files are refused with a clear message, and listed with it', async () => {
    mkdirSync(dir, { recursive: true });
    const cases = {
      notjson: ['{"machine": "c64", "options": {', /not valid JSON/],
      dupkey: ['{"machine":"c64","machine":"vic20","options":{}}', /not valid JSON.*duplicate/i],
      array: ['[1,2,3]', /not a JSON object/],
      sneaky: ['{"machine":"c64","options":{"autostart":"/etc/passwd"}}', /"autostart" cannot be in a profile/],
      extra: ['{"machine":"c64","options":{},"run":"rm -rf"}', /unknown key "run"/],
      nomachine: ['{"options":{}}', /"machine" must be/],
      pathmachine: ['{"machine":"../c64","options":{}}', /"machine" must be/],
      huge: [JSON.stringify({ machine: 'c64', options: {}, description: 'x'.repeat(70000) }), /at most 65536/],
      nul: ['{"machine":"c64\\u0000","options":{}}', /NUL byte/]
    };
    for (const [name, [text]] of Object.entries(cases)) writeFileSync(join(dir, `${name}.json`), text);
    symlinkSync('/etc/passwd', join(dir, 'link.json'));
    mkdirSync(join(dir, 'adir.json'));
    for (const [name, [, re]] of Object.entries(cases)) {
      const r = await refused('machine_profile_apply', { name }, re);
      assert.match(resultText(r), new RegExp(`profile "${name}" .*refused|profile "${name}" .*bytes`));
    }
    await refused('machine_profile_apply', { name: 'link' }, /symbolic link/);
    await refused('machine_profile_apply', { name: 'adir' }, /not a regular file/);
    const listed = (await ok('machine_profile_list')).structuredContent.profiles;
    for (const name of [...Object.keys(cases), 'link', 'adir'])
      assert.ok(listed.find((p) => p.name === name)?.error, `${name} is listed with its error`);
    assert.ok(listed.find((p) => p.name === 'c64_pal_6581' && !p.error), 'the good ones are still listed');
    // The link's target is untouched by a delete: the link itself goes.
    await ok('machine_profile_delete', { name: 'link' });
    assert.ok(existsSync('/etc/passwd'));
  });
});
