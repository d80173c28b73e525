// The worker thread behind codeScanner.ts (bundled as dist/scanWorker.js): gathers a text's slices,
// runs the code finder (the core's one recogniser, with the catalog it is sent) on the whole text,
// and answers with the findings only.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { CodeBook } from '../../core/codes';
import type { ScanReply, ScanRequest } from './codeScanner';
import { findCodes } from './findCodes';

lowerOwnPriority();

const texts = new Map<number, string[]>();
const port = parentPort;
if (!port) throw new Error('scanWorker runs as a worker thread.');

port.on('message', (m: ScanRequest) => {
  if (m.type === 'slice') {
    const slices = texts.get(m.id);
    if (slices) slices.push(m.text);
    else texts.set(m.id, [m.text]);
    return;
  }
  const slices = texts.get(m.id) ?? [];
  texts.delete(m.id);
  if (m.type === 'cancel') return;
  let reply: ScanReply;
  try {
    reply = { id: m.id, findings: findCodes(slices.join(''), new CodeBook(m.codes)) };
  } catch (err) {
    reply = { id: m.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});

/**
 * On a busy machine the scan competes for the CPU with the editor's own thread; at a lower priority
 * it yields to it. Linux lets a thread renice itself by its thread id; elsewhere nothing changes.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the scan runs at the editor's priority.
  }
}
