// Property tests: whatever a request file holds (random bytes, random characters, random mixes of
// the syntax with odd line ends and stray braces), the parser, the problems, completion, the
// CodeLens interface and preparing a request to send answer with data, never an exception; every
// problem is at a line of the file; and a request made ready to send carries no character no
// request can carry. fast-check prints the seed and the smallest failing file when one fails.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { Endpoints } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { requestFileText, splitLines, type LineSpan } from '../../../src/core/requests/requestText';
import { connectionVariables } from '../../../src/core/requests/requestVariables';
import { likelyInterface } from '../../../src/features/requestFiles/requestChoice';
import { prepareWithoutFiles } from '../../../src/core/run/prepare';
import { completeRequestFile } from '../../../src/features/requestFiles/requestCompletions';
import { requestFileProblems } from '../../../src/core/run/fileChecks';

const SANDBOX: Endpoints = { authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080', origin: 'https://localhost', authVersion: 'V2.0', orgVersion: 'V4.0' };
// Control characters but tab, DEL, C1, U+2028/U+2029, U+FFFD, and line breaks.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_SENDABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufffd]/;

function assertSpan(span: LineSpan, lines: readonly string[], what: string): void {
  assert.ok(Number.isInteger(span.line) && span.line >= 0 && span.line < lines.length, `${what}: line ${span.line} of ${lines.length}`);
  assert.ok(Number.isInteger(span.start) && span.start >= 0 && span.start <= lines[span.line].length, `${what}: start ${span.start}`);
  assert.ok(Number.isInteger(span.end) && span.end > span.start, `${what}: end ${span.end}`);
}

/** Everything the editor and the CLI do with a file before sending, checked for totality. */
function readsTotally(text: string): void {
  const lines = splitLines(text);
  const file = parseRequestFile(text);
  for (const p of file.problems) {
    assertSpan(p.span, lines, p.code);
    assert.ok(p.message.length > 0);
  }
  for (const r of file.requests) {
    assert.ok(r.startLine <= r.requestLine && r.requestLine <= r.endLine && r.endLine < lines.length, JSON.stringify(r));
    likelyInterface(file, r, SANDBOX);
    const prepared = prepareWithoutFiles(file, r, SANDBOX, new Map());
    if (!prepared.ok) {
      assert.ok(prepared.line >= 0 && prepared.line < lines.length, `refused at line ${prepared.line}`);
      continue;
    }
    const { url, headers } = prepared.request;
    for (const value of [url, ...Object.values(headers)]) assert.doesNotMatch(value, NOT_SENDABLE, 'a request ready to send');
  }
  for (const p of requestFileProblems(text, SANDBOX, file)) assertSpan(p.span, lines, p.code);
  const connection = connectionVariables(SANDBOX);
  lines.forEach((line, i) => {
    completeRequestFile(text, file, i, line.length, connection);
    completeRequestFile(text, file, i, Math.floor(line.length / 2), connection);
  });
  assert.deepEqual(completeRequestFile(text, file, lines.length + 1, 0, connection), [], 'a line the text does not have');
}

/** Pieces of the syntax, odd characters and stray braces, to put together at random. */
const PIECES = [
  '###',
  '### title',
  '# @name first',
  '// @name = second',
  '# @interface a',
  '# @interface x',
  '@v = {{w}}',
  '@w = 1',
  '@a = {{a}}',
  '@u = {{',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{v}}',
  'POST {{legacyUrl}}/{{orgVersion}}/organizations HTTP/1.1',
  'FETCH x',
  'https://elsewhere.example.net/x',
  '    ?CountryISOAlpha2Code=GB',
  '    &SubjectName={{first.response.body.$.a[0]}}',
  'Accept: application/json',
  'Authorization: Bearer x',
  'X-Chained: {{first.response.headers.constructor}}',
  'not a header',
  '{"a": {{v}}}',
  '{{',
  '}}',
  '{{}}',
  '{{ v }}',
  '',
  ' ',
  '\t',
  '\u2028',
  '\u2029',
  '\0',
  '\x1b[2J',
  '\ufffd',
  '\ufeff',
  '\ud800',
];
const LINE_ENDS = ['\n', '\r', '\r\n', '\u2028', ''];
const anyChar = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

describe('request files are read totally', () => {
  it('any characters', () => {
    fc.assert(fc.property(fc.string({ unit: anyChar, maxLength: 300 }), readsTotally), { numRuns: 300 });
  });

  it('any bytes, read as the CLI reads a file', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => readsTotally(requestFileText(bytes))),
      { numRuns: 300 },
    );
  });

  it('random mixes of the syntax, odd characters and line ends', () => {
    const line = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ unit: anyChar, maxLength: 12 }) });
    const piece = fc.tuple(fc.array(line, { minLength: 1, maxLength: 3 }), fc.constantFrom(...LINE_ENDS)).map(([parts, end]) => parts.join('') + end);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => readsTotally(pieces.join(''))),
      { numRuns: 500 },
    );
  });
});
