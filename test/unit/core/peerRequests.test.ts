// Request files of REST Client and httpYac, read and resolved as those tools send them. The examples
// are written from their documentation (READMEs and guides); each refusal is checked at its line.
import * as assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareFileRequest } from '../../../src/core/requests/fileRequest';
import { bodyFiles, dotenvBeside } from '../../../src/core/requests/fileSafety';
import { parseRequestFile, type ParsedRequestFile } from '../../../src/core/requests/requestFile';
import { connectionVariables, resolveRequest, unknownReferences, type Resolved, type VariableContext } from '../../../src/core/requests/requestVariables';
import type { SystemContext } from '../../../src/core/requests/systemVariables';
import { tempDirs } from '../tempDirs';
import { endpointsFor } from './harness';

const E = endpointsFor('http://127.0.0.1:8080');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function ctx(extra: Partial<VariableContext> = {}): VariableContext {
  return { connection: connectionVariables(E), responses: new Map(), ...extra };
}

/** The file's only request resolved (no body files). */
function resolve1(text: string, extra: Partial<VariableContext> = {}): Resolved {
  const f = parseRequestFile(text);
  return resolveRequest(f, f.requests[0], ctx(extra), E);
}

function sent(r: Resolved): { method: string; headers: Record<string, string>; body?: string; bytes?: Buffer } {
  assert.ok(r.ok, r.ok ? '' : `line ${r.line + 1}: ${r.message}`);
  const q = r.request;
  return { method: q.method, headers: { ...q.headers }, body: q.body, bytes: q.bodyBytes ? Buffer.from(q.bodyBytes) : undefined };
}

function refused(r: Resolved, line: number, says: RegExp): void {
  assert.equal(r.ok, false, 'expected a refusal');
  if (r.ok) return;
  assert.equal(r.line + 1, line, r.message);
  assert.match(r.message, says);
}

/** The problems of a parsed file as [1-based line, severity, message]. */
function problemsOf(f: ParsedRequestFile): Array<[number, string, string]> {
  return f.problems.map((p) => [p.span.line + 1, p.severity, p.message]);
}

const file = (...lines: string[]): string => lines.join('\n');

describe('request files of the peers: bodies', () => {
  const dirs = tempDirs();

  async function prepared(text: string, files: Record<string, string | Buffer>, extra: Partial<VariableContext> = {}): Promise<{ resolved: Resolved; dir: string }> {
    const dir = await dirs.make('bizdata-peers-');
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(dir, name, '..'), { recursive: true });
      await writeFile(join(dir, name), content);
    }
    const path = join(dir, 'calls.http');
    await writeFile(path, text);
    const f = parseRequestFile(text);
    assert.deepEqual(f.problems.filter((p) => p.severity === 'error'), []);
    return { resolved: await prepareFileRequest(f, f.requests[0], ctx(extra), E, bodyFiles(path, dir)), dir };
  }

  it('< ./file sends the file bytes as they are, variables not replaced; <@ replaces them; <@latin1 reads Latin-1 and sends UTF-8', async () => {
    const raw = Buffer.from('{"id": "{{id}}",\r\n "n": 1}\n');
    const a = await prepared(file('@id = 42', '', 'POST {{baseUrl}}/v1/things', 'Content-Type: application/json', '', '< ./body.json'), { 'body.json': raw });
    assert.deepEqual(sent(a.resolved).bytes, raw);
    const b = await prepared(file('@id = 42', '', 'POST {{baseUrl}}/v1/things', 'Content-Type: application/json', '', '<@ ./data/body.json'), { 'data/body.json': raw });
    assert.deepEqual(sent(b.resolved).bytes, Buffer.from('{"id": "42",\r\n "n": 1}\n'));
    assert.equal(sent(b.resolved).body, '{"id": "42",\r\n "n": 1}\n');
    const c = await prepared(file('POST {{baseUrl}}/v1/things', 'Content-Type: text/plain', '', '<@latin1 ./name.txt'), { 'name.txt': Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]) });
    assert.deepEqual(sent(c.resolved).bytes, Buffer.from('Müller', 'utf8'));
  });

  it('multipart/form-data: CRLF line ends, the file part as its bytes, no line end after the closing boundary', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const text = file(
      'POST {{baseUrl}}/v1/upload',
      'Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW',
      '',
      '------WebKitFormBoundary7MA4YWxkTrZu0gW',
      'Content-Disposition: form-data; name="text"',
      '',
      'title',
      '------WebKitFormBoundary7MA4YWxkTrZu0gW',
      'Content-Disposition: form-data; name="image"; filename="1.png"',
      'Content-Type: image/png',
      '',
      '< ./1.png',
      '------WebKitFormBoundary7MA4YWxkTrZu0gW--',
    );
    const { resolved } = await prepared(text, { '1.png': png });
    const expected = Buffer.concat([
      Buffer.from(
        '------WebKitFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name="text"\r\n\r\ntitle\r\n------WebKitFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name="image"; filename="1.png"\r\nContent-Type: image/png\r\n\r\n',
      ),
      png,
      Buffer.from('\r\n------WebKitFormBoundary7MA4YWxkTrZu0gW--'),
    ]);
    const s = sent(resolved);
    assert.deepEqual(s.bytes, expected);
    assert.equal(s.body, undefined, 'bytes that are not UTF-8 have no text');
    // Without a file part: CRLF all the same.
    const plain = resolve1(file('POST {{baseUrl}}/v1/upload', 'Content-Type: multipart/form-data; boundary=b', '', '--b', 'Content-Disposition: form-data; name="a"', '', '1', '--b--'));
    assert.equal(sent(plain).body, '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--');
  });

  it('form bodies: lines starting with & are joined and the text percent-encoded as both peers encode it', () => {
    const r = resolve1(file('@name = two words', '', 'POST {{baseUrl}}/v1/login', 'Content-Type: application/x-www-form-urlencoded', '', 'name={{name}}', '&city=Zürich', '&ok=a%20b&x=1'));
    assert.equal(sent(r).body, 'name=two%20words&city=Z%C3%BCrich&ok=a%20b&x=1');
  });

  it('form bodies: a line without & and spaces next to = are refused at their lines', () => {
    const f = parseRequestFile(file('POST {{baseUrl}}/v1/login', 'Content-Type: application/x-www-form-urlencoded', '', 'a=1', 'b=2'));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[5, 'error']]);
    assert.match(f.problems[0].message, /start with "&".*%0A.*httpYac drops it/);
    refused(resolve1(file('POST {{baseUrl}}/v1/login', 'Content-Type: application/x-www-form-urlencoded', '', 'a=1', '&b = 2')), 5, /Spaces next to "=" or "&"/);
  });

  it('comment lines inside a body are dropped; "/*" is refused at its line', () => {
    const r = resolve1(file('POST {{baseUrl}}/v1/things', 'Content-Type: application/json', '', '{', '  // the id', '  "id": 1,', '# another', '  "n": 2', '}'));
    assert.equal(sent(r).body, '{\n  "id": 1,\n  "n": 2\n}');
    const f = parseRequestFile(file('POST {{baseUrl}}/v1/things', '', '/*', 'text', '*/'));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[3, 'error']]);
  });

  it('refuses the lines httpYac reads as scripts, output files, response files or stream separators, at their lines', () => {
    const f = parseRequestFile(file('POST {{baseUrl}}/v1/things', '', '{"a": 1}', '', '> {% client.test("ok") %}', '>> ./answer.json', '<> ./expected.json', '==='));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[5, 'error'], [6, 'error'], [7, 'error'], [8, 'error']]);
    assert.match(f.problems[0].message, /run no code/);
  });

  it('newline-delimited JSON ends with one more line end, as both send it', () => {
    assert.equal(sent(resolve1(file('POST {{baseUrl}}/v1/bulk', 'Content-Type: application/x-ndjson', '', '{"a":1}', '{"b":2}'))).body, '{"a":1}\n{"b":2}\n');
  });

  it('GraphQL with X-Request-Type: the query and variables as REST Client sends them, the header not forwarded', () => {
    const r = resolve1(
      file('POST {{baseUrl}}/v1/graphql', 'Content-Type: application/json', 'X-REQUEST-TYPE: GraphQL', '', 'query Repo($name: String!) {', '  repository(name: $name) { name }', '}', '', '{', '  "name": "vscode-restclient"', '}'),
    );
    const s = sent(r);
    assert.equal(s.body, JSON.stringify({ query: 'query Repo($name: String!) {\n  repository(name: $name) { name }\n}', operationName: 'Repo', variables: { name: 'vscode-restclient' } }));
    assert.deepEqual(Object.keys(s.headers).map((h) => h.toLowerCase()), ['content-type']);
    // No variables block: REST Client sends an empty object.
    assert.equal(sent(resolve1(file('POST {{baseUrl}}/v1/graphql', 'X-Request-Type: graphql', '', '{ viewer { login } }'))).body, '{"query":"{ viewer { login } }","variables":{}}');
    refused(resolve1(file('POST {{baseUrl}}/v1/graphql', 'X-Request-Type: GraphQL', '', 'query { a }', '', '{ not json')), 6, /variables after the blank line are not JSON/);
  });

  it('GraphQL as httpYac writes it (GRAPHQL method): POST, JSON content type, a mutation named, no variables key without a block', () => {
    const s = sent(resolve1(file('GRAPHQL {{baseUrl}}/v1/graphql', '', 'mutation AddStar @cached {', '  # the star', '  addStar { id }', '}')));
    assert.equal(s.method, 'POST');
    assert.deepEqual(s.headers, { 'content-type': 'application/json' });
    // httpYac keeps a # comment inside the query (REST Client would drop it, but it has no GRAPHQL method).
    assert.equal(s.body, JSON.stringify({ query: 'mutation AddStar @cached {\n  # the star\n  addStar { id }\n}', operationName: 'AddStar' }));
    const withVariables = sent(resolve1(file('GRAPHQL {{baseUrl}}/v1/graphql', '', 'query Q($id: ID) { node(id: $id) { id } }', '', '# dropped', '{"id": "1"}')));
    assert.equal(withVariables.body, JSON.stringify({ query: 'query Q($id: ID) { node(id: $id) { id } }', operationName: 'Q', variables: { id: '1' } }));
  });

  it('a body that starts with "query" but is marked as no GraphQL is refused: httpYac would convert it, REST Client would not', () => {
    const f = parseRequestFile(file('POST {{baseUrl}}/v1/graphql', 'Content-Type: application/json', '', 'query { a }'));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[4, 'error']]);
    assert.match(f.problems[0].message, /X-Request-Type: GraphQL/);
  });

  it('a file line in a form or GraphQL body and an encoding neither peer reads are refused at their lines', () => {
    const form = parseRequestFile(file('POST {{baseUrl}}/v1/f', 'Content-Type: application/x-www-form-urlencoded', '', '< ./a.txt'));
    assert.deepEqual(problemsOf(form).map(([l]) => l), [4]);
    const enc = parseRequestFile(file('POST {{baseUrl}}/v1/f', '', '<@koi8r ./a.txt'));
    assert.deepEqual(problemsOf(enc).map(([l]) => l), [3]);
    assert.match(enc.problems[0].message, /<@latin1/);
  });

  it('a body file is never read without prepareFileRequest: resolveRequest says when it will be', () => {
    const r = resolve1(file('POST {{baseUrl}}/v1/f', '', '< ./a.json'));
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.reason, r.line], ['variable', 2]);
  });
});

describe('request files of the peers: safety of files', () => {
  const dirs = tempDirs();

  it('refuses a body file outside the folder (../, an absolute path, a link that leads out) at its line, and reads a link inside', async () => {
    const top = await dirs.make('bizdata-safety-');
    const ws = join(top, 'ws');
    await mkdir(join(ws, 'sub'), { recursive: true });
    await writeFile(join(top, 'outside.txt'), 'SECRET-OUTSIDE');
    await writeFile(join(ws, 'inside.txt'), 'inside');
    await symlink(join(top, 'outside.txt'), join(ws, 'link-out.txt'));
    await symlink(join(ws, 'inside.txt'), join(ws, 'sub', 'link-in.txt'));
    const path = join(ws, 'sub', 'calls.http');
    const run = async (line: string): Promise<Resolved> => {
      const text = file('POST {{baseUrl}}/v1/f', 'Content-Type: text/plain', '', line);
      const f = parseRequestFile(text);
      return prepareFileRequest(f, f.requests[0], ctx(), E, bodyFiles(path, ws));
    };
    refused(await run('< ../../outside.txt'), 4, /is outside .*reads only files inside the request file's own folder/);
    refused(await run(`< ${join(top, 'outside.txt')}`), 4, /is outside/);
    refused(await run('< ../link-out.txt'), 4, /it leads to .*outside\.txt/);
    refused(await run('< ./missing.txt'), 4, /does not exist/);
    assert.equal(sent(await run('< ./link-in.txt')).body, 'inside');
    assert.equal(sent(await run('< ../inside.txt')).body, 'inside');
  });
});

describe('request files of the peers: system variables', () => {
  const dirs = tempDirs();

  it('$guid and $uuid, $randomInt MIN MAX (MAX excluded), $timestamp with an offset', () => {
    const r = resolve1(file('GET {{baseUrl}}/v1/x?a={{$guid}}&b={{$uuid}}&c={{$randomInt 1 3}}&d={{$timestamp}}&e={{$timestamp -1 d}}'));
    assert.ok(r.ok);
    if (!r.ok) return;
    const q = new URL(r.request.url).searchParams;
    assert.match(q.get('a') ?? '', UUID);
    assert.match(q.get('b') ?? '', UUID);
    assert.ok(['1', '2'].includes(q.get('c') ?? ''));
    const now = Math.floor(Date.now() / 1000);
    assert.ok(Math.abs(Number(q.get('d')) - now) <= 2);
    assert.ok(Math.abs(Number(q.get('e')) - (now - 86_400)) <= 2);
  });

  it('$datetime and $localDatetime: rfc1123, iso8601 and a Day.js format, with an offset', () => {
    const r = resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$datetime rfc1123}}', '{{$datetime iso8601}}', '{{$datetime "YYYY-MM-DD" 1 d}}', "{{$localDatetime 'YYYY'}}", '{{$localDatetime iso8601}}', '{{$localDatetime rfc1123}}'));
    const [rfc, iso, tomorrow, year, localIso, localRfc] = (sent(r).body ?? '').split('\n');
    assert.match(rfc, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.match(iso, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(tomorrow, new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    assert.equal(year, String(new Date().getFullYear()));
    assert.match(localIso, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    assert.match(localRfc, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
  });

  it('refuses system variables written wrong, at the reference, in the editor and when sending', () => {
    const text = file('GET {{baseUrl}}/v1/x', 'X-A: {{$randomInt 5 1}}', 'X-B: {{$timestamp 1 Q}}', 'X-C: {{$datetime rfc822}}', 'X-D: {{$aadToken}}', 'X-E: {{$processEnv %token}}');
    const f = parseRequestFile(text);
    const found = unknownReferences(text, f, connectionVariables(E)).map((p) => [p.span.line + 1, p.message] as const);
    assert.deepEqual(found.map(([l]) => l), [2, 3, 4, 5, 6]);
    assert.match(found[0][1], /MIN must be less than MAX/);
    assert.match(found[1][1], /Q as milliseconds/);
    assert.match(found[2][1], /rfc1123.*iso8601/);
    assert.match(found[3][1], /not a system variable/);
    assert.match(found[4][1], /REST Client environment/);
    refused(resolve1(text), 2, /MIN must be less than MAX/);
  });

  it('{{%name}} is the value percent-encoded (REST Client)', () => {
    const r = resolve1(file('@name = Müller & Co/GmbH', '', 'GET {{baseUrl}}/v1/orgs/{{%name}}'));
    assert.equal(r.ok && r.request.url, `${E.baseUrl}/v1/orgs/M%C3%BCller%20%26%20Co%2FGmbH`);
  });

  it('$dotenv reads the .env beside the request file (parsed by dotenv); a missing name or file is refused', async () => {
    const dir = await dirs.make('bizdata-dotenv-');
    await writeFile(join(dir, '.env'), '# comment\ncustomer=ACME 1\nquoted="a b"\n');
    const path = join(dir, 'calls.http');
    const system: SystemContext = { dotenv: await dotenvBeside(path, dir) };
    const r = resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$dotenv customer}}|{{$dotenv quoted}}'), { system });
    assert.equal(sent(r).body, 'ACME 1|a b');
    refused(resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$dotenv nothing}}'), { system }), 3, /defines no nothing/);
    refused(resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$dotenv BIZDATA_PASSWORD}}'), { system }), 3, /BIZDATA_ variables hold this client's settings and credentials/);
    const none = await dirs.make('bizdata-dotenv-');
    refused(resolve1(file('GET {{baseUrl}}/v1/x?c={{$dotenv customer}}'), { system: { dotenv: await dotenvBeside(join(none, 'c.http'), none) } }), 1, /there is no .*\.env/);
  });

  it('$processEnv reads only allowed names, never a BIZDATA_ one, and says how to allow', () => {
    const env = { HOME_REGION: 'eu', BIZDATA_PASSWORD: 'canaryPASS-e4f17d3b' };
    const system: SystemContext = { env, allowEnv: new Set(['HOME_REGION', 'BIZDATA_PASSWORD']), allowEnvHow: (n) => `pass --allow-env ${n}` };
    assert.equal(sent(resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$processEnv HOME_REGION}}'), { system })).body, 'eu');
    refused(resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$processEnv OTHER}}'), { system }), 3, /reads only environment variables you allow\. To send OTHER, pass --allow-env OTHER/);
    const secret = resolve1(file('POST {{baseUrl}}/v1/x', '', '{{$processEnv BIZDATA_PASSWORD}}'), { system });
    refused(secret, 3, /BIZDATA_ variables hold this client's settings and credentials/);
    assert.doesNotMatch(JSON.stringify(secret), /canaryPASS/);
  });
});

describe('request files of the peers: settings, methods and prompts', () => {
  it('reads @prompt, @disabled, @note and @no-redirect; a prompt fills its variable; another @word is a warning naming it', () => {
    const text = file(
      '### first',
      '# @prompt customerId The customer to look up',
      '// @prompt password',
      '# @note Writes to production',
      '# @no-redirect',
      '# @no-cookie-jar',
      '# @sleep 1000',
      'GET {{baseUrl}}/v1/customers/{{customerId}}?p={{password}}',
      '',
      '###',
      '# @disabled',
      'DELETE {{baseUrl}}/v1/customers/1',
    );
    const f = parseRequestFile(text);
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[7, 'warning']]);
    assert.match(f.problems[0].message, /"# @sleep" is not honoured here/);
    const [a, b] = f.requests;
    assert.deepEqual(a.settings, {
      disabled: false,
      note: 'Writes to production',
      noRedirect: true,
      prompts: [
        { name: 'customerId', description: 'The customer to look up', line: 1, secret: false },
        { name: 'password', description: undefined, line: 2, secret: true },
      ],
    });
    assert.equal(b.settings.disabled, true);
    assert.deepEqual(unknownReferences(text, f, connectionVariables(E)), [], 'prompt names are known variables');
    const r = resolveRequest(f, a, ctx({ prompts: new Map([['customerId', '42'], ['password', 'p w']]) }), E);
    assert.equal(r.ok && r.request.url, `${E.baseUrl}/v1/customers/42?p=p w`);
  });

  it('refuses "# @disabled <expression>" (httpYac runs it as JavaScript) and a @prompt without a name, at their lines', () => {
    const f = parseRequestFile(file('# @disabled {{isProd}}', '# @prompt', 'GET {{baseUrl}}/v1/x'));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[1, 'error'], [2, 'error']]);
    assert.match(f.problems[0].message, /run no code/);
  });

  it('warns at a line that looks like a second request separated only by a blank line (httpYac)', () => {
    const f = parseRequestFile(file('GET {{baseUrl}}/v1/a', '', 'GET {{baseUrl}}/v1/b'));
    assert.deepEqual(problemsOf(f).map(([l, s]) => [l, s]), [[3, 'warning']]);
    assert.match(f.problems[0].message, /looks like a second request.*###/);
  });

  it('accepts every method either peer sends, and refuses other tokens and CONNECT at the request line', () => {
    for (const m of ['PROPFIND', 'MKCALENDAR', 'VERSION-CONTROL', 'report']) {
      const f = parseRequestFile(`${m} {{baseUrl}}/v1/x`);
      assert.deepEqual(f.problems, [], m);
      assert.equal(sent(resolveRequest(f, f.requests[0], ctx(), E)).method, m.toUpperCase());
    }
    for (const [m, says] of [['FETCH', /not a method REST Client or httpYac sends/], ['CONNECT', /opens a tunnel/]] as const) {
      const f = parseRequestFile(`${m} {{baseUrl}}/v1/x`);
      assert.deepEqual(problemsOf(f).map(([l]) => l), [1], m);
      assert.match(f.problems[0].message, says);
    }
  });
});
