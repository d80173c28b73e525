import * as assert from 'node:assert/strict';
import { FifoQueue, KeyedSerializer } from '../../../src/sandbox/queues';
import { delay } from './helpers';

describe('sandbox: queues (queues.ts)', () => {
  it('FifoQueue runs at most N tasks at once, in the order they came', async () => {
    const queue = new FifoQueue(2);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: 8 }, (_, i) => queue.run(async () => {
      started.push(i);
      running += 1;
      most = Math.max(most, running);
      await delay(5);
      running -= 1;
      return i;
    }));
    assert.equal(queue.size, 8);
    assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(most, 2);
    assert.equal(queue.size, 0);
  });

  it('FifoQueue passes its slot on when a task fails', async () => {
    const queue = new FifoQueue(1);
    const failing = queue.run(() => Promise.reject(new Error('boom')));
    const next = queue.run(() => Promise.resolve('after'));
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'after');
  });

  it('KeyedSerializer runs one key in order, one task at a time, and other keys alongside', async () => {
    const serial = new KeyedSerializer();
    const log: string[] = [];
    const task = (name: string, ms: number) => async (): Promise<string> => {
      log.push(`start ${name}`);
      await delay(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      serial.run('u', task('u1', 20)), serial.run('u', task('u2', 1)), serial.run('v', task('v1', 1)),
      serial.run('u', () => Promise.reject(new Error('u3 fails'))).catch((e: Error) => e.message), serial.run('u', task('u4', 1)),
    ]);
    assert.deepEqual(results, ['u1', 'u2', 'v1', 'u3 fails', 'u4']);
    assert.ok(log.indexOf('end u1') < log.indexOf('start u2'));
    assert.ok(log.indexOf('start v1') < log.indexOf('end u1'), 'another key does not wait');
    assert.ok(log.indexOf('end u2') < log.indexOf('start u4'));
  });
});
