import * as assert from 'node:assert/strict';
import type { Endpoints } from '../../../src/core/model';
import { missingEndpointSetting, notReadyFailure, notReadyText, readiness, readyActions } from '../../../src/features/connection/readiness';
import { readConnectionSettings } from '../../../src/features/connection/settings';

const empty: Endpoints = readConnectionSettings({ get: () => undefined }).endpoints;
const all: Endpoints = { ...empty, authUrl: 'https://auth.example', baseUrl: 'https://api.example', legacyUrl: 'https://legacy.example' };

describe('readiness', () => {
  it('names the missing endpoint setting', () => {
    assert.equal(missingEndpointSetting(empty, 'a'), 'bizdata.endpoints.authUrl');
    assert.equal(missingEndpointSetting({ ...empty, authUrl: 'https://auth.example' }, 'a'), 'bizdata.endpoints.baseUrl');
    assert.equal(missingEndpointSetting(empty, 'b'), 'bizdata.endpoints.legacyUrl');
    assert.equal(missingEndpointSetting(all, 'a'), undefined);
    assert.equal(missingEndpointSetting(all, 'b'), undefined);
  });

  it('checks sign-in first, then the address, and says which as data', () => {
    assert.deepEqual(readiness('a', false, empty), { kind: 'signedOut', interfaceId: 'a' });
    assert.deepEqual(readiness('b', true, empty), { kind: 'missingSetting', interfaceId: 'b', setting: 'bizdata.endpoints.legacyUrl' });
    assert.equal(readiness('a', true, all), undefined);
  });

  it('picks the buttons from the kind, so rewording a message cannot drop one', () => {
    assert.deepEqual(readyActions({ kind: 'signedOut', interfaceId: 'a' }), ['signIn', 'startSandbox']);
    assert.deepEqual(readyActions({ kind: 'signedOut' }), ['signIn', 'startSandbox']);
    assert.deepEqual(readyActions({ kind: 'missingSetting', interfaceId: 'a', setting: 'bizdata.endpoints.baseUrl' }), ['openSettings', 'startSandbox']);
  });

  it('words each reason with what to do, and nothing is sent', () => {
    assert.deepEqual(notReadyText({ kind: 'signedOut', interfaceId: 'a' }), {
      text: 'You are not signed in to Interface A (consumer key).',
      advice: 'Run "Business Data: Sign In" or "Business Data: Start Local Sandbox".',
    });
    assert.equal(notReadyText({ kind: 'signedOut' }).text, 'You are not signed in to any interface.');
    const missing = notReadyText({ kind: 'missingSetting', interfaceId: 'b', setting: 'bizdata.endpoints.legacyUrl' });
    assert.equal(missing.text, 'The setting bizdata.endpoints.legacyUrl is empty, so Interface B (user name) has no address to call.');
    assert.match(missing.advice, /Set bizdata\.endpoints\.legacyUrl in the settings/);
    const failure = notReadyFailure({ kind: 'signedOut', interfaceId: 'b' });
    assert.equal(failure.ok, false);
    assert.equal(failure.kind, 'input');
    assert.equal(failure.request, undefined);
  });
});
