// A data file checked against the variables a request file takes from its rows, as a run's preflight
// checks it: the file streamed once from disk (dataSource.ts), every problem at ROWS:LINE.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDataFile } from '../../../src/core/data/dataSource';
import { checkData } from '../../../src/core/data/rowCheck';
import { problemText } from '../../../src/core/data/rows';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { dataVariables } from '../../../src/core/requests/requestVariables';
import { tempDirs } from '../tempDirs';

const CONNECTION = { baseUrl: 'http://127.0.0.1:1', legacyUrl: 'http://127.0.0.1:1', orgVersion: 'V4.0' };

describe('data rows checked against a request file', () => {
  const dirs = tempDirs();
  /** The problems of a data file of that text and name, as ROWS:LINE lines; [] when it may run. */
  async function checkRows(text: string, name: string, variables: readonly string[], requestFile: string): Promise<string[]> {
    const path = join(await dirs.make('bizdata-rowcheck-'), name);
    await writeFile(path, text);
    const opened = await openDataFile(path, { named: name });
    assert.ok(opened.ok);
    try {
      const checked = await checkData(opened.source, variables, requestFile);
      return checked.ok ? [] : checked.problems.map(problemText);
    } finally {
      await opened.source.close();
    }
  }

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

  it('refuses a header without a used column in one message at the header line', async () => {
    const problems = await checkRows('\n\nname,extra\nAcme,1\nBeta,2\n', 'rows.csv', ['country', 'name', 'region'], 'enrich.bizdata.http');
    assert.deepEqual(problems, [
      'rows.csv:3: the header has no columns "country", "region", which enrich.bizdata.http uses as {{country}}, {{region}}; add them to the header (a column for each variable the request file takes from the rows).',
    ]);
  });

  it('refuses each CSV row that lacks a value, at its line; an empty cell and unused columns are fine', async () => {
    const problems = await checkRows('country,name,unused\nUS,"Acme, Inc."\nGB\n,\n"",x\n', 'rows.csv', ['country', 'name'], 'enrich.bizdata.http');
    assert.deepEqual(problems, [
      'rows.csv:3: this row has no value for "name", which enrich.bizdata.http uses; give this row a value in the "name" column (a row with fewer fields than the header lacks the last columns).',
    ]);
  });

  it('refuses each JSON Lines row that lacks a key, at its line', async () => {
    assert.deepEqual(await checkRows('{"country":"US","name":"Acme"}\n\n{"other":"x"}\n', 'rows.jsonl', ['country', 'name'], 'enrich.bizdata.http'), [
      'rows.jsonl:3: this row has no values for "country", "name", which enrich.bizdata.http uses; add "country": "…", "name": "…" to this line\'s object.',
    ]);
  });

  it('finds nothing wrong when every row has every used column', async () => {
    assert.deepEqual(await checkRows('name,country\nAcme,US\n', 'rows.csv', ['country', 'name'], 'enrich.bizdata.http'), []);
    assert.deepEqual(await checkRows('name,country\nAcme,US\n', 'rows.csv', [], 'plain.bizdata.http'), []);
  });
});
