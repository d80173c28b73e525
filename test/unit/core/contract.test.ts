// The contract's rules, pure (issue 35): which period a moment falls in, a contract's checks at their
// place (and the schema's same verdicts), the estimate of a run and its refusal, the usage as the
// hosts word it, the run's ceiling and the rows runner's gate, and "did you mean".
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import { CallCeiling, RowGate } from '../../../src/core/contract/ceiling';
import { periodAt, type Contract } from '../../../src/core/contract/contract';
import { contractRefusal, durationText, estimateLines, estimateRun } from '../../../src/core/contract/estimate';
import { usageLevel, usageLine, usageWarning, type ContractUsage } from '../../../src/core/contract/usage';
import { ConnectionsError, parseConnectionsText } from '../../../src/core/connections/connectionsFile';
import { closest as closestWord } from '../../../src/core/closest';

const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
const span = (c: Contract, at: string): [string, string] => {
  const s = periodAt(c, Date.parse(at));
  return [s.key, new Date(s.end).toISOString().slice(0, 10)];
};

describe('a contract\'s periods (UTC)', () => {
  it('repeats a month from its day, on a shorter month\'s last day, and before the first period too', () => {
    const c: Contract = { maxCalls: 10, period: 'month', startsOn: '2024-01-31' };
    assert.deepEqual(span(c, '2024-02-10T12:00:00Z'), ['2024-01-31', '2024-02-29']);
    assert.deepEqual(span(c, '2024-02-29T00:00:00Z'), ['2024-02-29', '2024-03-31']);
    assert.deepEqual(span(c, '2025-02-28T23:59:59Z'), ['2025-02-28', '2025-03-31']);
    assert.deepEqual(span(c, '2023-12-31T00:00:00Z'), ['2023-12-31', '2024-01-31']);
    assert.deepEqual(span(c, '2023-12-30T23:59:59Z'), ['2023-11-30', '2023-12-31']);
  });

  it('repeats a day and a year, a leap day on the 28th of other years', () => {
    assert.deepEqual(span({ maxCalls: 1, period: 'day', startsOn: '2025-03-01' }, '2025-06-15T23:59:59Z'), ['2025-06-15', '2025-06-16']);
    assert.deepEqual(span({ maxCalls: 1, period: 'day', startsOn: '2025-03-01' }, '2025-02-01T00:00:00Z'), ['2025-02-01', '2025-02-02']);
    const leap: Contract = { maxCalls: 1, period: 'year', startsOn: '2024-02-29' };
    assert.deepEqual(span(leap, '2025-03-01T00:00:00Z'), ['2025-02-28', '2026-02-28']);
    assert.deepEqual(span(leap, '2028-02-29T00:00:00Z'), ['2028-02-29', '2029-02-28']);
    // The start is in the period, the end is the next one's.
    assert.equal(periodAt(leap, day('2026-02-28')).key, '2026-02-28');
  });
});

describe('a contract in the connections file', () => {
  const SCHEMA = JSON.parse(readFileSync(resolve(__dirname, '../../../../schemas/connections.schema.json'), 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(SCHEMA);
  const doc = (contract: unknown): string => JSON.stringify({ connections: { prod: { legacyUrl: 'https://legacy.example', contract } } }, null, 2);
  const refusal = (text: string): ConnectionsError => {
    try {
      parseConnectionsText(text, 'c.json');
    } catch (err) {
      assert.ok(err instanceof ConnectionsError);
      return err;
    }
    assert.fail('accepted');
  };
  /** 1-based line and column of the first `needle` in `text`. */
  const at = (text: string, needle: string): [number, number] => {
    const before = text.slice(0, text.indexOf(needle)).split('\n');
    return [before.length, before[before.length - 1].length + 1];
  };

  it('reads one, and the schema takes it', () => {
    const text = doc({ maxCalls: 120000, period: 'year', startsOn: '2025-04-01' });
    assert.deepEqual(parseConnectionsText(text, 'c.json').list[0].contract, { maxCalls: 120000, period: 'year', startsOn: '2025-04-01' });
    assert.ok(validate(JSON.parse(text)), JSON.stringify(validate.errors));
  });

  // `parserOnly`: what a pattern cannot say (a day that is not in its month), the parser's alone.
  const cases: Array<{ what: string; contract: unknown; place: string; says: RegExp; parserOnly?: boolean }> = [
    {
      what: 'a mistyped period',
      contract: { maxCalls: 5, period: 'Monthly', startsOn: '2025-01-01' },
      place: '"Monthly"',
      says: /"period" must be "day", "month" or "year", not "Monthly"\. Did you mean "month"\?/,
    },
    {
      what: 'a day that does not exist',
      contract: { maxCalls: 5, period: 'month', startsOn: '2025-02-30' },
      place: '"2025-02-30"',
      says: /"startsOn" must be the first day of a period as YYYY-MM-DD/,
      parserOnly: true,
    },
    {
      what: 'a count that is no whole number',
      contract: { maxCalls: 2.5, period: 'month', startsOn: '2025-01-01' },
      place: '2.5',
      says: /"maxCalls" must be a whole number of data calls from 1 to/,
    },
    { what: 'no count at all', contract: { period: 'day', startsOn: '2025-01-01' }, place: '{\n        "period"', says: /field "contract" needs "maxCalls"/ },
    {
      what: 'a field it does not have',
      contract: { maxCalls: 5, period: 'day', startsOn: '2025-01-01', maxCall: 6 },
      place: '"maxCall"',
      says: /unknown field "maxCall"; its fields are maxCalls, period, startsOn\. Did you mean "maxCalls"\?/,
    },
    { what: 'a value that is no object', contract: 1000, place: '1000', says: /field "contract" must be an object such as/ },
  ];
  for (const c of cases) {
    it(`refuses ${c.what} at its line and column, as the schema does`, () => {
      const text = doc(c.contract);
      const e = refusal(text);
      assert.equal(e.problems.length, 1, e.message);
      assert.deepEqual([e.problems[0].line, e.problems[0].column], at(text, c.place), e.message);
      assert.match(e.message, c.says);
      if (!c.parserOnly) assert.equal(validate(JSON.parse(text)), false, `the schema takes ${c.what}`);
    });
  }

  it('suggests the field of a mistyped connection field too', () => {
    const text = JSON.stringify({ connections: { p: { legacyUrl: 'https://l.example', contracts: {} } } });
    assert.match(refusal(text).message, /unknown field "contracts".*Did you mean "contract"\?/);
  });
});

describe('what a run will cost', () => {
  const usage = (used: number, maxCalls = 1000, extra: Partial<ContractUsage> = {}): ContractUsage => ({
    connection: 'prod', used, remaining: Math.max(0, maxCalls - used), maxCalls, period: 'month', periodStart: '2025-06-01', resetsOn: '2025-07-01', ...extra,
  });

  it('is rows × requests minus the rows done, at most the ceiling; its time at the limit; its share of what is left', () => {
    const e = estimateRun({ rows: 120_000, done: 20_000, requestsPerRow: 2 }, { qps: 50, from: 'learned' }, usage(800_000, 1_000_000));
    assert.deepEqual([e.wanted, e.calls, e.seconds, e.share, e.exceeds], [200_000, 200_000, 4000, 1, false]);
    assert.deepEqual(estimateLines(e), [
      'data calls: 120,000 rows, 20,000 done before: 100,000 rows × 2 requests = 200,000',
      'time: about 1 h 6 min at 50 calls per second (the limit learned for this account)',
      'contract "prod": 100 % of the 200,000 calls left this month (800,000 of 1,000,000 used since 2025-06-01; resets on 2025-07-01)',
    ]);
    assert.equal(contractRefusal(e), undefined, 'exactly what is left fits');
    const capped = estimateRun({ rows: 10, done: 0, requestsPerRow: 3, maxCalls: 7 }, {}, undefined);
    assert.deepEqual([capped.wanted, capped.calls, capped.seconds, capped.exceeds], [30, 7, undefined, false]);
    assert.match(estimateLines(capped)[0], /= 30; the ceiling \(--max-calls 7\) stops it after 7$/);
    assert.match(estimateLines(capped)[1], /time: unknown: no limit is configured/);
    assert.match(estimateLines(capped)[2], /contract: none stated/);
  });

  it('is refused over what is left, naming used and remaining; after an SC005 nothing is left', () => {
    const over = estimateRun({ rows: 300, done: 0, requestsPerRow: 1 }, {}, usage(750));
    assert.equal(
      contractRefusal(over),
      'this run would make 300 data calls on the connection "prod", whose contract has 250 left this month: ' +
        '750 of 1,000 used since 2025-06-01, resetting on 2025-07-01',
    );
    const marked = estimateRun({ rows: 1, done: 0, requestsPerRow: 1 }, {}, usage(10, 1000, { remaining: 0, reachedAt: '2025-06-03T10:00:00.000Z' }));
    assert.match(contractRefusal(marked) ?? '', /has 0 left this month \(the service answered SC005 at 2025-06-03T10:00:00\.000Z\)/);
    const capped = estimateRun({ rows: 300, done: 0, requestsPerRow: 1, maxCalls: 250 }, {}, usage(750));
    assert.equal(contractRefusal(capped), undefined, 'a ceiling at what is left fits');
  });

  it('words durations as people read them', () => {
    assert.deepEqual([0.42, 12, 250, 4020, 3 * 86_400 + 7200].map(durationText), ['0.4 s', '12 s', '4 min 10 s', '1 h 7 min', '3 d 2 h']);
  });
});

describe('the usage as the hosts show it', () => {
  const u = (used: number, reachedAt?: string): ContractUsage => {
    const remaining = reachedAt ? 0 : Math.max(0, 1000 - used);
    const period = { period: 'month', periodStart: '2025-06-01', resetsOn: '2025-07-01' } as const;
    return { connection: 'prod', used, remaining, maxCalls: 1000, ...period, ...(reachedAt ? { reachedAt } : {}) };
  };

  it('warns at 80 % and 95 %, and once used up or after SC005', () => {
    assert.deepEqual([0, 799, 800, 949, 950, 999, 1000].map((n) => usageLevel(u(n))), [0, 0, 80, 80, 95, 95, 100]);
    assert.equal(usageLevel(u(3, '2025-06-02T00:00:00.000Z')), 100);
    assert.equal(usageLine(u(812)), '812 of 1,000 data calls used this month (81 %), 188 left; resets on 2025-07-01');
    const warning = 'the connection "prod" has used 81 % of its contract this month (812 of 1,000 data calls); 188 left, resets on 2025-07-01.';
    assert.equal(usageWarning(u(812)), warning);
    const marked = usageWarning(u(3, '2025-06-02T00:00:00.000Z'));
    assert.match(marked, /reached its contract's limit this month \(the service answered SC005\): no data call is sent until 2025-07-01/);
  });
});

describe('a run\'s ceiling of data calls', () => {
  it('takes calls up to its maximum, gives back one that never left, and says why it stopped', () => {
    const c = new CallCeiling(2);
    assert.deepEqual([c.take(), c.take(), c.take()], [true, true, false]);
    c.giveBack();
    assert.deepEqual([c.sent, c.take(), c.sent], [1, true, 2]);
    assert.equal(c.failure().kind, 'ceiling');
    assert.equal(c.failure().text, 'The run made 2 of the 2 data calls it may make (its ceiling, --max-calls); nothing more was sent.');
  });

  it('lets a row start only while there is room for all its requests, waits for rows in flight, and is full with none', async () => {
    const c = new CallCeiling(5);
    const gate = new RowGate(c, 2);
    /** The next row waits; a row in flight makes its two calls and ends; the wait is over. */
    const waitsForARow = async (): Promise<void> => {
      const waiting = gate.next();
      assert.ok(waiting instanceof Promise);
      c.take();
      c.take();
      gate.done();
      await waiting;
    };
    assert.deepEqual([gate.next(), gate.next()], ['go', 'go']);
    // Two rows of two in flight: a third would need 6.
    await waitsForARow();
    // 2 calls taken and one row of two in flight: one more row of two does not fit in 5.
    await waitsForARow();
    assert.equal(gate.next(), 'full', '4 of 5 taken, none in flight: a row of two does not fit');
  });
});

describe('did you mean', () => {
  it('finds the closest word, and nothing for a word far from all', () => {
    assert.equal(closestWord('monthly', ['day', 'month', 'year']), 'month');
    assert.equal(closestWord('yaer', ['day', 'month', 'year']), 'year');
    assert.equal(closestWord('maxcall', ['maxCalls', 'period', 'startsOn']), 'maxCalls');
    assert.equal(closestWord('fortnight', ['day', 'month', 'year']), undefined);
  });
});
