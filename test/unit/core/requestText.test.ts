// Request files as they come from disk and from other programs: every line end, characters a
// request cannot carry, compressed and binary files, braces that open no variable, and long lines.
// Whatever the text, the parser answers with requests or with problems at lines, never an exception.
import * as assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { parseRequestFile, type ParsedRequestFile } from '../../../src/core/requests/requestFile';
import { requestFileText, splitLines } from '../../../src/core/requests/requestText';
import { cpuMs } from '../cpuTime';

const lineAndCode = (f: ParsedRequestFile) => f.problems.map((p) => [p.span.line, p.code, p.span.start]);

describe('request file text', () => {
  it('reads CR, CRLF and LF line ends alike, mixed too, with the same line numbers', () => {
    const lines = ['### one', 'GET {{baseUrl}}/v1/a', 'Authorization: Bearer x', '', '### two', '# @name second', 'POST {{baseUrl}}/v1/b', 'Content-Type: text/plain', '', 'body line 1', 'body line 2'];
    const lf = parseRequestFile(lines.join('\n'));
    for (const [eol, text] of [
      ['CR', lines.join('\r')],
      ['CRLF', lines.join('\r\n')],
      // (A CR then an empty line then LF would be one CRLF: the order here never writes that.)
      ['mixed', lines.map((l, i) => (i === lines.length - 1 ? l : l + ['\r\n', '\n', '\r'][i % 3])).join('')],
    ]) {
      const f = parseRequestFile(text);
      assert.equal(f.requests.length, 2, eol);
      assert.deepEqual(
        f.requests.map((r) => [r.name, r.method, r.url, r.requestLine, r.startLine, r.endLine, r.body]),
        lf.requests.map((r) => [r.name, r.method, r.url, r.requestLine, r.startLine, r.endLine, r.body]),
        eol,
      );
      assert.deepEqual(lineAndCode(f), [[2, 'credential-header', 0]], eol);
    }
    // A CR before a CRLF ends two lines, as in the editor.
    assert.deepEqual(splitLines('a\r\r\nb'), ['a', '', 'b']);
  });

  it('refuses U+2028 and U+2029 at their line and column, and still reads the rest', () => {
    const f = parseRequestFile(['GET {{baseUrl}}/v1/duns-search/ip/1.2.3.4\u2028x', '###', 'GET {{baseUrl}}/v1/b', 'X-Note: a\u2029b'].join('\n'));
    assert.deepEqual(lineAndCode(f), [
      [0, 'character', 41],
      [3, 'character', 9],
    ]);
    assert.equal(f.problems[0].severity, 'error');
    assert.match(f.problems[0].message, /^U\+2028 \(LINE SEPARATOR\) at column 42 looks like a line break .* Delete it, or put a real line break there\.$/);
    assert.match(f.problems[1].message, /U\+2029 \(PARAGRAPH SEPARATOR\)/);
    assert.deepEqual(
      f.requests.map((r) => r.requestLine),
      [0, 2],
    );
  });

  it('refuses a NUL byte, a control character and bytes that were not UTF-8, each at its line', () => {
    const f = parseRequestFile(['GET {{baseUrl}}/v1/a', 'X-A: x\0y', 'X-B: \x1b[31mred', 'X-C: \tM\ufffdller'].join('\n'));
    assert.deepEqual(lineAndCode(f), [
      [1, 'character', 6],
      [2, 'character', 5],
      [3, 'character', 7],
    ]);
    assert.match(f.problems[0].message, /A NUL byte \(U\+0000\) at column 7/);
    assert.match(f.problems[1].message, /control character U\+001B at column 6 cannot be part of a request/);
    assert.match(f.problems[2].message, /U\+FFFD at column 8 marks bytes that are not UTF-8 text\. Save the file as UTF-8/);
    // A Latin-1 file read as UTF-8: the byte that is not UTF-8 is named at its line.
    const latin1 = parseRequestFile(requestFileText(Buffer.from('GET {{baseUrl}}/v1/a\nX-Name: M\xfcller\n', 'latin1')));
    assert.deepEqual(lineAndCode(latin1), [[1, 'character', 9]]);
  });

  it('takes a compressed, UTF-16 or binary file for no request file: one problem, no request', () => {
    const request = 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7\nAccept: application/json\n';
    const gzip = parseRequestFile(requestFileText(gzipSync(request)));
    assert.deepEqual(gzip.requests, []);
    assert.deepEqual(gzip.variables, []);
    assert.deepEqual(lineAndCode(gzip), [[0, 'binary', 0]]);
    assert.match(gzip.problems[0].message, /^This file is not text: it is gzip-compressed\. .*decompress it first \(gunzip\)/);
    const utf16 = parseRequestFile(requestFileText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(request, 'utf16le')])));
    assert.deepEqual(lineAndCode(utf16), [[0, 'binary', 0]]);
    assert.match(utf16.problems[0].message, /UTF-16 .* save it as UTF-8/);
    // Text first, then binary: the problem is at the first line that is not text.
    const bytes = Buffer.alloc(600);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 73 + 11) % 256;
    const binary = parseRequestFile(requestFileText(Buffer.concat([Buffer.from('# notes\n# more\n'), bytes])));
    assert.deepEqual(binary.requests, []);
    assert.equal(binary.problems.length, 1);
    assert.deepEqual([binary.problems[0].code, binary.problems[0].span.line], ['binary', 2]);
    assert.match(binary.problems[0].message, /\d+ of its first \d+ characters are control characters or bytes that are not UTF-8/);
    // A byte order mark is no problem.
    assert.deepEqual(parseRequestFile(requestFileText(Buffer.from(`\ufeff###\n${request}`))).problems, []);
  });

  it('refuses a {{ that opens no variable at its line: request line, query line, header, body and variable', () => {
    const f = parseRequestFile(
      [
        '@ip = {{other',
        '# a comment may say {{ as it likes',
        'POST {{baseUrl}}/v1/duns-search/ip/{{ip',
        '    ?view={{view}&x=1',
        'X-Trace: {{$guid}} {{',
        '',
        '{"a": "{{}}", "b": {{ip}}}',
      ].join('\n'),
    );
    assert.deepEqual(lineAndCode(f), [
      [0, 'syntax', 6],
      [2, 'syntax', 35],
      [3, 'syntax', 10],
      [4, 'syntax', 19],
      [6, 'syntax', 7],
    ]);
    assert.match(f.problems[1].message, /^"\{\{" at column 36 opens a variable that is not closed on this line\. Write it as \{\{name\}\}/);
    assert.match(f.problems[4].message, /"\{\{\}\}" names no variable/);
    assert.equal(f.requests.length, 1);
  });

  it('reads a line of many thousand spaces in linear time', () => {
    const spaces = ' '.repeat(200_000);
    const { result: f, ms } = cpuMs(() => parseRequestFile([`@a = 1${spaces}2`, `# @name n${spaces}m`, `GET {{baseUrl}}/v1/a${spaces}b HTTP/1.1`, `X-A: x${spaces}y`].join('\n')));
    assert.ok(ms < 1000, `${ms} ms of CPU`);
    assert.equal(f.requests[0].url, `{{baseUrl}}/v1/a${spaces}b`);
    assert.equal(f.requests[0].headers[0].value, `x${spaces}y`);
    assert.equal(f.variables[0].value, `1${spaces}2`);
    assert.equal(f.requests[0].name, `n${spaces}m`);
  });
});
