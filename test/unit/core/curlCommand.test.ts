// Pasted curl commands, written from curl's manual and from what browsers' "Copy as cURL" gives:
// each option read as curl reads it, bash and cmd.exe quoting, continuations, credentials dropped
// with a note, and a refusal (with what to write instead) for whatever would be sent otherwise.
import * as assert from 'node:assert/strict';
import { readCurlCommand } from '../../../src/core/requests/curlCommand';
import type { CurlReading, CurlRequest } from '../../../src/core/requests/curlReading';
import { cpuMs } from '../cpuTime';

function read(text: string): { request: CurlRequest; notes: ReadonlyArray<{ kind: string; message: string; written: string }> } {
  const r = readCurlCommand(text);
  if (!r.ok) assert.fail(`refused: ${r.message}`);
  return r;
}

function refusal(text: string): Extract<CurlReading, { ok: false }> {
  const r = readCurlCommand(text);
  if (r.ok) assert.fail(`read as ${JSON.stringify(r.request)}`);
  return r;
}

const headersOf = (r: CurlRequest) => r.headers.map((h) => [h.name, h.value]);

describe('curl command reader', () => {
  it('reads a GET with only a URL', () => {
    assert.deepEqual(read('curl https://api.example.com/v1/things?a=1').request, { method: 'GET', url: 'https://api.example.com/v1/things?a=1', headers: [], body: undefined });
  });

  it('reads -X, --request and the grouped short form -XPATCH', () => {
    assert.equal(read('curl -X PUT https://x.example.com/a').request.method, 'PUT');
    assert.equal(read('curl --request DELETE https://x.example.com/a').request.method, 'DELETE');
    assert.equal(read('curl -sSXPATCH https://x.example.com/a').request.method, 'PATCH');
  });

  it('reads -H and --header, with the value trimmed, and "Name;" as an empty header', () => {
    const r = read(`curl https://x.example.com -H 'Accept: application/json' --header "X-Trace:abc  " -H 'X-Empty;'`).request;
    assert.deepEqual(headersOf(r), [['Accept', 'application/json'], ['X-Trace', 'abc'], ['X-Empty', '']]);
  });

  it('reads -d as a form body sent with POST and joins several with &', () => {
    const r = read(`curl https://x.example.com/f -d 'a=1' --data b=2 --data-ascii c=3`).request;
    assert.equal(r.method, 'POST');
    assert.equal(r.body, 'a=1&b=2&c=3');
    assert.deepEqual(headersOf(r), [['Content-Type', 'application/x-www-form-urlencoded']]);
  });

  it('reads --data-raw and --data-binary as they are, keeping a given Content-Type and the line breaks inside quotes', () => {
    const r = read(`curl https://x.example.com/j -H 'Content-Type: application/json' --data-raw '{\n  "a": "@x"\n}'`).request;
    assert.equal(r.body, '{\n  "a": "@x"\n}');
    assert.deepEqual(headersOf(r), [['Content-Type', 'application/json']]);
    assert.equal(read(`curl https://x.example.com/j --data-binary 'x y'`).request.body, 'x y');
    assert.equal(read(`curl https://x.example.com/j --data-raw '@not-a-file'`).request.body, '@not-a-file');
  });

  it('encodes --data-urlencode as curl does, in each of its forms', () => {
    const r = read(`curl https://x.example.com/f --data-urlencode 'q=a b&c' --data-urlencode '=x/y' --data-urlencode "it's (*)!~"`).request;
    assert.equal(r.body, "q=a%20b%26c&x%2Fy&it%27s%20%28%2A%29%21~");
  });

  it('reads --json: the body as is, with JSON Content-Type and Accept unless given', () => {
    const r = read(`curl --json '{"a":1}' https://x.example.com/j`).request;
    assert.deepEqual([r.method, r.body], ['POST', '{"a":1}']);
    assert.deepEqual(headersOf(r), [['Content-Type', 'application/json'], ['Accept', 'application/json']]);
    const own = read(`curl --json '{"a":1}' -H 'Accept: text/plain' https://x.example.com/j`).request;
    assert.deepEqual(headersOf(own), [['Accept', 'text/plain'], ['Content-Type', 'application/json']]);
  });

  it('reads -G: the data goes into the query of a GET', () => {
    const r = read(`curl -G https://x.example.com/s?x=1 -d q=acme --data-urlencode 'n=a b'`).request;
    assert.deepEqual([r.method, r.url, r.body], ['GET', 'https://x.example.com/s?x=1&q=acme&n=a%20b', undefined]);
    assert.deepEqual(r.headers, []);
  });

  it('reads -I as HEAD, --url, -A, -e and a -b cookie string as headers', () => {
    const r = read(`curl -I --url https://x.example.com/a -A 'agent/1' -e https://ref.example.com -b 'a=1; b=2'`).request;
    assert.deepEqual([r.method, r.url], ['HEAD', 'https://x.example.com/a']);
    assert.deepEqual(headersOf(r), [['User-Agent', 'agent/1'], ['Referer', 'https://ref.example.com'], ['Cookie', 'a=1; b=2']]);
  });

  it('skips options about the answer only, and notes those the client does its own way', () => {
    const r = read(`curl -sSLk --compressed -o out.json -w '%{http_code}' --max-time 5 https://x.example.com/a`);
    assert.equal(r.request.url, 'https://x.example.com/a');
    assert.deepEqual(r.notes.map((n) => [n.kind, n.written]), [['ignored', '-sSLk'], ['ignored', '-sSLk']]);
    assert.match(r.notes[0].message, /redirects are never followed/);
    assert.match(r.notes[1].message, /certificates are always checked/);
  });

  it('joins bash continuation lines, also with CRLF line ends', () => {
    const text = "curl -X POST \\\n  'https://x.example.com/a' \\\r\n  -H 'A: 1' \\\n  -d 'x'";
    const r = read(text).request;
    assert.deepEqual([r.method, r.url, r.body], ['POST', 'https://x.example.com/a', 'x']);
    assert.deepEqual(headersOf(r)[0], ['A', '1']);
  });

  it('keeps a backslash and line break inside single quotes, as bash does', () => {
    assert.equal(read("curl https://x.example.com -d 'a\\\nb'").request.body, 'a\\\nb');
    assert.equal(read('curl https://x.example.com -d "a\\\nb"').request.body, 'ab');
  });

  it("reads bash quoting: double quotes with escapes, $'…' with escapes, words joined from parts", () => {
    const r = read(`curl https://x.example.com -H "X-Q: say \\"hi\\" \\$5" --data-raw $'{"it\\'s":"a\\nb"}' -H X-A:'b c'"d"`).request;
    assert.deepEqual(headersOf(r).slice(0, 2), [['X-Q', 'say "hi" $5'], ['X-A', 'b cd']]);
    assert.equal(r.body, `{"it's":"a\nb"}`);
  });

  it('reads a cmd.exe command as browsers copy it (^ escapes, ^ continuations, \\" quotes)', () => {
    const text = [
      'curl ^"https://x.example.com/a?b=1^&c=2^" ^',
      '  -H ^"content-type: application/json^" ^',
      '  --data-raw ^"^{^\\^"name^\\^":^\\^"A ^& B^\\^"^}^"',
    ].join('\r\n');
    const r = read(text).request;
    assert.deepEqual([r.method, r.url, r.body], ['POST', 'https://x.example.com/a?b=1&c=2', '{"name":"A & B"}']);
    assert.deepEqual(headersOf(r), [['content-type', 'application/json']]);
  });

  it('reads a bash command with a ^ at a line end inside quotes as bash', () => {
    assert.equal(read("curl https://x.example.com \\\n  --data-raw 'a^\nb'").request.body, 'a^\nb');
  });

  it('reads percent signs as browsers escape them for cmd.exe (%^), which names no variable', () => {
    const r = read('curl ^"https://x.example.com/a^%^E2^%^80^%^99?q=^%^20^" ^\n  -H ^"X-A: 1^"').request;
    assert.equal(r.url, 'https://x.example.com/a%E2%80%99?q=%20');
  });

  it('reads a cmd.exe command with plain double quotes and a ^ continuation', () => {
    const r = read('curl.exe -X POST "https://x.example.com/a" ^\n  -H "X-A: 1" -d "{\\"a\\": 1}"').request;
    assert.deepEqual([r.method, r.body], ['POST', '{"a": 1}']);
  });

  it('keeps {{variables}} of a request file as they are, even with spaces inside', () => {
    const r = read(`curl {{baseUrl}}/v1/x/{{$randomInt 1 9}} -H 'X-Id: {{id}}'`).request;
    assert.deepEqual([r.url, headersOf(r)], ['{{baseUrl}}/v1/x/{{$randomInt 1 9}}', [['X-Id', '{{id}}']]]);
  });

  it('reads long commands in time linear in their length', () => {
    for (const filler of ['{', '\\\n', '"', 'x'.repeat(10) + ' ', '^']) {
      const { ms } = cpuMs(() => readCurlCommand(`curl https://x.example.com -d ${filler.repeat(200_000 / filler.length)}`));
      assert.ok(ms < 2000, `${JSON.stringify(filler)}: ${ms} ms of CPU`);
    }
  });

  describe('drops credentials with a note', () => {
    it('-u and --user', () => {
      for (const opt of ['-u', '--user']) {
        const r = read(`curl ${opt} me:secret https://x.example.com/a`);
        assert.equal(JSON.stringify(r.request).includes('secret'), false);
        assert.deepEqual(r.notes.map((n) => [n.kind, n.written]), [['credential', opt]]);
        assert.match(r.notes[0].message, /signed-in account's token is added/);
      }
    });

    it('the Authorization and the service credential headers, in any case', () => {
      const r = read(`curl https://x.example.com -H 'authorization: Bearer abc' -H 'x-svc-user: u' -H 'X-SVC-PWD: p' -H 'Proxy-Authorization: Basic z' -H 'Accept: */*'`);
      assert.deepEqual(headersOf(r.request), [['Accept', '*/*']]);
      assert.deepEqual(r.notes.map((n) => n.written), ['authorization', 'x-svc-user', 'X-SVC-PWD', 'Proxy-Authorization']);
    });

    it('--oauth2-bearer, --basic, --digest, -n and a user and password in the URL', () => {
      const r = read(`curl --basic --oauth2-bearer tok -n https://me:pw@x.example.com/a`);
      assert.equal(r.request.url, 'https://x.example.com/a');
      assert.deepEqual(r.notes.map((n) => [n.kind, n.written]), [['credential', '--basic'], ['credential', '--oauth2-bearer'], ['credential', '-n'], ['credential', 'me:pw@']]);
    });
  });

  describe('refuses what would be sent otherwise, saying what to write', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['a file body (-d @)', `curl https://x.example.com -d @body.json`, /line breaks removed.*--data-binary/],
      ['a file body (--data-binary @)', `curl https://x.example.com --data-binary @body.json`, /body line "< body\.json"/],
      ['a file for --json', `curl https://x.example.com --json @b.json`, /< b\.json/],
      ['a file for --data-urlencode', `curl https://x.example.com --data-urlencode name@f.txt`, /reads a file/],
      ['a multipart form', `curl https://x.example.com -F 'f=@a.png'`, /multipart/],
      ['an upload', `curl -T a.bin https://x.example.com`, /< \.\/file/],
      ['headers from a file', `curl -H @headers.txt https://x.example.com`, /each header with its own -H/],
      ['a header curl would leave out', `curl -H 'Accept:' https://x.example.com`, /leave out a header/],
      ['the Host header', `curl -H 'Host: other.example.com' https://x.example.com`, /set by the client/],
      ['a header given twice', `curl -H 'X-A: 1' -H 'x-a: 2' https://x.example.com`, /given twice/],
      ['a shell variable', `curl -H "X-Key: $API_KEY" https://x.example.com`, /\$API_KEY is a shell variable/],
      ['a braced shell variable', `curl "\${HOST}/a"`, /\$HOST is a shell variable/],
      ['command substitution', 'curl https://x.example.com -d "$(cat f)"', /runs a command inside/],
      ['backticks', 'curl https://x.example.com -d "`cat f`"', /backtick/],
      ['an unquoted &', `curl https://x.example.com/a?b=1&c=2`, /unquoted & ends the command/],
      ['a pipe', `curl https://x.example.com | jq .`, /without pipes/],
      ['a redirection', `curl https://x.example.com > out.txt`, /without pipes, redirections/],
      ['a second command on the next line', `curl https://x.example.com\n-H 'A: b'`, /not joined to the one before it.*backslash/],
      ['brace expansion', `curl https://x.example.com/{a,b}`, /expands \{a,b\}/],
      ['curl URL globbing', `curl 'https://x.example.com/item[1-3]'`, /ranges and lists.*--globoff/],
      ['two URLs', `curl https://x.example.com/a https://x.example.com/b`, /2 URLs/],
      ['no URL', `curl -X GET`, /no URL/],
      ['a URL without a scheme', `curl x.example.com/a`, /no scheme/],
      ['an unclosed quote', `curl 'https://x.example.com`, /never closed/],
      ['an option not known here', `curl --proto-redir =https https://x.example.com`, /not read here/],
      ['a short option not known here', `curl -z file https://x.example.com`, /"-z" is an option/],
      ['--opt=value, which curl does not read', `curl --data=a https://x.example.com`, /next word/],
      ['a lower-case method', `curl -X post https://x.example.com`, /capital letters \(-X POST\)/],
      ['a cmd.exe variable', 'curl "https://x.example.com/%HOST%" ^\n -d a', /%HOST% is a cmd\.exe variable/],
      ['not a curl command', `wget https://x.example.com`, /should start with "curl"/],
      ['--json with -d', `curl --json '{}' -d a https://x.example.com`, /use one of them/],
    ];
    for (const [what, text, expected] of cases) {
      it(what, () => assert.match(refusal(text).message, expected));
    }

    it('never echoes what may be a credential in a refusal', () => {
      for (const text of [`curl me:s3cret@x.example.com/a`, `curl -H 'Bearer s3cret' https://x.example.com`, `curl https://me:s3cret@x.example.com/a https://x.example.com/b`]) {
        assert.doesNotMatch(refusal(text).message, /s3cret/);
      }
    });

    it('names the option as written, to find its line', () => {
      assert.equal(refusal(`curl https://x.example.com \\\n  -F 'a=b'`).written, '-F');
    });
  });
});
