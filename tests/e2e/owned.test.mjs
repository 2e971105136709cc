// End-to-end: machine sessions belong to the MCP session that created them
// (issue #19), over Streamable HTTP with two official SDK clients: another
// client may read a machine but not change or destroy it (the error names
// session_attach), session_attach takes it over and the owner gets a
// taken_over event, and a client whose MCP session ends (DELETE) leaves its
// machines paused, then freed after the grace period (--orphan-grace, set
// short here). The command-line machine is the server's and shared.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from './lib/client.mjs';
import { sleep, within } from './lib/env.mjs';
import { startHost, connect, post } from './lib/http.mjs';

const call = async (who, name, args = {}) => who.client.callTool({ name, arguments: args });
const list = async (who) => (await call(who, 'session_list')).structuredContent.sessions;

describe('owned machine sessions over http', () => {
  let host, a, b;
  before(async () => {
    host = await startHost({ args: ['--machine', 'fixture'], extra: ['--orphan-grace', '2'] });
    a = await connect(host.url);
    b = await connect(host.url);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await host?.stop();
  });

  it('A creates a machine: it is A\'s, and session_list says so to both', async () => {
    const made = await call(a, 'session_create', { machine: 'bare6502', name: 'amachine' });
    assert.equal(made.isError, false, resultText(made));
    const seenByA = (await list(a)).find((s) => s.name === 'amachine');
    assert.equal(seenByA.owner, 'you');
    assert.equal(seenByA.canChange, true);
    assert.equal(seenByA.state, 'paused');
    assert.equal(typeof seenByA.idleSeconds, 'number');
    const seenByB = (await list(b)).find((s) => s.name === 'amachine');
    assert.match(seenByB.owner, /mcphost-e2e-http/);
    assert.equal(seenByB.canChange, false);
    // The command-line machine is the server's.
    const cli = (await list(b)).find((s) => s.name === 'fixture-1');
    assert.equal(cli.owner, 'server');
    assert.equal(cli.canChange, true);
  });

  it('B can read A\'s machine but not change or destroy it; the error names session_attach', async () => {
    const read = await call(b, 'registers_get', { session: 'amachine' });
    assert.equal(read.isError, false, resultText(read));
    const write = await call(b, 'registers_set', { session: 'amachine', a: 1 });
    assert.equal(write.isError, true);
    assert.match(resultText(write), /belongs to another client.*session_attach/s);
    const run = await call(b, 'execution_run', { session: 'amachine' });
    assert.equal(run.isError, true);
    assert.match(resultText(run), /session_attach/);
    const destroy = await call(b, 'session_destroy', { session: 'amachine' });
    assert.equal(destroy.isError, true);
    assert.match(resultText(destroy), /session_attach/);
    assert.ok((await list(a)).some((s) => s.name === 'amachine'), 'still there');
    // A itself may change it, and anyone the shared command-line machine.
    const mine = await call(a, 'registers_set', { session: 'amachine', a: 2 });
    assert.equal(mine.isError, false, resultText(mine));
    const shared = await call(b, 'fixture_counter', { session: 'fixture-1' });
    assert.equal(shared.isError, false, resultText(shared));
  });

  it('B takes it over with session_attach and A gets a taken_over event', async () => {
    const from = a.received.length;
    const attached = await call(b, 'session_attach', { session: 'amachine' });
    assert.equal(attached.isError, false, resultText(attached));
    assert.equal(attached.structuredContent.owner, 'you');
    assert.match(attached.structuredContent.previousOwner, /mcphost-e2e-http/);
    const event = await within(5000, 'the taken_over event at A', (async () => {
      for (;;) {
        const e = a.received.slice(from).find((m) => m.method === 'notifications/mcphost/event' && m.params.type === 'taken_over');
        if (e) return e;
        await sleep(20);
      }
    })());
    assert.equal(event.params.session, 'amachine');
    assert.match(event.params.detail.by, /mcphost-e2e-http/);
    // Now B changes it and A only reads it.
    const write = await call(b, 'registers_set', { session: 'amachine', a: 3 });
    assert.equal(write.isError, false, resultText(write));
    const refused = await call(a, 'registers_set', { session: 'amachine', a: 4 });
    assert.equal(refused.isError, true);
    assert.match(resultText(refused), /session_attach/);
  });

  it('a client that ends its MCP session leaves its machine paused, then freed after the grace period', async () => {
    const c = await connect(host.url);
    let closed = false;
    try {
      const made = await call(c, 'session_create', { machine: 'bare6502', name: 'cmachine' });
      assert.equal(made.isError, false, resultText(made));
      const run = await call(c, 'execution_run', { warp: true });
      assert.equal(run.isError, false, resultText(run));
      assert.equal((await list(b)).find((s) => s.name === 'cmachine').state, 'running');
      await c.transport.terminateSession(); // DELETE /mcp
      await c.close();
      closed = true;
      const orphan = await within(5000, 'the orphan to be paused', (async () => {
        for (;;) {
          const s = (await list(b)).find((x) => x.name === 'cmachine');
          if (s && /disconnected/.test(s.owner)) return s;
          await sleep(50);
        }
      })());
      assert.equal(orphan.state, 'paused');
      assert.equal(orphan.canChange, false);
      await within(8000, 'the orphan to be destroyed', (async () => {
        while ((await list(b)).some((x) => x.name === 'cmachine')) await sleep(100);
      })());
      assert.match(host.stderr, /cmachine.*nobody took it over/);
    } finally {
      if (!closed) await c.close();
    }
  });

  it('an orphan that another client attaches to within the grace period stays', async () => {
    const d = await connect(host.url);
    await call(d, 'session_create', { machine: 'bare6502', name: 'dmachine' });
    await d.transport.terminateSession();
    await d.close();
    await within(5000, 'the orphan', (async () => {
      while (!/disconnected/.test((await list(b)).find((x) => x.name === 'dmachine')?.owner ?? '')) await sleep(50);
    })());
    const attached = await call(b, 'session_attach', { session: 'dmachine' });
    assert.equal(attached.isError, false, resultText(attached));
    await sleep(3000); // past the grace period
    const kept = (await list(b)).find((x) => x.name === 'dmachine');
    assert.equal(kept?.owner, 'you');
    const destroyed = await call(b, 'session_destroy', { session: 'dmachine' });
    assert.equal(destroyed.isError, false, resultText(destroyed));
  });

  it('a stateless (2026-07-28) client, one connection per request, makes shared machines and redeems tokens', async () => {
    const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    let id = 1;
    const stateless = async (name, args) => {
      const res = await post(host.url, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: META } },
        { headers: { 'mcp-protocol-version': '2026-07-28' } });
      assert.equal(res.status, 200, res.text);
      return res.json.result;
    };
    const made = await stateless('session_create', { machine: 'bare6502', name: 'smachine' });
    assert.equal(made.isError, false, JSON.stringify(made));
    // The next request is another connection, and may still change it.
    const set = await stateless('registers_set', { session: 'smachine', a: 5 });
    assert.equal(set.isError, false, JSON.stringify(set));
    assert.equal((await list(b)).find((s) => s.name === 'smachine').owner, 'server');
    await sleep(2500); // past the grace period: nobody's connection ended with it
    assert.ok((await list(b)).some((s) => s.name === 'smachine'), 'not reaped');
    await stateless('execution_run', { session: 'smachine', warp: true });
    const asked = await stateless('session_destroy', { session: 'smachine' });
    const token = asked.content[0].text.match(/"confirm": "([0-9a-f]{32})"/)?.[1];
    assert.ok(token, JSON.stringify(asked));
    const destroyed = await stateless('session_destroy', { session: 'smachine', confirm: token });
    assert.equal(destroyed.isError, false, JSON.stringify(destroyed));
  });
});
