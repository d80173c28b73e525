// One way to run a helper process (the local sandbox, the VS Code server of the tests): spawn it as
// the leader of its own process group, read the address line it prints, and stop the whole group,
// with SIGKILL when it does not exit in time. Plain Node: the extension bundles it, and the scripts
// load it from dist/childProcess.js, which `npm run build` emits.
import { spawn, type ChildProcess } from 'node:child_process';

export type OutputStream = 'stdout' | 'stderr';

export interface ProcessGroupOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Every complete line the process writes, in order per stream. */
  readonly onLine?: (line: string, stream: OutputStream) => void;
  /**
   * Give the process a standard input that is a pipe from this one, never written to. The system
   * closes it when this process ends, however it ends (SIGKILL too), so a child that stops when its
   * standard input closes (`bizdata sandbox --stop-with-stdin`) cannot outlive its parent, although
   * it runs in a group of its own. Without it, standard input is /dev/null.
   */
  readonly lifeline?: boolean;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Why a process did not report its address: the caller words it for its own audience. */
export type StartFailure =
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'unexpectedOutput'; readonly line: string }
  | { readonly kind: 'exited'; readonly exit: ProcessExit }
  | { readonly kind: 'spawnFailed'; readonly message: string };

export class ProcessStartError extends Error {
  constructor(readonly failure: StartFailure) {
    super(describeStartFailure(failure));
  }
}

export function describeStartFailure(failure: StartFailure): string {
  switch (failure.kind) {
    case 'timeout':
      return `the process did not report its address within ${failure.timeoutMs / 1000} s`;
    case 'unexpectedOutput':
      return `the process printed "${failure.line}" instead of its address`;
    case 'exited':
      return `the process exited before it was ready (${describeExit(failure.exit)})`;
    case 'spawnFailed':
      return `the process could not start: ${failure.message}`;
  }
}

/** "SIGTERM" or "exit code 1". */
export function describeExit(exit: ProcessExit): string {
  return exit.signal ?? `exit code ${exit.code ?? '?'}`;
}

// On Windows there are no process groups to signal; the child alone is stopped there.
const GROUPS = process.platform !== 'win32';

export class ProcessGroup {
  /** Resolves once the process has exited, or failed to start. */
  readonly exited: Promise<ProcessExit>;
  private exit: ProcessExit | undefined;
  private readonly lineListeners: Array<(line: string, stream: OutputStream) => void> = [];

  constructor(readonly child: ChildProcess, onLine?: (line: string, stream: OutputStream) => void) {
    if (onLine) this.lineListeners.push(onLine);
    this.exited = new Promise((resolve) => {
      const settle = (exit: ProcessExit): void => {
        this.exit ??= exit;
        resolve(this.exit);
      };
      child.once('exit', (code, signal) => settle({ code, signal }));
      // A spawn failure (ENOENT, EACCES) emits 'error' and never 'exit'.
      child.on('error', () => {
        if (child.pid === undefined) settle({ code: null, signal: null });
      });
    });
    for (const stream of ['stdout', 'stderr'] as const) this.splitLines(stream);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exit !== undefined || this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Calls `listener` with each later line; returns a function that stops it. */
  onLine(listener: (line: string, stream: OutputStream) => void): () => void {
    this.lineListeners.push(listener);
    return () => {
      const i = this.lineListeners.indexOf(listener);
      if (i >= 0) this.lineListeners.splice(i, 1);
    };
  }

  /**
   * Resolves with the match of `pattern` on the first line the process writes to stdout. Rejects with
   * a ProcessStartError when that line does not match, the process exits or cannot start, or
   * `timeoutMs` passes; the process is then stopped.
   */
  readAddress(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: { readonly match: RegExpExecArray } | { readonly failure: StartFailure }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopListening();
        this.child.off('error', onError);
        if ('match' in outcome) {
          resolve(outcome.match);
          return;
        }
        void this.stop();
        reject(new ProcessStartError(outcome.failure));
      };
      const timer = setTimeout(() => finish({ failure: { kind: 'timeout', timeoutMs } }), timeoutMs);
      const stopListening = this.onLine((line, stream) => {
        if (stream !== 'stdout') return;
        const match = pattern.exec(line.trim());
        finish(match ? { match } : { failure: { kind: 'unexpectedOutput', line: line.trim() } });
      });
      const onError = (err: Error): void => finish({ failure: { kind: 'spawnFailed', message: err.message } });
      this.child.on('error', onError);
      void this.exited.then((exit) => finish({ failure: { kind: 'exited', exit } }));
    });
  }

  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the process has exited. */
  async stop(graceMs = 3000): Promise<ProcessExit> {
    if (this.hasExited || this.child.pid === undefined) return this.exited;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (GROUPS) process.kill(-pid, signal);
      else this.child.kill(signal);
    } catch {
      // Already gone.
    }
  }

  private splitLines(stream: OutputStream): void {
    const source = this.child[stream];
    if (!source) return;
    source.setEncoding('utf8');
    let pending = '';
    const emit = (line: string): void => {
      for (const listener of [...this.lineListeners]) listener(line, stream);
    };
    source.on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        emit(pending.slice(0, newline).replace(/\r$/, ''));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    source.on('end', () => {
      if (pending !== '') emit(pending);
      pending = '';
    });
  }
}

/** Starts `command` as the leader of a new process group, with stdout and stderr piped into lines. */
export function spawnProcessGroup(command: string, args: readonly string[], options: ProcessGroupOptions = {}): ProcessGroup {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: GROUPS,
    stdio: [options.lifeline === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  // Nothing is written to the lifeline, so an error on it can only mean the child closed it.
  child.stdin?.on('error', () => undefined);
  return new ProcessGroup(child, options.onLine);
}
