// Requests from elsewhere as request files of this project: service hosts become the connection's
// variables, credentials go, curl commands become requests, and whatever a request file would read
// otherwise is refused. The files are written from REST Client's and httpYac's documentation.
import * as assert from 'node:assert/strict';
import type { Endpoints } from '../../../src/core/model';
import { readCurlCommand } from '../../../src/core/requests/curlCommand';
import { convertRequestFile, withServiceVariables, writeRequest } from '../../../src/core/requests/requestConversion';
import { parseRequestFile } from '../../../src/core/requests/requestFile';

const SERVICE: Endpoints = {
  authUrl: 'https://auth.example.com',
  baseUrl: 'https://plus.example.com/api/',
  legacyUrl: 'https://legacy.example.com',
  origin: 'https://app.example.com',
  authVersion: 'V2.0',
  orgVersion: 'V4.0',
};
const SANDBOX: Endpoints = { ...SERVICE, authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080' };

function curl(text: string) {
  const r = readCurlCommand(text);
  if (!r.ok) assert.fail(r.message);
  return r.request;
}

describe('request conversion', () => {
  describe('service hosts as connection variables', () => {
    it('replaces each service address, its path included, and leaves other hosts alone', () => {
      assert.equal(withServiceVariables('https://plus.example.com/api/v1/x?y=1', SERVICE), '{{baseUrl}}/v1/x?y=1');
      assert.equal(withServiceVariables('https://PLUS.example.com:443/api', SERVICE), '{{baseUrl}}');
      assert.equal(withServiceVariables('https://legacy.example.com/V4.0/organizations', SERVICE), '{{legacyUrl}}/V4.0/organizations');
      assert.equal(withServiceVariables('https://auth.example.com/v1/token', SERVICE), '{{authUrl}}/v1/token');
      assert.equal(withServiceVariables('https://plus.example.com/apix', SERVICE), 'https://plus.example.com/apix');
      assert.equal(withServiceVariables('https://other.example.com/api/v1', SERVICE), 'https://other.example.com/api/v1');
      assert.equal(withServiceVariables('http://plus.example.com/api/v1', SERVICE), 'http://plus.example.com/api/v1');
    });

    it('chooses by the path where the addresses share a host, as the sandbox does', () => {
      assert.equal(withServiceVariables('http://127.0.0.1:8080/v1/token', SANDBOX), '{{authUrl}}/v1/token');
      assert.equal(withServiceVariables('http://127.0.0.1:8080/v1/duns-search/ip/1.2.3.4', SANDBOX), '{{baseUrl}}/v1/duns-search/ip/1.2.3.4');
      assert.equal(withServiceVariables('http://127.0.0.1:8080/V4.0/organizations', SANDBOX), '{{legacyUrl}}/V4.0/organizations');
    });
  });

  describe('a curl command written as a request', () => {
    it('writes the method, the URL with its variable, the headers and the body, and the parser reads the same back', () => {
      const r = curl(`curl 'https://plus.example.com/api/v1/things' -H 'X-A: 1' --json '{\n  "a": 1\n}'`);
      const w = writeRequest(r, SERVICE);
      assert.ok(w.ok);
      assert.deepEqual(w.lines, ['POST {{baseUrl}}/v1/things', 'X-A: 1', 'Content-Type: application/json', 'Accept: application/json', '', '{', '  "a": 1', '}']);
      const back = parseRequestFile(w.lines.join('\n')).requests[0];
      assert.deepEqual([back.method, back.url, back.body, back.headers.map((h) => [h.name, h.value])], ['POST', '{{baseUrl}}/v1/things', r.body, r.headers.map((h) => [h.name, h.value])]);
    });

    const refused: Array<[string, string, RegExp]> = [
      ['a body ending with a line break', `curl https://x.example.com -d $'a=1\\n'`, /ends with a line break/],
      ['a body line starting with ###', `curl https://x.example.com --data-raw $'x\\n### y'`, /starts with ###/],
      ['a body line a request file reads as a comment', `curl https://x.example.com --data-raw $'{\\n# x\\n}'`, /as a comment/],
      ['a body line a request file reads as a file', `curl https://x.example.com --data-raw $'< ./secret.txt'`, /as a file to send/],
      ['a body with carriage returns', `curl https://x.example.com --data-raw $'a\\r\\nb'`, /carriage returns/],
      ['a form body a request file would percent-encode', `curl https://x.example.com -d 'a=b c'`, /percent-encodes/],
      ['a GraphQL header a request file would act on', `curl https://x.example.com -H 'X-Request-Type: GraphQL' -H 'Content-Type: application/json' -d '{"query": "{ a }"}'`, /GraphQL/],
      ['newline-delimited JSON, which a request file ends with one more line break', `curl https://x.example.com -H 'Content-Type: application/x-ndjson' -d '{"a": 1}'`, /would send it otherwise/],
      ['a form body over several lines', `curl https://x.example.com -d $'a=1\\nb=2'`, /x-www-form-urlencoded body spans several lines/],
    ];
    for (const [what, text, expected] of refused) {
      it(`refuses ${what}`, () => {
        const w = writeRequest(curl(text), SERVICE);
        assert.equal(w.ok, false);
        if (!w.ok) assert.match(w.message, expected);
      });
    }
  });

  describe('a peer file converted', () => {
    it('replaces hosts, removes credential lines and the variables only they used, converts curl blocks, and lists every change', () => {
      const text = [
        '@baseUrl = https://plus.example.com/api',
        '@legacy = https://legacy.example.com/V4.0',
        '@token = abc123',
        '',
        '### ip',
        'GET https://plus.example.com/api/v1/duns-search/ip/203.0.113.7?view=standard HTTP/1.1',
        'Authorization: Bearer {{token}}',
        'Accept: application/json',
        '',
        '### org',
        'GET {{legacy}}/organizations?SubjectName={{company}}&key={{$dotenv API_KEY}}&h={{$processEnv HOME}}',
        'x-svc-user: me',
        'x-svc-pwd: {{$dotenv PASSWORD}}',
        '',
        '### from curl',
        "curl -u me:pw 'https://plus.example.com/api/v1/things' \\",
        "  --json '{\"a\": 1}'",
        '',
        '### left alone',
        "curl https://plus.example.com/api/v1/upload -F 'f=@a.png'",
        '',
      ].join('\r\n');
      const c = convertRequestFile(text, SERVICE);
      assert.equal(
        c.text,
        [
          '@legacy = {{legacyUrl}}/V4.0',
          '',
          '### ip',
          'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard HTTP/1.1',
          'Accept: application/json',
          '',
          '### org',
          'GET {{legacy}}/organizations?SubjectName={{company}}&key={{$dotenv API_KEY}}&h={{$processEnv HOME}}',
          '',
          '### from curl',
          'POST {{baseUrl}}/v1/things',
          'Content-Type: application/json',
          'Accept: application/json',
          '',
          '{"a": 1}',
          '',
          '### left alone',
          "curl https://plus.example.com/api/v1/upload -F 'f=@a.png'",
          '',
        ].join('\r\n'),
      );
      const at = (line: number) => c.changes.filter((x) => x.line === line).map((x) => x.message);
      assert.match(at(0)[0], /Removed @baseUrl: the connection's \{\{baseUrl\}\} takes its place/);
      assert.match(at(1)[0], /In @legacy, the service's address became \{\{legacyUrl\}\}/);
      assert.match(at(2)[0], /Removed @token: only the credential lines removed here used it/);
      assert.match(at(5)[0], /became \{\{baseUrl\}\}/);
      assert.match(at(6)[0], /Removed the Authorization header/);
      assert.match(at(10)[0], /\{\{company\}\} is not defined in the file.*"@company = …"/);
      assert.match(at(11)[0], /Removed the x-svc-user header/);
      assert.match(at(12)[0], /Removed the x-svc-pwd header/);
      assert.deepEqual(at(15).length, 2);
      assert.match(at(15)[0], /curl command became a request/);
      assert.match(at(15)[1], /-u is dropped/);
      assert.match(at(19)[0], /Left as it was: .*multipart/);
      // Nothing of the credentials is left in the file or the summary.
      assert.equal(/abc123|me:pw|x-svc/i.test(c.text + JSON.stringify(c.changes.filter((x) => !/header/.test(x.message)))), false);
    });

    it("separates httpYac's requests that only a blank line separates", () => {
      const c = convertRequestFile(['GET https://plus.example.com/api/v1/a', '', 'GET https://plus.example.com/api/v1/b', ''].join('\n'), SERVICE);
      assert.equal(c.text, ['GET {{baseUrl}}/v1/a', '', '###', 'GET {{baseUrl}}/v1/b', ''].join('\n'));
      assert.deepEqual(parseRequestFile(c.text).requests.map((r) => r.url), ['{{baseUrl}}/v1/a', '{{baseUrl}}/v1/b']);
      assert.match(c.changes.find((x) => x.line === 2)?.message ?? '', /Added a "###" line/);
    });

    it('leaves a file without service hosts or credentials as it was, with nothing to report', () => {
      const text = '### a\nGET {{baseUrl}}/v1/x\nAccept: */*\n';
      assert.deepEqual(convertRequestFile(text, SERVICE), { text, changes: [] });
    });
  });
});
