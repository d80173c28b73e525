// "Start Local Sandbox": runs the bundled CLI (`dist/cli.js sandbox --port 0`) as a child process on
// a free loopback port, reads its address from the first stdout line, and stops it on demand or dispose.
// The sandbox server code is never imported here, which keeps the extension bundle small.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';

const LISTENING = /Sandbox listening on (https?:\/\/\S+)/;
const START_TIMEOUT_MS = 20_000;

export interface RunningSandbox {
  readonly url: string;
  /** Key of the sandbox's admin API, made up for each start and kept in memory only. */
  readonly adminKey: string;
}

export class SandboxService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private child: ChildProcess | undefined;
  private current: RunningSandbox | undefined;
  private starting: Promise<RunningSandbox> | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get running(): RunningSandbox | undefined {
    return this.current;
  }

  /** Starts the sandbox (or returns the one already running). */
  start(): Promise<RunningSandbox> {
    if (this.current) return Promise.resolve(this.current);
    this.starting ??= this.spawnSandbox().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private spawnSandbox(): Promise<RunningSandbox> {
    const adminKey = randomBytes(18).toString('base64url');
    const cli = path.join(this.extensionPath, 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BIZDATA_SANDBOX_ADMIN_KEY: adminKey },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    return new Promise<RunningSandbox>((resolve, reject) => {
      let stdout = '';
      let settled = false;
      const fail = (message: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill();
        if (this.child === child) this.child = undefined;
        reject(new Error(message));
      };
      const timer = setTimeout(() => fail(`The local sandbox did not report its address within ${START_TIMEOUT_MS / 1000} s. See "Business Data: Show Log".`), START_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        if (settled) {
          this.logLines(chunk);
          return;
        }
        stdout += chunk;
        const newline = stdout.indexOf('\n');
        if (newline < 0) return;
        const first = stdout.slice(0, newline).trim();
        const match = LISTENING.exec(first);
        if (!match) {
          fail(`The local sandbox printed "${first}" instead of its address. See "Business Data: Show Log".`);
          return;
        }
        settled = true;
        clearTimeout(timer);
        this.current = { url: match[1].replace(/\/+$/, ''), adminKey };
        this.log.info(`sandbox: listening on ${this.current.url} (process ${child.pid ?? '?'})`);
        this.logLines(stdout.slice(newline + 1));
        this.changed.fire();
        resolve(this.current);
      });
      child.stderr?.on('data', (chunk: string) => this.logLines(chunk, true));
      child.on('error', (err) => fail(`The local sandbox could not start: ${err.message}`));
      child.on('exit', (code, signal) => {
        fail(`The local sandbox exited before it was ready (${signal ?? `exit code ${code ?? '?'}`}). See "Business Data: Show Log".`);
        if (this.child === child) {
          this.child = undefined;
          this.current = undefined;
          this.log.info(`sandbox: stopped (${signal ?? `exit code ${code ?? '?'}`})`);
          this.changed.fire();
        }
      });
    });
  }

  private logLines(text: string, isError = false): void {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      if (isError) this.log.warn(`sandbox: ${line}`);
      else this.log.info(`sandbox: ${line}`);
    }
  }

  /** Stops the sandbox; resolves once the process has exited. */
  async stop(): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    this.child = undefined;
    this.current = undefined;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.kill();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    this.changed.fire();
    return true;
  }

  dispose(): void {
    this.child?.kill();
    this.child = undefined;
    this.current = undefined;
    this.changed.dispose();
  }
}
