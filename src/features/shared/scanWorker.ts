// The worker thread behind codeScanner.ts (bundled as dist/scanWorker.js): gathers a text's slices,
// then runs the job on the whole text: the code finder (the core's one recogniser, with the catalog
// it is sent) answering with the findings only, or JSON pretty-printing answering in slices.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { CodeBook } from '../../core/codes/codes';
import { errorMessage } from '../../core/errors';
import { lineSlicesOf, type WorkerJob, type WorkerReply, type WorkerRequest } from './codeScanner';
import { findCodes } from './findCodes';

lowerOwnPriority();

const texts = new Map<number, string[]>();
const port = parentPort;
if (!port) throw new Error('scanWorker runs as a worker thread.');

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'slice') {
    const slices = texts.get(m.id);
    if (slices) slices.push(m.text);
    else texts.set(m.id, [m.text]);
    return;
  }
  const slices = texts.get(m.id) ?? [];
  texts.delete(m.id);
  if (m.type === 'cancel') return;
  try {
    for (const reply of run(m.id, slices.join(''), m.job)) port.postMessage(reply);
  } catch (err) {
    port.postMessage({ id: m.id, error: errorMessage(err) } satisfies WorkerReply);
  }
});

function* run(id: number, text: string, job: WorkerJob): Generator<WorkerReply> {
  if (job.kind === 'scan') {
    yield { id, findings: findCodes(text, new CodeBook(job.codes)) };
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    yield { id, pretty: false };
    return;
  }
  const pretty = `${JSON.stringify(value, null, 2)}\n`;
  for (const slice of lineSlicesOf(pretty.length <= job.maxChars ? pretty : text)) yield { id, slice };
  yield { id, pretty: true };
}

/**
 * On a busy machine the work competes for the CPU with the editor's own thread; at a lower priority
 * it yields to it. Linux lets a thread renice itself by its thread id; elsewhere nothing changes.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the work runs at the editor's priority.
  }
}
