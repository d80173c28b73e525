// The rules of a run are written once in the code (core/run/stops.ts) and quoted once in the docs
// (docs/request-files.md, "How a run decides"): each reason the code gives for stopping is there word
// for word, so the table cannot drift from what the engine does.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STOPPING, UNREACHABLE_STOPS } from '../../../src/core/run/stops';
import { ROOT } from './guides';

describe('docs/request-files.md quotes the run engine\'s stop table', () => {
  it('lists every failure that stops a run, in the words of stops.ts', () => {
    const text = readFileSync(join(ROOT, 'docs', 'request-files.md'), 'utf8');
    const section = text.slice(text.indexOf('## How a run decides'));
    assert.ok(section.length > 0 && text.includes('## How a run decides'));
    for (const [kind, why] of [...Object.entries(STOPPING), ['network', UNREACHABLE_STOPS]]) {
      assert.ok(section.includes(`| ${why} |`), `${kind}: "${why}" is not in the table`);
    }
  });
});
