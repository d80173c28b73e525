// `# @connection NAME` in request files (issue 17): on a request, or at the top of the file for every
// request that names none; a name that names no connection is an error at its line.
import * as assert from 'node:assert/strict';
import { parseConnectionsText } from '../../../src/core/connections/connectionsFile';
import { findConnection, sandboxConnection } from '../../../src/core/connections/connection';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { connectionOfRequest, connectionProblems, requestConnectionMeta, type ConnectionChoice } from '../../../src/core/requests/requestConnections';

const CONNS = parseConnectionsText(
  JSON.stringify({ active: 'test', connections: { test: { baseUrl: 'https://test.example' }, prod: { baseUrl: 'https://prod.example', production: true } } }),
  'connections.json',
);

/** The choice a host gives the engine: `active`, and every connection of CONNS (the sandbox at `sandboxUrl`). */
function choiceOf(active: string, sandboxUrl = 'http://127.0.0.1:9'): ConnectionChoice {
  const names = [...CONNS.list.map((c) => c.name), 'sandbox'];
  return { active, names, endpoints: (name) => findConnection(CONNS, name, sandboxUrl).endpoints };
}

const baseOf = (c: ReturnType<typeof connectionOfRequest>): string | undefined => (c.ok ? c.endpoints.baseUrl : undefined);

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
    assert.deepEqual(f.requests.map((r) => baseOf(connectionOfRequest(f, r, choiceOf('test')))), ['https://prod.example', 'https://test.example', 'https://prod.example']);
    const plain = parseRequestFile('GET {{baseUrl}}/v1/x');
    assert.deepEqual(connectionOfRequest(plain, plain.requests[0], choiceOf('test')), { ok: true, name: 'test', endpoints: findConnection(CONNS, 'test').endpoints });
    const sandbox = parseRequestFile('# @connection sandbox\nGET {{baseUrl}}/v1/x');
    assert.equal(baseOf(connectionOfRequest(sandbox, sandbox.requests[0], choiceOf('test', 'http://127.0.0.1:9'))), sandboxConnection('http://127.0.0.1:9').endpoints.baseUrl);
  });

  it('names each line whose connection does not exist, with the names there are', () => {
    const f = parseRequestFile('GET {{baseUrl}}/v1/a\n\n###\n# @connection staging\nGET {{baseUrl}}/v1/b');
    const problems = connectionProblems(f, ['test', 'prod', 'sandbox']);
    assert.deepEqual(
      problems.map((p) => [p.span.line, p.code, p.severity, p.message]),
      [[3, 'connection', 'error', '"# @connection staging" names no connection; use one of test, prod, sandbox, or add "staging" to your connections.']],
    );
    const refused = connectionOfRequest(f, f.requests[1], choiceOf('test'));
    assert.deepEqual(refused.ok ? undefined : [refused.line, refused.message], [3, problems[0].message]);
  });

  it('refuses a "# @connection" without a name at its line', () => {
    const f = parseRequestFile('# @connection\nGET {{baseUrl}}/v1/a');
    assert.deepEqual(f.problems.map((p) => [p.span.line, p.severity, p.message]), [[0, 'error', '"# @connection" names no connection; write "# @connection NAME" with the name of one of your connections.']]);
  });
});
