// End-to-end: raw JSON-RPC lines to the real mcphost binary over stdio, for
// the faults and edge cases a well-behaved SDK client never produces.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnHost, INITIALIZE } from './lib/raw.mjs';
import { HANG_MS, PROTOCOL_VERSIONS, within } from './lib/env.mjs';

// Every host this file starts; at the end none may have written a non-JSON line.
const started = [];
function start(args) {
  const host = spawnHost(args);
  started.push(host);
  return host;
}

after(async () => {
  for (const host of started) if (!host.exited) host.child.kill('SIGKILL');
});

function assertError(message, code, what) {
  assert.ok(message.error, `${what}: expected an error, got ${JSON.stringify(message)}`);
  assert.equal(message.result, undefined, `${what}: no result next to the error`);
  assert.equal(message.error.code, code, `${what}: error code (${message.error.message})`);
  assert.equal(typeof message.error.message, 'string');
  assert.equal(message.jsonrpc, '2.0');
}

describe('raw stdio: JSON-RPC faults', () => {
  let host;
  it('starts and initializes', async () => {
    host = start();
    const res = await host.initialize();
    assert.equal(res.result.protocolVersion, '2025-11-25');
  });

  it('malformed JSON is -32700 with id null, and the server keeps serving', async () => {
    const error = host.nextNullIdError();
    host.send('{"jsonrpc":"2.0","id":5,"method":"ping"');
    assertError(await error, -32700, 'truncated object');
    const error2 = host.nextNullIdError();
    host.send('garbage{');
    assertError(await error2, -32700, 'garbage');
    const pong = await host.request({ jsonrpc: '2.0', id: 6, method: 'ping' });
    assert.deepEqual(pong.result, {});
  });

  it('an empty batch [] is -32600', async () => {
    const error = host.nextNullIdError();
    host.send('[]');
    assertError(await error, -32600, '[]');
  });

  it('a batch with a request in it is -32600 (batches are not served)', async () => {
    const error = host.nextNullIdError();
    host.send('[{"jsonrpc":"2.0","id":7,"method":"ping"}]');
    assertError(await error, -32600, 'batch');
    // Lines are handled in order and a ping is answered on the reading
    // thread: once the ping sent after the batch is answered, an answer to
    // the batched one would be there already.
    await host.request({ jsonrpc: '2.0', id: 70, method: 'ping' });
    assert.equal(host.messages.find((m) => m.id === 7), undefined, 'the batched ping was not answered');
  });

  it('a message without "jsonrpc" is -32600 and echoes the id', async () => {
    const res = await host.request({ id: 8, method: 'ping' });
    assertError(res, -32600, 'missing jsonrpc');
    assert.match(res.error.message, /jsonrpc/);
  });

  it('"jsonrpc":"1.0" is -32600', async () => {
    assertError(await host.request({ jsonrpc: '1.0', id: 9, method: 'ping' }), -32600, 'jsonrpc 1.0');
  });

  it('a JSON value that is not an object is -32600', async () => {
    const error = host.nextNullIdError();
    host.send('42');
    assertError(await error, -32600, '42');
  });

  it('an id that is an object is -32600 with id null', async () => {
    const error = host.nextNullIdError();
    host.send('{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}');
    assertError(await error, -32600, 'object id');
  });

  it('an unknown method is -32601 naming the method', async () => {
    const res = await host.request({ jsonrpc: '2.0', id: 10, method: 'tools/frobnicate' });
    assertError(res, -32601, 'unknown method');
    assert.match(res.error.message, /tools\/frobnicate/);
  });

  it('string ids are echoed exactly', async () => {
    const res = await host.request({ jsonrpc: '2.0', id: 'abc-\u00e9', method: 'ping' });
    assert.equal(res.id, 'abc-\u00e9');
    assert.deepEqual(res.result, {});
  });

  it('params that are not an object are -32602', async () => {
    assertError(await host.request({ jsonrpc: '2.0', id: 11, method: 'tools/list', params: [1] }), -32602, 'array params');
  });

  it('notifications get no response; blank and CRLF lines are fine', async () => {
    const before = host.messages.length;
    host.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    host.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: {} });
    host.send('');
    host.send('   ');
    host.child.stdin.write('{"jsonrpc":"2.0","id":12,"method":"ping"}\r\n');
    const res = await host.waitFor((m) => m.id === 12, 'the ping sent with CRLF');
    assert.deepEqual(res.result, {});
    assert.deepEqual(host.messages.slice(before), [res], 'nothing but the ping response was sent');
  });

  it('a 1 MB junk line is -32700, then a ping is still answered', async () => {
    const error = host.nextNullIdError();
    host.send('x'.repeat(1 << 20));
    assertError(await error, -32700, '1 MB junk');
    const pong = await host.request({ jsonrpc: '2.0', id: 13, method: 'ping' });
    assert.deepEqual(pong.result, {});
  });

  it('a 1 MB valid request is answered', async () => {
    const message = 'm'.repeat(1 << 20);
    const res = await host.request(
      { jsonrpc: '2.0', id: 14, method: 'tools/call', params: { name: 'fixture_echo', arguments: { message } } }
    );
    assert.equal(res.result.isError, false);
    assert.equal(res.result.structuredContent.message.length, message.length);
  });

  // Issue 20, item 9: stdio refuses what HTTP refuses, with the same parser's reason.
  it('invalid UTF-8 in a message is -32700 saying so, and nothing is echoed', async () => {
    const error = host.nextNullIdError();
    host.child.stdin.write(Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"fixture_echo","arguments":{"message":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}}\n')
    ]));
    const res = await error;
    assertError(res, -32700, 'invalid UTF-8');
    assert.match(res.error.message, /UTF-8/);
    const pong = await host.request({ jsonrpc: '2.0', id: 21, method: 'ping' });
    assert.deepEqual(pong.result, {});
    assert.equal(host.messages.find((m) => m.id === 20), undefined, 'the bad message was not run');
  });

  it('a raw NUL byte inside a string is -32700 naming it', async () => {
    const error = host.nextNullIdError();
    host.child.stdin.write('{"jsonrpc":"2.0","id":22,"method":"ping","params":{"x":"a\u0000b"}}\n'); // a raw 0x00 byte
    const res = await error;
    assertError(res, -32700, 'raw NUL');
    assert.match(res.error.message, /U\+0000/);
  });

  it('an error quoting a long method name cuts it between characters, not inside one', async () => {
    const method = 'x' + '\u00e9'.repeat(150); // 301 bytes: a byte-wise cut at 200 splits an e-acute
    const res = await host.request({ jsonrpc: '2.0', id: 23, method });
    assertError(res, -32601, 'long unknown method');
    const line = host.lines.find((l) => l.includes('"id":23'));
    assert.ok(!line.includes('\ufffd'), `the response is valid UTF-8: ${line}`);
    assert.ok(res.error.message.includes('x' + '\u00e9'.repeat(99)), res.error.message);
  });

  // Issue 20, item 10.
  it('number ids that cannot be echoed exactly are refused with id null, not answered', async () => {
    // 400 digits is beyond a double: the strict parser refuses the message (as over HTTP).
    const error = host.nextNullIdError();
    host.send(`{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`);
    const res = await error;
    assertError(res, -32700, '400-digit id');
    assert.match(res.error.message, /number is too large/);
    // 20 digits parses, but only as an approximation: an invalid request.
    const big = host.nextNullIdError();
    host.send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}');
    const bigRes = await big;
    assertError(bigRes, -32600, '20-digit id');
    assert.match(bigRes.error.message, /integer from -9007199254740991 to 9007199254740991/);
    const half = host.nextNullIdError();
    host.send('{"jsonrpc":"2.0","id":0.5,"method":"ping"}');
    assertError(await half, -32600, 'fractional id');
    assert.equal(host.messages.filter((m) => m.id === null && 'result' in m).length, 0, 'no request was answered with id null');
    const fine = await host.request({ jsonrpc: '2.0', id: 9007199254740991, method: 'ping' });
    assert.deepEqual(fine.result, {}, 'the largest exact integer is a fine id');
  });

  it('a second initialize is refused and the connection keeps its version', async () => {
    const again = await host.request(INITIALIZE(24, '2024-11-05'));
    assertError(again, -32600, 'second initialize');
    assert.match(again.error.message, /already initialized \(protocol version 2025-11-25\)/);
    const list = await host.request({ jsonrpc: '2.0', id: 25, method: 'tools/list' });
    assert.ok(list.result.tools.some((t) => t.outputSchema), 'tools/list still speaks 2025-11-25 (outputSchema)');
  });

  it('exits 0 on end of input', async () => {
    const exit = await host.close();
    assert.deepEqual(exit, { code: 0, signal: null });
  });
});

describe('raw stdio: lifecycle', () => {
  it('a request before initialize is an error; ping is allowed', async () => {
    const host = start();
    const early = await host.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.ok(early.error, `tools/list before initialize: ${JSON.stringify(early)}`);
    assert.match(early.error.message, /initialize/);
    const pong = await host.request({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.deepEqual(pong.result, {});
    await host.initialize(3);
    const list = await host.request({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    assert.ok(Array.isArray(list.result.tools), 'tools/list works after initialize');
    assert.equal((await host.close()).code, 0);
  });

  for (const version of PROTOCOL_VERSIONS) {
    it(`initialize with ${version} is answered with ${version}`, async () => {
      const host = start();
      const res = await host.request(INITIALIZE(1, version));
      assert.equal(res.result.protocolVersion, version);
      assert.equal(res.result.serverInfo.name, 'mcphost');
      assert.equal((await host.close()).code, 0);
    });
  }

  it('initialize with an unknown version (1999-01-01) is answered with 2025-11-25', async () => {
    const host = start();
    const res = await host.request(INITIALIZE(1, '1999-01-01'));
    assert.equal(res.result.protocolVersion, '2025-11-25');
    assert.equal((await host.close()).code, 0);
  });

  it('initialize without protocolVersion is -32602', async () => {
    const host = start();
    const res = await host.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } });
    assertError(res, -32602, 'initialize without protocolVersion');
    assert.match(res.error.message, /protocolVersion/);
    assert.equal((await host.close()).code, 0);
  });

  it('end of input while a tool runs: the answer is written, then exit 0', async () => {
    const host = start();
    await host.initialize();
    host.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fixture_progress', arguments: { steps: 5 } } });
    const exit = await host.close();
    assert.deepEqual(exit, { code: 0, signal: null });
    const answer = host.messages.find((m) => m.id === 2);
    assert.ok(answer, 'the running call was answered before exit');
    assert.equal(answer.result.isError, false);
  });

  it('end of input right after start exits 0', async () => {
    const host = start();
    const exit = await host.close();
    assert.deepEqual(exit, { code: 0, signal: null });
  });

  it('SIGTERM exits with status 0', async () => {
    const host = start();
    await host.initialize();
    host.child.kill('SIGTERM');
    const exit = await within(HANG_MS, 'mcphost to exit on SIGTERM', host.exit);
    assert.deepEqual(exit, { code: 0, signal: null }, `stderr: ${host.stderr}`);
  });

  it('SIGTERM while a session tool is queued still exits', async () => {
    const host = start();
    await host.initialize();
    host.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'session_create', arguments: { machine: 'fixture' } } });
    await host.waitFor((m) => m.id === 2, 'session_create');
    host.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'fixture_counter', arguments: {} } });
    host.child.kill('SIGTERM');
    const exit = await within(HANG_MS, 'mcphost to exit on SIGTERM', host.exit);
    assert.equal(exit.signal, null, 'exited, not killed');
    assert.equal(exit.code, 0);
  });
});

describe('raw stdio: stdout hygiene', () => {
  it('stdout carries only JSON-RPC lines while the host logs and works', async () => {
    const host = start();
    await host.initialize();
    await host.request({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } });
    await host.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'session_create', arguments: { machine: 'fixture', name: 'noisy' } } });
    await host.request({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fixture_progress', arguments: { steps: 2 }, _meta: { progressToken: 'p' } } });
    await host.request({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'session_destroy', arguments: { session: 'noisy' } } });
    await host.request({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'fixture_fail', arguments: {} } });
    const exit = await host.close();
    assert.equal(exit.code, 0);
    assert.ok(host.lines.length >= 6, 'there was output');
    assert.ok(
      host.messages.some((m) => m.method === 'notifications/message'),
      'log notifications were sent (on stdout, as JSON-RPC)'
    );
    assert.ok(host.messages.some((m) => m.method === 'notifications/progress' && m.params.progressToken === 'p'));
    assert.match(host.stderr, /noisy/, 'the host log went to stderr');
  });

  it('no host started by this file wrote a non-JSON line to stdout', async () => {
    for (const host of started) {
      if (!host.exited) await host.close();
      assert.deepEqual(host.badLines, [], `non-JSON stdout lines; stderr was: ${host.stderr.slice(0, 500)}`);
      for (const m of host.messages) {
        assert.equal(typeof m, 'object');
        assert.ok(!Array.isArray(m), 'no batches are sent');
        assert.equal(m.jsonrpc, '2.0');
      }
    }
    assert.ok(started.length >= 10);
  });
});
