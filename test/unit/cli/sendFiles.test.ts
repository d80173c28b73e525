// `bizdata send` (the built CLI) on request files as other programs leave them: classic CR line
// ends are read like LF; a line separator, a NUL byte, a compressed or binary file and a `{{` that
// opens no variable are refused with FILE:LINE and exit 2, and the sandbox receives nothing at all.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assertNoCanary, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv, runCli, type Run } from './cliHarness';

const IP_LOOKUP = 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard';
const ORG_SEARCH = 'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=US&SubjectName=Example%20Corp&match=true';

/** Matches a line that starts with `file:line: `, the place editors and CI jump to. */
const placed = (file: string, line: number): RegExp => new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: `, 'm');

describe('bizdata send on odd request files', () => {
  let sb: Sandbox | undefined;
  let dir: string;
  const outputs: string[] = [];
  const send = (file: string): Promise<Run> => runCli(['send', file], canaryEnv((sb as Sandbox).url), dir, outputs);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-send-'));
    sb = await sandbox();
  });

  afterEach(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  after(() => assertNoCanary(outputs));

  it('reads classic CR line ends, and CRLF, as LF: every request is sent', async () => {
    for (const eol of ['\r', '\r\n']) {
      const file = join(dir, `eol-${eol.length}.bizdata.http`);
      await writeFile(file, ['### ip', IP_LOOKUP, 'Accept: application/json', '', '### org', ORG_SEARCH, ''].join(eol));
      const r = await send(file);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /ip: GET .*\/duns-search\/ip\/203\.0\.113\.7\?view=standard -> 200/);
      assert.match(r.stderr, /org: GET .*organizations.* -> 200/);
    }
  });

  it('refuses each odd file at its line with exit 2, and nothing of it reaches the service', async () => {
    const random = Buffer.alloc(2000);
    for (let i = 0; i < random.length; i++) random[i] = (i * 131 + 7) % 256;
    const cases: ReadonlyArray<{ readonly name: string; readonly content: string | Buffer; readonly line: number; readonly says: RegExp }> = [
      { name: 'separator', content: `${IP_LOOKUP}\u2028x\n`, line: 1, says: /U\+2028 \(LINE SEPARATOR\) at column 70 .*Delete it/ },
      { name: 'paragraph', content: `### one\r${IP_LOOKUP}\r\r### two\r${ORG_SEARCH}\rX-Note: a\u2029b\r`, line: 6, says: /U\+2029 \(PARAGRAPH SEPARATOR\) at column 10/ },
      { name: 'nul', content: `${IP_LOOKUP}\nX-Trace: a\0b\n`, line: 2, says: /A NUL byte \(U\+0000\) at column 11: a request file is plain text\. Delete it\./ },
      { name: 'gzip', content: gzipSync(`${IP_LOOKUP}\n`), line: 1, says: /This file is not text: it is gzip-compressed\. .*decompress it first \(gunzip\)/ },
      { name: 'binary', content: Buffer.concat([Buffer.from('# notes\n'), random]), line: 2, says: /This file is not text: \d+ of its first \d+ characters are control characters or bytes that are not UTF-8/ },
      { name: 'latin1', content: Buffer.from(`${ORG_SEARCH.replace('Example%20Corp', 'M\xfcller')}\n`, 'latin1'), line: 1, says: /U\+FFFD at column \d+ marks bytes that are not UTF-8 text\. Save the file as UTF-8/ },
      { name: 'unclosed', content: `@ip = 203.0.113.7\n\nGET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip\n`, line: 3, says: /"\{\{" at column 45 opens a variable that is not closed on this line/ },
      // The first request is fine: the file's error in the second still stops both.
      { name: 'second', content: `${IP_LOOKUP}\n\n###\n${ORG_SEARCH}\nX-Trace: {{$guid\n`, line: 5, says: /"\{\{" at column 10 opens a variable/ },
      { name: 'body', content: `POST {{baseUrl}}/{{aVersion}}/things\nContent-Type: application/json\n\n{"name": "{{}}"}\n`, line: 4, says: /"\{\{\}\}" names no variable/ },
    ];
    const before = await sb?.stats();
    for (const c of cases) {
      const file = join(dir, `${c.name}.bizdata.http`);
      await writeFile(file, c.content);
      const r = await send(file);
      assert.equal(r.code, 2, `${c.name}: ${r.stderr}`);
      assert.equal(r.stdout, '', c.name);
      assert.match(r.stderr, /^bizdata send: nothing was sent: /, c.name);
      assert.match(r.stderr, placed(file, c.line), `${c.name}: ${r.stderr}`);
      assert.match(r.stderr, c.says, c.name);
      assert.doesNotMatch(r.stderr, /Cannot read properties|holds no request/, c.name);
    }
    const after = await sb?.stats();
    assert.equal(after?.requests, before?.requests, 'the sandbox received a request');
    assert.equal(after?.customers.acme?.tokenRequests ?? 0, 0, 'no sign-in either');
  });
});
