// Ctrl-C (SIGINT) and SIGTERM in the commands that work through many calls (batch, send, test and
// their data runs). The first signal ends the run within a second, whatever it was sending: nothing
// new is sent (calls waiting in the limiter are dropped), what is on the wire gets 0.75 s to be
// answered and is then cut (a row or lookup cut short is not written, so the next run does it), the
// command prints and writes what finished, and the process then ends by that same signal, so a shell
// reports 130 or 143 and a script running it stops too. A second signal ends it at once.
//
// The listeners stay until the command is done. The file lock (proper-lockfile, dist/lockfile.js)
// brings signal-exit, which re-raises a signal when it finds no other listener: a listener that
// removed itself (process.once) left it alone, and the process died before printing anything.
import { constants } from 'node:os';
import type { CliIo } from './io';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * How long a call on the wire may still be answered after the first signal: a request file or a data
 * file may come from anyone and may name an answer that never ends, and CI's SIGTERM must end the job
 * within a second, its reports written.
 */
const GRACE_MS = 750;
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

export class StopRequests {
  private readonly stopping = new AbortController();
  private readonly cutting = new AbortController();
  private first: StopSignal | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private readonly onSignal = (sig: StopSignal): void => {
    if (this.first !== undefined) {
      // The second signal: no more waiting. signal-exit, when loaded, removes held locks on the way.
      this.dispose();
      process.kill(process.pid, sig);
      return;
    }
    this.first = sig;
    this.deadline = setTimeout(() => this.cutting.abort(), this.graceMs);
    this.stopping.abort();
    this.onStop(sig);
  };

  /** `graceMs`: how long calls on the wire may take after the first signal before they are cut. */
  constructor(
    private readonly graceMs: number,
    private readonly onStop: (sig: StopSignal) => void,
  ) {
    for (const s of STOP_SIGNALS) process.on(s, this.onSignal);
  }

  /** Aborted at the first signal: start nothing new. */
  get stop(): AbortSignal {
    return this.stopping.signal;
  }

  /** Aborted `graceMs` after the first signal: cut what is still in flight. */
  get cut(): AbortSignal {
    return this.cutting.signal;
  }

  /** The first signal received, if any. */
  get received(): StopSignal | undefined {
    return this.first;
  }

  dispose(): void {
    clearTimeout(this.deadline);
    for (const s of STOP_SIGNALS) process.off(s, this.onSignal);
  }
}

/** What a shell reports for a process ended by `sig`: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
export function signalStatus(sig: StopSignal): number {
  return 128 + constants.signals[sig];
}

/** The user's words for a second signal. */
export function againToStop(sig: StopSignal): string {
  return sig === 'SIGINT' ? 'Press Ctrl-C again' : 'Send SIGTERM again';
}

/**
 * Ends the process by `sig` once stdout and stderr are written out; call it after `dispose()` and after
 * everything is closed. Windows has no death by signal: there the status is returned for the caller to exit with.
 */
export async function endBySignal(sig: StopSignal, io: CliIo): Promise<number> {
  await Promise.all([io.stdout, io.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  if (process.platform !== 'win32') {
    process.kill(process.pid, sig);
    // With no listener left the signal ends the process at once. signal-exit's listener (the file
    // lock's) runs from the event loop and raises it again; the timer keeps the loop alive until then.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return signalStatus(sig);
}

const STOPPING: Readonly<Record<'requests' | 'rows' | 'lookups', string>> = {
  requests: 'the request on its way is answered within {s} s or cut, no other is sent; the reports of what ran are written.',
  rows: 'no new row starts; the rows on their way are answered within {s} s or cut (a row cut short runs again next time); what finished is written.',
  lookups: 'no new lookup is sent; those on their way are answered within {s} s or cut (and run again next time); what finished is written.',
};

/** The stop of every run: what is on the wire gets at most 0.75 s (never more than --timeout). */
export function requestFileStop(requestTimeoutMs: number, io: CliIo, what: keyof typeof STOPPING = 'requests'): StopRequests {
  const graceMs = Math.min(requestTimeoutMs, GRACE_MS);
  return new StopRequests(graceMs, (sig) =>
    io.stderr.write(`${io.stderr.isTTY && what !== 'requests' ? '\n' : ''}bizdata: ${sig}: stopping: ${STOPPING[what].replace('{s}', String(graceMs / 1000))} ${againToStop(sig)} to stop at once.\n`),
  );
}
