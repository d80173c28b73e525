import * as assert from 'node:assert/strict';
import { toCurl, PLACEHOLDER } from '../../../src/core/http/curl';

describe('copy as curl', () => {
  const record = {
    method: 'GET' as const,
    url: 'https://api.example.com/v1/duns-search/ip/203.0.113.7?view=standard',
    headers: { accept: 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${PLACEHOLDER.token}`, origin: "https://o'rigin" },
  };

  it('shows placeholders unless a secret is passed explicitly', () => {
    const plain = toCurl(record);
    assert.match(plain, /--header 'authorization: Bearer <TOKEN>'/);
    assert.match(plain, /'https:\/\/api\.example\.com\/v1\/duns-search\/ip\/203\.0\.113\.7\?view=standard'/);
    assert.ok(!plain.includes('accept-encoding'));
    assert.match(plain, /'origin: https:\/\/o'\\''rigin'/);
    assert.match(toCurl(record, { token: 'T0K' }), /Bearer T0K/);
  });

  it('fills the Basic credential only from both key and secret', () => {
    const token = { method: 'POST' as const, url: 'https://auth.example.com/v1/token', headers: { authorization: `Basic ${PLACEHOLDER.basic}` }, body: '{"grant_type":"client_credentials"}' };
    assert.match(toCurl(token), /--request POST .*Basic <BASE64_KEY_COLON_SECRET>.*--data-raw '\{"grant_type":"client_credentials"\}'/);
    assert.match(toCurl(token, { consumerKey: 'k', consumerSecret: 's' }), new RegExp(`Basic ${Buffer.from('k:s').toString('base64')}`));
  });
});
