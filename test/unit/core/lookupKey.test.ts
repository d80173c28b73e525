// One identity of a lookup (core/requests/queries.ts lookupKey): a batch resumes by it, and the
// history keeps a saved query once by it, so both say "the same lookup" alike.
import * as assert from 'node:assert/strict';
import { lookupKey } from '../../../src/core/requests/queries';
import { queryKey } from '../../../src/features/state/historyQueries';

describe('the same lookup', () => {
  it('is the same whatever spaces, case or defaults it is written with, in a batch and in the history', () => {
    const ips = [{ kind: 'ip', ip: ' 2001:DB8::1 ' }, { kind: 'ip', ip: '2001:db8::1', view: 'standard' }] as const;
    assert.equal(lookupKey(ips[0]), lookupKey(ips[1]));
    assert.equal(queryKey(ips[0]), queryKey(ips[1]));
    const orgs = [{ kind: 'org', country: 'gb', name: ' Acme Ltd ' }, { kind: 'org', country: 'GB', name: 'Acme Ltd', territory: '', matchType: 'Advanced' }] as const;
    assert.equal(lookupKey(orgs[0]), lookupKey(orgs[1]));
    assert.equal(queryKey(orgs[0]), queryKey(orgs[1]));
    assert.notEqual(lookupKey({ kind: 'org', country: 'GB', name: 'Acme Ltd' }), lookupKey({ kind: 'org', country: 'GB', name: 'Acme Limited' }));
  });
});
