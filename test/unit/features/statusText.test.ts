import * as assert from 'node:assert/strict';
import type { TokenStatus } from '../../../src/core/model';
import { limitsText, statusAccessibilityLabel, statusBarText, statusTooltipMarkdown } from '../../../src/features/statusBar/statusText';

const HOUR = 3_600_000;
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const test = { connection: 'test', sandbox: false, production: false };
const sandbox = { connection: 'sandbox', sandbox: true, production: false };
const valid: TokenStatus = { interfaceId: 'a', state: 'valid', account: 'ab****yz', issuedAt: now, expiresAt: now + 24 * HOUR, credentialFailures: 0, callsMade: 3 };

describe('token status text', () => {
  it('builds the status bar text and a tooltip with account, issue and expiry, calls and limiter', () => {
    assert.equal(statusBarText(valid, now + 60_000, test), '$(pass) test · Business Data A: valid 23h 59m');
    assert.equal(statusBarText(valid, now, sandbox), '$(pass) Business Data A (sandbox): valid 24h 0m');
    assert.equal(statusBarText({ ...valid, state: 'signed-out' }, now, test), '$(sign-in) test · Business Data: signed out');
    const md = statusTooltipMarkdown(valid, { qps: 5, concurrency: 2, active: 1, queued: 0 }, now, test);
    for (const part of ['Connection | test', 'Interface A', 'ab\\*\\*\\*\\*yz', 'Issued', '2026-01-01 12:00:00 UTC', 'Expires', 'Calls made | 3', '1 active, 0 queued']) {
      assert.ok(md.includes(part), `${part} missing from ${md}`);
    }
  });

  it('shows the limits the client learned, and the caps when set', () => {
    const learned = { qps: 50, concurrency: 5, active: 0, queued: 0, caps: { qps: Infinity, concurrency: Infinity }, learned: { qps: 50, concurrency: 5, exact: true } };
    assert.ok(statusTooltipMarkdown(valid, learned, now, test).includes('learned: 50/s, 5 at once'));
    assert.equal(limitsText({ ...learned, caps: { qps: 100, concurrency: Infinity } }), 'learned: 50/s, 5 at once (caps: 100/s, auto)');
    assert.equal(limitsText({ ...learned, learned: { qps: 20, concurrency: 4, exact: false } }), 'finding: 20/s, 4 at once');
    assert.ok(!statusTooltipMarkdown(valid, { qps: 5, concurrency: 2, active: 0, queued: 0 }, now, test).includes('learned'));
  });

  it('names the interface by its letter in the bar and by its name for screen readers', () => {
    const b: TokenStatus = { ...valid, interfaceId: 'b' };
    assert.equal(statusBarText(b, now + 60_000, test), '$(pass) test · Business Data B: valid 23h 59m');
    assert.equal(statusAccessibilityLabel(b, now + 60_000, sandbox), 'Business Data Interface B on the local sandbox: token valid 23h 59m. Activate to switch connections.');
  });

  it('names the active connection, and says when it is a production account', () => {
    const production = { connection: 'production', sandbox: false, production: true };
    assert.equal(statusBarText(valid, now + 60_000, production), '$(pass) production · Business Data A: valid 23h 59m');
    assert.match(statusAccessibilityLabel(valid, now + 60_000, production), /on the connection production, a production account: token valid/);
    assert.match(statusTooltipMarkdown(valid, undefined, now, production), /Connection \| production \(production\)/);
  });

  it('shows the last error without control or bidi characters from the service', () => {
    const status: TokenStatus = { interfaceId: 'b', state: 'failed', credentialFailures: 0, callsMade: 0, lastError: { code: 'X\u001b1', text: 'bad \u009b31m \u202eevil' } };
    const md = statusTooltipMarkdown(status, undefined, Date.now(), test);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    assert.doesNotMatch(md, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.match(md, /u001B1: bad \\+u009B31m \\+u202Eevil|u001B/);
  });
});
