import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { OnTheWire } from '../../../src/core/http/onTheWire';

describe('requests on the wire: deadlines and cancels', () => {
  let wire: OnTheWire;
  afterEach(() => wire.dispose());

  it('cuts each request at its own deadline, in the order they started, and none that is done', async () => {
    wire = new OnTheWire(400);
    const first = wire.start(undefined);
    await sleep(300);
    const second = wire.start(undefined);
    const finished = wire.start(undefined);
    wire.done(finished, undefined);
    await sleep(200);
    assert.equal(first.cut, 'deadline');
    assert.equal(second.cut, undefined, 'the second has 400 ms of its own');
    await sleep(300);
    assert.equal(second.cut, 'deadline');
    assert.equal(finished.cut, undefined);
  });

  it('tells undici through an abort event and `aborted`', () => {
    wire = new OnTheWire(60_000);
    const r = wire.start(undefined);
    let heard = 0;
    r.once('abort', () => heard++);
    assert.equal(r.aborted, false);
    r.abort('cancelled');
    r.abort('deadline');
    assert.equal(heard, 1);
    assert.equal(r.aborted, true);
    assert.equal(r.cut, 'cancelled', 'the first cut is the one that counts');
  });

  it('gives a signal many requests share one listener, and cuts only its own requests when it aborts', () => {
    wire = new OnTheWire(60_000);
    const batch = new AbortController();
    const mine = Array.from({ length: 40 }, () => wire.start(batch.signal));
    const other = wire.start(new AbortController().signal);
    const alone = wire.start(undefined);
    assert.equal(getEventListeners(batch.signal, 'abort').length, 1);
    wire.done(mine[0], batch.signal);
    batch.abort();
    assert.equal(mine[0].cut, undefined, 'done before the abort');
    assert.ok(mine.slice(1).every((r) => r.cut === 'cancelled'));
    assert.equal(other.cut, undefined);
    assert.equal(alone.cut, undefined);
  });

  it('starts a request already cut when its signal has aborted', () => {
    wire = new OnTheWire(60_000);
    const ac = new AbortController();
    ac.abort();
    assert.equal(wire.start(ac.signal).cut, 'cancelled');
  });
});
