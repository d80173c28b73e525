// The way every call of a connection goes: consent to a changed sign-in address, readiness asked
// once (not again when the host asked it to offer the fix before showing progress), the call, and on
// the lockout guard's refusal the user's word before trying again.
import * as assert from 'node:assert/strict';
import type { CallOptions } from '../../../src/core/clientOptions';
import type { CallFailure, CallResult, InterfaceId } from '../../../src/core/model';
import { guardedCall, type CallGate } from '../../../src/features/connection/guardedCall';
import type { NotReady } from '../../../src/features/connection/readiness';

const ANSWER: CallResult = { ok: true, status: 200, body: { a: 1 }, durationMs: 1, request: { method: 'GET', url: 'https://api.example/v1/x', headers: {} } };
const GUARD: CallFailure = { ok: false, kind: 'guard', text: 'the lockout guard stopped this call', advice: 'wait', durationMs: 0 };

/** A connection's answers to the questions of a call, and the questions asked, in order. */
function gate(o: { notReady?: NotReady; moved?: CallResult; tryAnyway?: boolean } = {}) {
  const asked: string[] = [];
  const g: CallGate = {
    mayGo: async (id) => (asked.push(`mayGo ${id}`), o.moved),
    readiness: async (id) => (asked.push(`readiness ${id}`), o.notReady),
    confirmRisk: async (id) => (asked.push(`confirmRisk ${id}`), o.tryAnyway ?? false),
    using: (id) => void asked.push(`using ${id}`),
  };
  return { g, asked };
}

function calls(answers: CallResult[]) {
  const sent: CallOptions[] = [];
  const run = async (o: CallOptions): Promise<CallResult> => (sent.push(o), answers[Math.min(sent.length - 1, answers.length - 1)]);
  return { run, sent };
}

describe('guardedCall', () => {
  it('asks consent, then readiness once, then calls', async () => {
    const { g, asked } = gate();
    const { run, sent } = calls([ANSWER]);
    assert.equal(await guardedCall(g, 'a', run, {}), ANSWER);
    assert.deepEqual(asked, ['mayGo a', 'readiness a', 'using a']);
    assert.equal(sent.length, 1);
  });

  it('does not ask readiness again when the host asked it just before', async () => {
    const { g, asked } = gate();
    const { run, sent } = calls([ANSWER]);
    assert.equal(await guardedCall(g, 'b', run, {}, true), ANSWER);
    assert.deepEqual(asked, ['mayGo b', 'using b']);
    assert.equal(sent.length, 1);
  });

  it('sends nothing when the interface is not ready, and says why with what to do', async () => {
    const { g } = gate({ notReady: { kind: 'signedOut', interfaceId: 'a' } });
    const { run, sent } = calls([ANSWER]);
    const result = await guardedCall(g, 'a', run, {});
    assert.equal(sent.length, 0);
    assert.ok(!result.ok && result.kind === 'input');
    assert.match(result.text, /not signed in/);
  });

  it('sends nothing, and asks nothing more, when the credentials may not go to a changed address', async () => {
    const moved: CallFailure = { ok: false, kind: 'cancelled', text: 'Nothing was sent', advice: 'sign in again', durationMs: 0 };
    const { g, asked } = gate({ moved });
    const { run, sent } = calls([ANSWER]);
    assert.equal(await guardedCall(g, 'a', run, {}), moved);
    assert.deepEqual(asked, ['mayGo a']);
    assert.equal(sent.length, 0);
  });

  it('on the guard\'s refusal calls again with confirmRisk only when the user says to try anyway', async () => {
    for (const tryAnyway of [false, true]) {
      const { g, asked } = gate({ tryAnyway });
      const { run, sent } = calls([GUARD, ANSWER]);
      const result = await guardedCall(g, 'a' as InterfaceId, run, { forceNewToken: true });
      assert.equal(result, tryAnyway ? ANSWER : GUARD);
      assert.deepEqual(asked, ['mayGo a', 'readiness a', 'using a', 'confirmRisk a']);
      assert.deepEqual(sent, tryAnyway ? [{ forceNewToken: true }, { forceNewToken: true, confirmRisk: true }] : [{ forceNewToken: true }]);
    }
  });
});
