// Where Paste curl as Request puts the request: never inside another request (its tail would be
// sent as a request of its own), with the ### separators the file then needs.
import * as assert from 'node:assert/strict';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { pastePlacement } from '../../../src/features/requestFiles/pastePlacement';

const NEW = ['POST {{baseUrl}}/v1/things', 'Content-Type: application/json', '', '{"a": 1}'];

/** The document with the placement applied, as the editor inserts it. */
function apply(doc: string, cursor: number): string {
  const p = pastePlacement(doc, parseRequestFile(doc), cursor, NEW);
  const lines = doc.split('\n');
  if (p.line >= lines.length) return doc + p.text;
  return [...lines.slice(0, p.line), ''].join('\n') + p.text + lines.slice(p.line).join('\n');
}

describe('paste placement', () => {
  it('writes the request alone into an empty file', () => {
    assert.equal(apply('', 0), `${NEW.join('\n')}\n`);
  });

  it('puts the request after the one the cursor is in, with a separator, and both read back whole', () => {
    const doc = ['### a', 'GET {{baseUrl}}/v1/a', 'Accept: */*', '', '### b', 'GET {{baseUrl}}/v1/b'].join('\n');
    const out = apply(doc, 2);
    const requests = parseRequestFile(out).requests;
    assert.deepEqual(requests.map((r) => [r.method, r.url, r.headers.length]), [['GET', '{{baseUrl}}/v1/a', 1], ['POST', '{{baseUrl}}/v1/things', 1], ['GET', '{{baseUrl}}/v1/b', 0]]);
    assert.equal(requests[1].body, '{"a": 1}');
  });

  it('appends after the last request of a file without a final line break', () => {
    const out = apply('GET {{baseUrl}}/v1/a', 0);
    assert.deepEqual(parseRequestFile(out).requests.map((r) => r.url), ['{{baseUrl}}/v1/a', '{{baseUrl}}/v1/things']);
  });

  it('puts it at the cursor between requests, separated from what follows', () => {
    const doc = ['###', '', '### b', 'GET {{baseUrl}}/v1/b', ''].join('\n');
    const out = apply(doc, 1);
    assert.deepEqual(parseRequestFile(out).requests.map((r) => r.url), ['{{baseUrl}}/v1/things', '{{baseUrl}}/v1/b']);
    assert.equal(out.split('\n')[1], NEW[0]);
  });
});
