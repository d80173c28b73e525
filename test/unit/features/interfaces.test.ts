import * as assert from 'node:assert/strict';
import { INTERFACE_IDS, INTERFACES, interfaceOf, isInterfaceId } from '../../../src/features/shared/interfaces';

describe('interfaces', () => {
  it('spells each interface once: id, name, letter, label', () => {
    assert.deepEqual(INTERFACE_IDS, ['a', 'b']);
    for (const id of INTERFACE_IDS) {
      const info = INTERFACES[id];
      assert.equal(info.id, id);
      assert.equal(info.letter, id.toUpperCase());
      assert.equal(info.name, `Interface ${info.letter}`);
      assert.ok(info.label.startsWith(`${info.name} (`), info.label);
    }
  });

  it('routes IP lookups to A and organizations to B, and knows its ids', () => {
    assert.equal(interfaceOf({ kind: 'ip', ip: '203.0.113.7' }), 'a');
    assert.equal(interfaceOf({ kind: 'org', country: 'GB', name: 'Acme' }), 'b');
    assert.equal(isInterfaceId('a'), true);
    assert.equal(isInterfaceId('sandbox'), false);
    assert.equal(isInterfaceId(undefined), false);
  });
});
