// The run engine's one judge (core/run/judge.ts), in plain Node: what every host shows for a result.
// It replaces the Test Explorer's own `verdictOf`, which judged an SC001 or SC005 answer (so
// "?? status == 401" could pass) where `bizdata test` stopped the run.
import * as assert from 'node:assert/strict';
import type { CallResult, OperationRequest } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { judgeStep } from '../../../src/core/run/judge';
import type { Route } from '../../../src/core/run/step';

const file = parseRequestFile(['GET https://api.example.test/v1/x', '?? status == 401'].join('\n'));
const r = file.requests[0];
const sent: OperationRequest = { interfaceId: 'a', method: 'GET', url: 'https://api.example.test/v1/x', headers: {} };
const route: Route = { name: 'default', endpoints: { baseUrl: 'https://api.example.test' } as Route['endpoints'], send: () => Promise.reject(new Error('not sent')) };
const failure = (over: Partial<Extract<CallResult, { ok: false }>>): CallResult => ({ ok: false, kind: 'api', text: 't', advice: 'a', durationMs: 5, ...over });
const judge = (result: CallResult) => judgeStep({ request: r, sent, result, route });

describe('the run engine judges a result the same for every host', () => {
  it('judges an answer of the service by its assertions, and goes on', () => {
    const { outcome, stop } = judge(failure({ status: 401, body: {}, headers: {} }));
    assert.equal(outcome.verdict, 'passed');
    assert.equal(stop, undefined);
  });

  it('stops the run at an SC001 or SC005 answer, as an error of the request, whatever its assertions expect', () => {
    for (const result of [failure({ kind: 'auth', code: 'SC001', status: 401, body: {} }), failure({ kind: 'limit', code: 'SC005', status: 401, body: {} })]) {
      const { outcome, stop } = judge(result);
      assert.equal(outcome.verdict, 'error');
      assert.equal(stop, result);
      assert.ok(outcome.message);
    }
  });

  it('stops at a lockout-guard refusal; a network failure is an error of its request only; an SC006 the client waited out goes on', () => {
    assert.ok(judge(failure({ kind: 'guard' })).stop);
    const network = judge(failure({ kind: 'network' }));
    assert.deepEqual([network.outcome.verdict, network.stop], ['error', undefined]);
    assert.equal(judge(failure({ kind: 'limit', code: 'SC006', status: 429, body: {} })).stop, undefined);
  });
});
