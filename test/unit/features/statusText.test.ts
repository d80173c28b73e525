import * as assert from 'node:assert/strict';
import type { TokenStatus } from '../../../src/core/model';
import { formatRemaining, stateLabel, statusBarText, statusTooltipMarkdown } from '../../../src/features/statusBar/statusText';
import { missingEndpointSetting, readConnectionSettings } from '../../../src/features/connection/settings';
import { riskyAttemptText } from '../../../src/features/connection/guardText';

const HOUR = 3_600_000;
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const valid: TokenStatus = { interfaceId: 'a', state: 'valid', account: 'ab****yz', issuedAt: now, expiresAt: now + 24 * HOUR, credentialFailures: 0, callsMade: 3 };

describe('token status text', () => {
  it('formats remaining life in hours and minutes, rounded down', () => {
    assert.equal(formatRemaining(24 * HOUR - 1), '23h 59m');
    assert.equal(formatRemaining(5 * 60_000 + 59_000), '5m');
    assert.equal(formatRemaining(-1), '0m');
  });

  it('names every state plainly', () => {
    assert.equal(stateLabel({ ...valid }, now + 60_000), 'valid 23h 59m');
    assert.equal(stateLabel({ ...valid }, now + 24 * HOUR), 'expired');
    assert.equal(stateLabel({ ...valid, state: 'refreshing' }, now), 'refreshing');
    assert.equal(stateLabel({ ...valid, state: 'invalid' }, now), 'invalid');
    assert.equal(stateLabel({ ...valid, state: 'locked' }, now), 'sign-in held, next failure locks');
    assert.equal(stateLabel({ ...valid, state: 'signed-out' }, now), 'signed out');
  });

  it('builds the status bar text and a tooltip with account, issue and expiry, calls and limiter', () => {
    assert.equal(statusBarText(valid, now + 60_000, false), '$(pass) Business Data A: valid 23h 59m');
    assert.equal(statusBarText(valid, now, true), '$(pass) Business Data A (sandbox): valid 24h 0m');
    assert.equal(statusBarText({ ...valid, state: 'signed-out' }, now, false), '$(sign-in) Business Data: signed out');
    const md = statusTooltipMarkdown(valid, { qps: 5, concurrency: 2, active: 1, queued: 0 }, now, false);
    for (const part of ['Interface A', 'ab\\*\\*\\*\\*yz', 'Issued', '2026-01-01 12:00:00 UTC', 'Expires', 'Calls made | 3', '1 active, 0 queued']) {
      assert.ok(md.includes(part), `${part} missing from ${md}`);
    }
  });
});

describe('connection settings', () => {
  it('reads defaults and trims trailing slashes; names the missing endpoint', () => {
    const values: Record<string, unknown> = { 'bizdata.endpoints.baseUrl': 'https://api.example.com/', 'bizdata.limits.qps': -1 };
    const s = readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined });
    assert.equal(s.endpoints.baseUrl, 'https://api.example.com');
    assert.equal(s.endpoints.authVersion, 'V2.0');
    assert.equal(s.endpoints.orgVersion, 'V4.0');
    assert.equal(s.limits.qps, 5);
    assert.equal(missingEndpointSetting(s.endpoints, 'a'), 'bizdata.endpoints.authUrl');
    assert.equal(missingEndpointSetting(s.endpoints, 'b'), 'bizdata.endpoints.legacyUrl');
  });
});

describe('lockout guard wording', () => {
  it('says plainly that one more failure locks the account until support unlocks it', () => {
    const t = riskyAttemptText('b', { interfaceId: 'b', state: 'failed', account: 'us****er', credentialFailures: 2, callsMade: 0 });
    assert.match(t.message, /Interface B account "us\*\*\*\*er" has failed 2 times in a row/);
    assert.match(t.message, /One more failure locks the account until the service's support unlocks it\./);
    assert.match(t.detail, /Try anyway/);
  });
});
