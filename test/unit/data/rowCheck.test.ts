import * as assert from 'node:assert/strict';
import { checkRows } from '../../../src/core/data/rowCheck';
import { problemText } from '../../../src/core/data/rows';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { dataVariables } from '../../../src/core/requests/requestVariables';
import { table } from './tables';

const CONNECTION = { baseUrl: 'http://127.0.0.1:1', legacyUrl: 'http://127.0.0.1:1', orgVersion: 'V4.0' };

describe('data rows checked against a request file', () => {
  it('names the variables no file variable, connection, prompt, system value or chained request defines, once each', () => {
    const text = [
      '@limit = 5',
      '@label = {{name}} ({{country}})',
      '### first',
      '# @prompt token',
      '# @name first',
      'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code={{%country}}&SubjectName={{name}}&n={{limit}}&t={{token}}&id={{$guid}}',
      '',
      '?? body $.x == {{notAColumn}}',
      '',
      '### second',
      'GET {{baseUrl}}/x/{{first.response.body.$.id}}?r={{region}}&l={{label}}',
    ].join('\n');
    assert.deepEqual(dataVariables(text, parseRequestFile(text), CONNECTION), ['name', 'country', 'region']);
  });

  it('refuses a header without a used column in one message at the header line', () => {
    const t = table('\n\nname,extra\nAcme,1\nBeta,2\n', 'rows.csv');
    const problems = checkRows(t, ['country', 'name', 'region'], 'enrich.bizdata.http');
    assert.deepEqual(problems.map(problemText), [
      'rows.csv:3: the header has no columns "country", "region", which enrich.bizdata.http uses as {{country}}, {{region}}; add them to the header (a column for each variable the request file takes from the rows).',
    ]);
  });

  it('refuses each CSV row that lacks a value, at its line; an empty cell and unused columns are fine', () => {
    const t = table('country,name,unused\nUS,"Acme, Inc."\nGB\n,\n"",x\n', 'rows.csv');
    const problems = checkRows(t, ['country', 'name'], 'enrich.bizdata.http');
    assert.deepEqual(problems.map(problemText), [
      'rows.csv:3: this row has no value for "name", which enrich.bizdata.http uses; give this row a value in the "name" column (a row with fewer fields than the header lacks the last columns).',
    ]);
  });

  it('refuses each JSON Lines row that lacks a key, at its line', () => {
    const t = table('{"country":"US","name":"Acme"}\n\n{"other":"x"}\n', 'rows.jsonl');
    assert.deepEqual(checkRows(t, ['country', 'name'], 'enrich.bizdata.http').map(problemText), [
      'rows.jsonl:3: this row has no values for "country", "name", which enrich.bizdata.http uses; add "country": "…", "name": "…" to this line\'s object.',
    ]);
  });

  it('finds nothing wrong when every row has every used column', () => {
    const t = table('name,country\nAcme,US\n', 'rows.csv');
    assert.deepEqual(checkRows(t, ['country', 'name'], 'enrich.bizdata.http'), []);
    assert.deepEqual(checkRows(t, [], 'plain.bizdata.http'), []);
  });
});
