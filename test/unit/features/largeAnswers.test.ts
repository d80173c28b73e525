// A request's answer as the history keeps it: small ones cleaned on the thread, large ones
// pretty-printed on the worker (dist/scanWorker.js) and cleaned slice by slice; never a secret.
import * as assert from 'node:assert/strict';
import type { CallSuccess } from '../../../src/core/model';
import { redact } from '../../../src/core/redact';
import { PARSE_IN_HOST_BYTES } from '../../../src/features/connection/settings';
import { readyAnswer } from '../../../src/features/results/largeAnswers';
import { chainedAnswer } from '../../../src/core/run/chain';
import { useScanner } from './scannerWorker';

const TOKEN = 'sbx.canary-token-0123456789abcdefghij';
const clean = (text: string): string => redact(text, [TOKEN]);

function success(part: Partial<CallSuccess>): CallSuccess {
  return { ok: true, status: 200, body: undefined, durationMs: 1, request: { method: 'GET', url: 'https://api.example.com/v1/x', headers: {} }, ...part };
}

describe('answers of request files for the history', () => {
  const worker = useScanner();

  it('replaces an echoed secret in a small parsed body and a small text', async () => {
    const scanner = worker();
    const body = await readyAnswer(success({ body: { echo: { header: `Bearer ${TOKEN}` }, n: 1 } }), { scanner, redact: clean });
    assert.equal(body.json, false);
    assert.ok(!JSON.stringify(body.result.body).includes(TOKEN));
    assert.equal((body.result.body as { n: number }).n, 1);
    const text = await readyAnswer(success({ text: `you sent ${TOKEN}` }), { scanner, redact: clean });
    assert.deepEqual([text.json, text.result.ok && text.result.text], [false, 'you sent <redacted>']);
  });

  it('pretty-prints a large JSON answer off the thread, without the echoed secret', async () => {
    const scanner = worker();
    const value = { items: Array.from({ length: 60_000 }, (_, i) => ({ i, name: `item number ${i}`, echoed: i === 59_999 ? TOKEN : 'x' })) };
    const compact = JSON.stringify(value);
    assert.ok(compact.length > PARSE_IN_HOST_BYTES);
    const ready = await readyAnswer(success({ text: compact }), { scanner, redact: clean });
    assert.equal(ready.json, true);
    assert.ok(ready.result.ok);
    const text = ready.result.text ?? '';
    assert.ok(!text.includes(TOKEN));
    assert.equal(text, `${JSON.stringify(JSON.parse(compact.replace(TOKEN, '<redacted>')), null, 2)}\n`);
    // Chaining parses it only when asked, and then reads it like a parsed body.
    const chained = chainedAnswer(ready.result);
    assert.equal((chained?.body as typeof value).items[3].name, 'item number 3');
  });

  it('keeps a large answer that is not JSON as text, without the echoed secret', async () => {
    const scanner = worker();
    const lines = Array.from({ length: 250_000 }, (_, i) => `line ${i}${i === 200_000 ? ` ${TOKEN}` : ''}`).join('\n');
    assert.ok(lines.length > PARSE_IN_HOST_BYTES);
    const ready = await readyAnswer(success({ text: lines }), { scanner, redact: clean });
    assert.equal(ready.json, false);
    assert.equal(ready.result.ok && ready.result.text, lines.replace(TOKEN, '<redacted>'));
  });
});
