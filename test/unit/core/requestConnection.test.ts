// Which connection each request of a request file goes to, and its problems read against that
// connection's endpoints: `# @connection` on the request, else the file's, else the active one.
import * as assert from 'node:assert/strict';
import type { Endpoints } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { connectionOfRequest, type ConnectionChoice } from '../../../src/core/requests/requestConnections';
import { requestFileProblems } from '../../../src/core/run/fileChecks';

const at = (host: string): Endpoints => ({ authUrl: host, baseUrl: host, legacyUrl: host, origin: 'https://me.example', authVersion: 'V2.0', orgVersion: 'V4.0' });
const HOSTS: Readonly<Record<string, Endpoints>> = { test: at('https://test.example'), prod: at('https://prod.example') };
const choice: ConnectionChoice = { active: 'test', names: ['test', 'prod', 'sandbox'], endpoints: (n) => HOSTS[n] };

describe('the connection of a request file request', () => {
  it("takes the request's own # @connection, else the file's, else the active connection", () => {
    const file = parseRequestFile(['# @connection prod', '### one', 'GET {{baseUrl}}/v1/a', '', '### two', '# @connection test', 'GET {{baseUrl}}/v1/b'].join('\n'));
    const names = file.requests.map((r) => connectionOfRequest(file, r, choice));
    assert.deepEqual(names.map((n) => (n.ok ? n.name : n.message)), ['prod', 'test']);
    const plain = parseRequestFile('GET {{baseUrl}}/v1/a');
    const only = connectionOfRequest(plain, plain.requests[0], choice);
    assert.ok(only.ok && only.name === 'test' && only.endpoints === HOSTS.test);
  });

  it('refuses a name that is none at its line, and the sandbox while it is not running', () => {
    const file = parseRequestFile(['### one', '# @connection nowhere', 'GET {{baseUrl}}/v1/a'].join('\n'));
    const r = connectionOfRequest(file, file.requests[0], choice);
    assert.ok(!r.ok);
    assert.equal(r.line, 1);
    assert.match(r.message, /names no connection; use one of test, prod, sandbox/);
    const sb = parseRequestFile(['# @connection sandbox', 'GET {{baseUrl}}/v1/a'].join('\n'));
    const s = connectionOfRequest(sb, sb.requests[0], choice);
    assert.ok(!s.ok);
    assert.match(s.message, /not running: run "Business Data: Start Local Sandbox"/);
  });

  it("checks each request's host against its own connection: prod's host is fine for prod, not for test", () => {
    const text = ['### one', '# @connection prod', 'GET https://prod.example/v1/a', '', '### two', 'GET https://prod.example/v1/b', '', '### three', '# @connection gone', 'GET {{baseUrl}}/v1/c'].join('\n');
    const problems = requestFileProblems(text, choice);
    assert.deepEqual(
      problems.map((p) => [p.code, p.span.line]),
      [
        ['operation', 5],
        ['connection', 8],
      ],
    );
    assert.match(problems[0].message, /goes to https:\/\/prod\.example, which is no configured service host.*only to https:\/\/test\.example/);
  });
});
