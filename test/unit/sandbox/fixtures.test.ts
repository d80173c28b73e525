import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TestBed, ipLookup, orgLookup, tokenA, tokenB } from './helpers';

describe('sandbox: fixtures folder (fixtures.ts, data.ts)', () => {
  const bed = new TestBed();
  afterEach(() => bed.cleanup());

  it('serves fixtures per IP and per name instead of synthetic data', async () => {
    const dir = await bed.tempDir();
    await mkdir(join(dir, 'ip'));
    await mkdir(join(dir, 'org'));
    await writeFile(join(dir, 'ip', '198.51.100.20.json'), JSON.stringify({ mine: 'ip fixture' }));
    await writeFile(join(dir, 'ip', '2001-db8--5.json'), JSON.stringify({ mine: 'v6 fixture' }));
    await writeFile(join(dir, 'org', 'fixture-co-ltd.json'), JSON.stringify({ MyData: { answer: 42 } }));
    const sb = await bed.start({ fixturesDir: dir });
    const a = await tokenA(sb);
    assert.deepEqual((await ipLookup(sb, a, '198.51.100.20')).json, { mine: 'ip fixture' });
    assert.deepEqual((await ipLookup(sb, a, '2001:db8::5')).json, { mine: 'v6 fixture' });
    assert.equal((await ipLookup(sb, a, '198.51.100.21')).json.sandbox, true);
    const b = await tokenB(sb);
    const r = await orgLookup(sb, b, 'CountryISOAlpha2Code=GB&SubjectName=Fixture%20Co.%20Ltd&match=true');
    assert.equal(r.json.MatchResponse.TransactionResult.ResultID, 'CM000');
    assert.deepEqual(r.json.MatchResponse.MyData, { answer: 42 });
    await writeFile(join(dir, 'org', 'broken.json'), '[1,');
    await assert.rejects(bed.start({ fixturesDir: dir }), /broken\.json/);
  });
});
