import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_LIMITS } from '../../../src/core/data/dataLimits';
import { problemText, readRows, rowValue, type ReadRows } from '../../../src/core/data/rows';
import { tableOf as table } from './tables';

function refusal(r: ReadRows): string {
  assert.equal(r.ok, false, 'expected the file to be refused');
  return r.ok ? '' : problemText(r.problem);
}

describe('data rows: CSV', () => {
  it('reads RFC 4180: quoted commas, doubled quotes, line breaks in quotes, CRLF, a BOM, a trimmed header', async () => {
    const csv = '\uFEFF country , name ,note\r\nUS,"Acme, Inc.",x\r\nGB,"The ""Quoted"" Ltd",\r\n\r\nDE,"Multi\r\nLine GmbH",y\r\nFR,Plain,z\r\n';
    const t = table(await readRows(csv, 'companies.csv'));
    assert.equal(t.format, 'csv');
    assert.deepEqual(t.columns, ['country', 'name', 'note']);
    assert.equal(t.headerLine, 1);
    assert.deepEqual(
      t.rows.map((r) => [r.line, r.values]),
      [
        [2, { country: 'US', name: 'Acme, Inc.', note: 'x' }],
        [3, { country: 'GB', name: 'The "Quoted" Ltd', note: '' }],
        // the blank line 4 is skipped; the row after a quoted line break starts one line lower
        [5, { country: 'DE', name: 'Multi\r\nLine GmbH', note: 'y' }],
        [7, { country: 'FR', name: 'Plain', note: 'z' }],
      ],
    );
  });

  it('reads examples/data/enrich.data.csv, whose quoted names hold a comma and quotes', async () => {
    const path = join(__dirname, '../../../../examples/data/enrich.data.csv');
    const t = table(await readRows(readFileSync(path, 'utf8'), 'companies.csv'));
    assert.deepEqual(t.columns, ['ref', 'country', 'name']);
    assert.deepEqual(t.rows.map((r) => r.values.name), ['Acme, Inc.', 'Globex Ltd', 'Initech GmbH', 'Les "Bons" Amis SA']);
  });

  it('keeps values as written and leaves a short row without the last columns', async () => {
    const t = table(await readRows('a,b,c\n x ,2\n', 'd.csv'));
    assert.deepEqual(t.rows[0].values, { a: ' x ', b: '2' });
    assert.equal(rowValue(t.rows[0], 'c'), undefined);
    assert.equal(rowValue(t.rows[0], 'constructor'), undefined);
  });

  it('skips rows whose every field is empty (a spreadsheet\'s trailing ",,")', async () => {
    const t = table(await readRows('a,b\n1,2\n,\n', 'd.csv'));
    assert.equal(t.rows.length, 1);
  });

  it('refuses an unclosed quote at the line where it opened, not at the end of the file', async () => {
    const csv = 'country,name\nUS,Acme\nGB,"Open\nstill open\nDE,Later\nFR,Last\n';
    assert.equal(refusal(await readRows(csv, 'rows.csv')), 'rows.csv:3: a quote opens a field here and is never closed; close it, and write a quote inside a quoted field as two ("").');
  });

  it('refuses an unclosed quote after a quoted line break in the same row, with CRLF, at the quote', async () => {
    const csv = 'a,b,c\r\n"one\r\ntwo","three\r\nx,y,z\r\n';
    assert.match(refusal(await readRows(csv, 'rows.csv')), /^rows\.csv:3: a quote opens a field here and is never closed/);
  });

  it('refuses a row with more fields than the header at its line', async () => {
    const csv = 'country,name\nUS,Acme\n\nGB,Acme, Ltd\n';
    assert.equal(
      refusal(await readRows(csv, 'rows.csv')),
      'rows.csv:4: this row has 3 fields but the header names 2; quote a value that holds a comma ("Acme, Inc."), or name the extra column in the header.',
    );
  });

  it('refuses text after a closing quote and a quote inside an unquoted value, at their lines', async () => {
    assert.match(refusal(await readRows('a,b\n1,2\n"q"x,3\n', 'r.csv')), /^r\.csv:3: a quoted value goes on after its closing quote/);
    assert.match(refusal(await readRows('a,b\n1,2\n3,6" pipe\n', 'r.csv')), /^r\.csv:3: a quote in the middle of a value/);
  });

  it('refuses an empty header name and a duplicate one at the header line', async () => {
    assert.equal(refusal(await readRows('\n\ncountry,,name\nUS,x,y\n', 'r.csv')), 'r.csv:3: column 2 of the header has no name; name every column (or delete the empty one).');
    assert.equal(refusal(await readRows('name, name\nx,y\n', 'r.csv')), 'r.csv:1: the header names the column "name" twice; give each column its own name.');
  });

  it('refuses an empty file and a header without rows', async () => {
    assert.match(refusal(await readRows('\uFEFF\r\n', 'r.csv')), /^r\.csv: the file is empty; its first row names the columns/);
    assert.match(refusal(await readRows('country,name\r\n', 'r.csv')), /^r\.csv:1: the file has a header but no rows/);
  });

  it('refuses a file name that says neither format', async () => {
    assert.match(refusal(await readRows('a,b\n1,2\n', 'rows.txt')), /^rows\.txt: a data file is CSV \(\.csv, with a header row\) or JSON Lines/);
  });
});

describe('data rows: the last line a row may start at', () => {
  // A results file knows a row by its line; the limit is 134,217,728 lines (a file of gigabytes), here 3.
  const limits = { ...DATA_LIMITS, maxLines: 3 };
  const past = 'a data file may have at most 3 lines, as a results file knows each row by its line. Split the file into parts, each run with a results file of its own.';

  it('CSV: a row that starts past it is refused at its line; blank lines and a row that only ends past it are not', async () => {
    assert.equal(refusal(await readRows('ip\n10.0.0.1\n10.0.0.2\n10.0.0.3\n', 'rows.csv', limits)), `rows.csv:4: ${past}`);
    assert.equal(table(await readRows('ip\n10.0.0.1\n"10.0.0.2\n"\n\n\n', 'rows.csv', limits)).rows.length, 2);
    assert.equal(DATA_LIMITS.maxLines, 134_217_728);
  });

  it('JSON Lines: a row past it is refused at its line', async () => {
    assert.equal(refusal(await readRows('{"ip":"a"}\n\n{"ip":"b"}\n{"ip":"c"}\n', 'rows.jsonl', limits)), `rows.jsonl:4: ${past}`);
    assert.equal(table(await readRows('{"ip":"a"}\n{"ip":"b"}\n{"ip":"c"}\n\n', 'rows.jsonl', limits)).rows.length, 3);
  });
});

describe('data rows: JSON Lines', () => {
  it('reads one object a line, blank lines skipped, numbers and booleans as text, keys in first-met order', async () => {
    const text = '\uFEFF{"country":"US","name":"Acme"}\r\n\n{"name":"Beta","n":42,"vip":true,"country":"GB"}\n';
    for (const name of ['rows.jsonl', 'rows.NDJSON']) {
      const t = table(await readRows(text, name));
      assert.equal(t.format, 'jsonl');
      assert.deepEqual(t.columns, ['country', 'name', 'n', 'vip']);
      assert.deepEqual(
        t.rows.map((r) => [r.line, r.values]),
        [
          [1, { country: 'US', name: 'Acme' }],
          [3, { name: 'Beta', n: '42', vip: 'true', country: 'GB' }],
        ],
      );
    }
  });

  it('refuses a line that is not JSON, not an object, or holds null, an array or an object, at its line', async () => {
    assert.match(refusal(await readRows('{"a":"1"}\n{"a":\n', 'r.jsonl')), /^r\.jsonl:2: this line is not JSON;/);
    assert.match(refusal(await readRows('\n["a"]\n', 'r.jsonl')), /^r\.jsonl:2: this line is not a JSON object;/);
    assert.equal(refusal(await readRows('{"a":"1"}\n{"a":null}\n', 'r.jsonl')), 'r.jsonl:2: the value of "a" is null; a row\'s values are strings, numbers or booleans (write nested data as a string).');
    assert.match(refusal(await readRows('{"a":[1]}\n', 'r.jsonl')), /^r\.jsonl:1: the value of "a" is an array;/);
    assert.match(refusal(await readRows('{"a":{"b":1}}\n', 'r.jsonl')), /^r\.jsonl:1: the value of "a" is an object;/);
    assert.match(refusal(await readRows('{"":"x"}\n', 'r.jsonl')), /^r\.jsonl:1: this row has a value with an empty name;/);
    assert.match(refusal(await readRows('\n\n', 'r.jsonl')), /^r\.jsonl: the file has no rows;/);
  });

  it('keeps a key such as __proto__ as a value of its own', async () => {
    const t = table(await readRows('{"__proto__":"x","country":"US"}\n', 'r.jsonl'));
    assert.equal(rowValue(t.rows[0], '__proto__'), 'x');
    assert.equal(rowValue(t.rows[0], 'toString'), undefined);
  });
});
