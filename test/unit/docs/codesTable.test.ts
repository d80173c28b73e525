// The result-code tables of docs/troubleshooting.md are the catalog of src/core/codes, written out:
// this test builds them from BUILT_IN and compares, so a code added or reworded in the catalog fails
// here until the guide says the same (the message shows the table to paste).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeInfo } from '../../../src/core/codes/codeInfo';
import { BUILT_IN } from '../../../src/core/codes/codes';
import { CLIENT_DOES } from '../../../src/cli/explain';
import { ROOT } from './guides';

const BEGIN = '<!-- The tables below are the catalog of src/core/codes; test/unit/docs/codesTable.test.ts checks them. -->';
const END = '<!-- End of the catalog tables. -->';

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function specRow(c: CodeInfo): string {
  return `| \`${c.code}\` | ${cell(c.text)} | ${cell(c.meaning)} | ${cell(c.action)} | ${cell(CLIENT_DOES[c.recovery])} |`;
}

function serviceRow(c: CodeInfo): string {
  const text = c.unpublishedText ? `none published (shown when the answer has no text: "${cell(c.text)}")` : cell(c.text);
  return `| \`${c.code}\` | ${c.status ?? '—'} | ${text} | ${cell(c.meaning)} | ${cell(c.action)} | ${cell(CLIENT_DOES[c.recovery])} |`;
}

/** The tables as the guide must hold them. */
function catalogTables(): string {
  const spec = BUILT_IN.entries.filter((c) => c.source === 'spec');
  const service = BUILT_IN.entries.filter((c) => c.source === 'service');
  return [
    BEGIN,
    '',
    '### Codes of the specification',
    '',
    '| Code | Text (the specification\'s) | Meaning | What to do | What the client does |',
    '|---|---|---|---|---|',
    ...spec.map(specRow),
    '',
    '### Codes the service documents beyond the specification',
    '',
    '| Code | HTTP | Text | Meaning | What to do | What the client does |',
    '|---|---|---|---|---|---|',
    ...service.map(serviceRow),
    '',
    END,
  ].join('\n');
}

describe('docs: troubleshooting by result code', () => {
  it('lists every code of the catalog with its text, meaning, action and recovery, and no other', () => {
    const guide = readFileSync(join(ROOT, 'docs', 'troubleshooting.md'), 'utf8');
    const start = guide.indexOf(BEGIN);
    const end = guide.indexOf(END);
    assert.ok(start >= 0 && end > start, `docs/troubleshooting.md lacks the lines ${BEGIN} … ${END}`);
    assert.equal(guide.slice(start, end + END.length), catalogTables(), 'docs/troubleshooting.md: paste the expected tables');
    assert.ok(BUILT_IN.entries.length >= 20, 'the whole catalog');
  });
});
