// `# @connection NAME` in request files (issue 17): on a request, or at the top of the file for every
// request that names none; a name that names no connection is an error at its line.
import * as assert from 'node:assert/strict';
import { parseConnectionsText } from '../../../src/core/connections/connectionsFile';
import { findConnection, sandboxConnection } from '../../../src/core/connections/connection';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { connectionForRequest, connectionProblems, requestConnectionMeta } from '../../../src/core/requests/requestConnections';

const CONNS = parseConnectionsText(
  JSON.stringify({ active: 'test', connections: { test: { baseUrl: 'https://test.example' }, prod: { baseUrl: 'https://prod.example', production: true } } }),
  'connections.json',
);

describe('# @connection in request files', () => {
  const text = [
    '# @connection prod',
    '',
    'GET {{baseUrl}}/v1/first',
    '',
    '###',
    '# @connection  test ',
    '# @name second',
    'GET {{baseUrl}}/v1/second',
    '',
    '###',
    'GET {{baseUrl}}/v1/third',
  ].join('\n');

  it('applies a request\'s own name, else the top of the file\'s, else the active connection', () => {
    const f = parseRequestFile(text);
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.connection, { name: 'prod', span: { line: 0, start: 0, end: 18 } });
    assert.deepEqual(f.requests.map((r) => requestConnectionMeta(f, r)?.name), ['prod', 'test', 'prod']);
    const active = findConnection(CONNS, 'test');
    assert.deepEqual(f.requests.map((r) => connectionForRequest(f, r, CONNS, active).endpoints.baseUrl), ['https://prod.example', 'https://test.example', 'https://prod.example']);
    const plain = parseRequestFile('GET {{baseUrl}}/v1/x');
    assert.equal(connectionForRequest(plain, plain.requests[0], CONNS, active), active);
    const sandbox = parseRequestFile('# @connection sandbox\nGET {{baseUrl}}/v1/x');
    assert.equal(connectionForRequest(sandbox, sandbox.requests[0], CONNS, active, 'http://127.0.0.1:9').endpoints.baseUrl, sandboxConnection('http://127.0.0.1:9').endpoints.baseUrl);
  });

  it('names each line whose connection does not exist, with the names there are', () => {
    const f = parseRequestFile('GET {{baseUrl}}/v1/a\n\n###\n# @connection staging\nGET {{baseUrl}}/v1/b');
    const problems = connectionProblems(f, ['test', 'prod', 'sandbox']);
    assert.deepEqual(
      problems.map((p) => [p.span.line, p.code, p.severity, p.message]),
      [[3, 'connection', 'error', '"# @connection staging" names no connection; use one of test, prod, sandbox, or add "staging" to your connections.']],
    );
    assert.throws(() => connectionForRequest(f, f.requests[1], CONNS, findConnection(CONNS, 'test')), /^Error: line 4: No connection is named "staging" in connections\.json/);
  });

  it('refuses a "# @connection" without a name at its line', () => {
    const f = parseRequestFile('# @connection\nGET {{baseUrl}}/v1/a');
    assert.deepEqual(f.problems.map((p) => [p.span.line, p.severity, p.message]), [[0, 'error', '"# @connection" names no connection; write "# @connection NAME" with the name of one of your connections.']]);
  });
});
