// Completion in request files, from the text and the cursor alone: what is offered and which columns
// it replaces, in each place of the .http syntax.
import * as assert from 'node:assert/strict';
import { COUNTRIES } from '../../../src/core/protocol/countries';
import type { Endpoints } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { connectionVariables } from '../../../src/core/requests/requestVariables';
import { completeRequestFile, type Suggestion } from '../../../src/features/requestFiles/requestCompletions';

const SANDBOX: Endpoints = { authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080', origin: 'https://localhost', authVersion: 'V2.0', orgVersion: 'V4.0' };
const CONNECTION = connectionVariables(SANDBOX);

/** Completes where `|` stands in the text (the bar is removed first). */
function complete(textWithCursor: string): Suggestion[] {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1);
  const before = text.slice(0, offset).split('\n');
  return completeRequestFile(text, parseRequestFile(text), before.length - 1, before[before.length - 1].length, CONNECTION);
}

const labels = (s: readonly Suggestion[]): string[] => s.map((x) => x.label);

describe('request file completion', () => {
  it('offers the connection, file, system and chained variables inside {{ }}', () => {
    const s = complete(['@ip = 203.0.113.7', '### first', '# @name login', 'GET {{baseUrl}}/v1/x', '###', 'GET {{|'].join('\n'));
    const names = labels(s);
    for (const v of ['baseUrl', 'authUrl', 'legacyUrl', 'origin', 'aVersion', 'authVersion', 'orgVersion', 'ip', '$guid', '$timestamp', '$isoTimestamp']) assert.ok(names.includes(v), v);
    assert.ok(names.includes('login.response.body.$'));
    assert.ok(names.includes('login.response.headers.Content-Type'));
    const base = s.find((x) => x.label === 'baseUrl');
    assert.deepEqual([base?.insertText, base?.start, base?.end, base?.detail], ['baseUrl}}', 6, 6, 'http://127.0.0.1:8080']);
    assert.equal(s.find((x) => x.label === 'ip')?.detail, '203.0.113.7');
  });

  it('replaces a half-typed name up to the closing braces, and never offers a request its own response', () => {
    const s = complete(['# @name self', 'GET {{bas|eUrl}}/v1/x'].join('\n'));
    const base = s.find((x) => x.label === 'baseUrl');
    assert.deepEqual([base?.insertText, base?.start, base?.end], ['baseUrl}}', 6, 15]);
    assert.ok(!labels(s).some((l) => l.startsWith('self.')));
  });

  it('offers the two known operations and the methods on an empty request line', () => {
    const s = complete(['# @name x', '|'].join('\n'));
    assert.deepEqual(labels(s).slice(0, 2), ['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/', 'GET {{legacyUrl}}/{{orgVersion}}/organizations']);
    assert.ok(s[0].snippet && s[0].insertText.includes('${1:203.0.113.7}'));
    assert.ok(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].every((m) => labels(s).includes(m)));
  });

  it('offers host variables after the method, then the known paths of that host', () => {
    assert.deepEqual(labels(complete('GET |')), ['{{baseUrl}}', '{{legacyUrl}}', '{{authUrl}}']);
    const a = complete('GET {{baseUrl}}/|');
    assert.deepEqual(labels(a), ['/{{aVersion}}/duns-search/ip/']);
    assert.deepEqual([a[0].start, a[0].end], [15, 16]);
    assert.deepEqual(labels(complete('GET {{legacyUrl}}|')), ['/{{orgVersion}}/organizations']);
    // A literal address of the sandbox serves both interfaces.
    assert.deepEqual(labels(complete('GET http://127.0.0.1:8080/|')).sort(), ['/{{aVersion}}/duns-search/ip/', '/{{orgVersion}}/organizations']);
  });

  it('offers the query parameters not written yet, then their values, on the request line', () => {
    const names = complete('GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=GB&|');
    assert.deepEqual(labels(names), ['SubjectName', 'match', 'MatchTypeText', 'TerritoryName']);
    assert.equal(names[0].insertText, 'SubjectName=');
    assert.equal(names.find((x) => x.label === 'match')?.retrigger, true);
    assert.deepEqual(labels(complete('GET {{baseUrl}}/{{aVersion}}/duns-search/ip/1.2.3.4?view=|')), ['standard']);
    assert.deepEqual(labels(complete('GET {{baseUrl}}/{{aVersion}}/duns-search/ip/1.2.3.4?|')), ['view']);
  });

  it('offers the ISO country list for CountryISOAlpha2Code, on a continuation line too', () => {
    const s = complete(['GET {{legacyUrl}}/{{orgVersion}}/organizations', '    ?SubjectName=Acme', '    &CountryISOAlpha2Code=G|'].join('\n'));
    assert.equal(s.length, COUNTRIES.length);
    const gb = s.find((x) => x.label === 'GB');
    assert.deepEqual([gb?.detail, gb?.start, gb?.end], ['United Kingdom', 26, 27]);
    const next = complete(['GET {{legacyUrl}}/{{orgVersion}}/organizations', '    ?SubjectName=Acme', '    &|'].join('\n'));
    assert.ok(!labels(next).includes('SubjectName'));
    assert.ok(labels(next).includes('CountryISOAlpha2Code'));
  });

  it('offers no parameters for an operation it does not know', () => {
    assert.deepEqual(complete('GET {{baseUrl}}/v1/other/thing?|'), []);
  });

  it('offers headers (never a credential header) below the request line, then their values', () => {
    const s = complete(['GET {{baseUrl}}/v1/x', 'Accept: application/json', 'Con|'].join('\n'));
    const names = labels(s);
    assert.ok(names.includes('Content-Type') && names.includes('Accept'));
    for (const managed of ['Authorization', 'x-svc-user', 'x-svc-pwd', 'Origin']) assert.ok(!names.some((n) => n.toLowerCase() === managed.toLowerCase()), managed);
    assert.equal(s.find((x) => x.label === 'Content-Type')?.insertText, 'Content-Type: ');
    const indented = complete(['GET {{legacyUrl}}/{{orgVersion}}/organizations', '    ?match=true', '    Acc|'].join('\n'));
    assert.deepEqual([indented.find((x) => x.label === 'Accept')?.start, indented[0].end], [4, 7]);
    const values = complete(['POST {{baseUrl}}/v1/x', 'Content-Type: |'].join('\n'));
    assert.ok(labels(values).includes('application/json'));
    assert.equal(values[0].start, 14);
  });

  it('offers nothing in a body, and nothing on a separator', () => {
    assert.deepEqual(complete(['POST {{baseUrl}}/v1/x', '', '{ "a": |'].join('\n')), []);
    assert.deepEqual(complete(['GET {{baseUrl}}/v1/x', '###|'].join('\n')), []);
  });

  it('offers the meta keys after "# @", and a or b after "# @interface"', () => {
    assert.deepEqual(labels(complete('# @|')), ['name', 'interface', 'snapshot-ignore']);
    assert.deepEqual(labels(complete('# @interface |')), ['a', 'b']);
    // A snippet: the JSONPath's $ is written as itself, the path is the placeholder.
    const ignore = complete('# @snap|').find((x) => x.label === 'snapshot-ignore');
    assert.deepEqual([ignore?.insertText, ignore?.snippet, ignore?.start, ignore?.end], ['snapshot-ignore \\$.${1:path}', true, 3, 7]);
  });

  it('offers what an assertion checks after "??", schema and snapshot among them, and nothing after its subject', () => {
    const s = complete(['GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8', '', '?? |'].join('\n'));
    assert.deepEqual(labels(s), ['status', 'header', 'body', 'code', 'duration', 'schema', 'snapshot']);
    const schema = s.find((x) => x.label === 'schema');
    assert.deepEqual([schema?.insertText, schema?.start, schema?.end], ['schema ./${1:answer}.schema.json', 3, 3]);
    assert.deepEqual(labels(complete(['GET {{baseUrl}}/v1/x', '?? sn|'].join('\n'))), labels(s), 'a half-typed subject is replaced');
    assert.equal(complete(['GET {{baseUrl}}/v1/x', '?? sn|'].join('\n'))[0].start, 3);
    assert.deepEqual(complete(['GET {{baseUrl}}/v1/x', '?? status |'].join('\n')), []);
  });
});
