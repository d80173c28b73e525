// "Start Local Sandbox": runs the bundled CLI (`dist/cli.js sandbox --port 0`) as a child process on
// a free loopback port (sandboxProcess.ts), reads its address from the first stdout line, and stops it
// on demand or dispose; it also stops by itself when the extension host dies first.
// The sandbox server code is never imported here, which keeps the extension bundle small.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { describeExit, ProcessStartError, type ProcessGroup, type StartFailure } from '../../core/childProcess';
import { UserError } from '../shared/userError';
import { SANDBOX_LISTENING, spawnSandbox } from './sandboxProcess';

const START_TIMEOUT_MS = 20_000;

/** The sandbox this window started: where it listens and the key of its admin API. */
export interface SandboxProcess {
  readonly url: string;
  /** Key of the sandbox's admin API, made up for each start and kept in memory only. */
  readonly adminKey: string;
}

export class SandboxService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private process: ProcessGroup | undefined;
  private current: SandboxProcess | undefined;
  private starting: Promise<SandboxProcess> | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get running(): SandboxProcess | undefined {
    return this.current;
  }

  /** Starts the sandbox (or returns the one already running). */
  start(): Promise<SandboxProcess> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.spawnSandbox().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async spawnSandbox(): Promise<SandboxProcess> {
    const adminKey = randomBytes(18).toString('base64url');
    const child = spawnSandbox(this.extensionPath, adminKey, (line, stream) => {
      if (line.trim() === '') return;
      if (stream === 'stderr') this.log.warn(`sandbox: ${line}`);
      else this.log.info(`sandbox: ${line}`);
    });
    this.process = child;
    void child.exited.then((exit) => {
      if (this.process !== child) return;
      this.process = undefined;
      this.current = undefined;
      this.log.info(`sandbox: stopped (${describeExit(exit)})`);
      this.changed.fire();
    });
    let match: RegExpExecArray;
    try {
      match = await child.readAddress(SANDBOX_LISTENING, START_TIMEOUT_MS);
    } catch (err) {
      if (this.process === child) this.process = undefined;
      throw err instanceof ProcessStartError ? new UserError(startFailureText(err.failure)) : err;
    }
    this.current = { url: match[1].replace(/\/+$/, ''), adminKey };
    this.log.info(`sandbox: listening on ${this.current.url} (process ${child.pid ?? '?'})`);
    this.changed.fire();
    return this.current;
  }

  /** Stops the sandbox; resolves once the process has exited. */
  async stop(): Promise<boolean> {
    const child = this.process;
    if (!child) return false;
    this.process = undefined;
    this.current = undefined;
    await child.stop();
    this.changed.fire();
    return true;
  }

  dispose(): void {
    const child = this.process;
    this.process = undefined;
    this.current = undefined;
    this.changed.dispose();
    // The group gets SIGTERM now; the window is closing, so nothing waits for the exit.
    void child?.stop();
  }
}

function startFailureText(failure: StartFailure): string {
  const seeLog = 'See "Business Data: Show Log".';
  switch (failure.kind) {
    case 'timeout':
      return `The local sandbox did not report its address within ${failure.timeoutMs / 1000} s. ${seeLog}`;
    case 'unexpectedOutput':
      return `The local sandbox printed "${failure.line}" instead of its address. ${seeLog}`;
    case 'exited':
      return `The local sandbox exited before it was ready (${describeExit(failure.exit)}). ${seeLog}`;
    case 'spawnFailed':
      return `The local sandbox could not start: ${failure.message}`;
  }
}
