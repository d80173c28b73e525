// The built command line at a terminal: run under `script` (util-linux, in every Debian), whose
// pseudo-terminal makes the CLI's standard input a TTY, as a person's shell would. Each question it
// asks is answered as it appears, as a person would type the answer; what the terminal showed is
// returned whole (standard output and error are one stream there).
import { spawn } from 'node:child_process';
import { CLI, cliEnv } from './cliHarness';

export interface Answer {
  /** The question, as the terminal shows it. */
  readonly question: string;
  readonly answer: string;
}

export interface TerminalRun {
  readonly code: number | null;
  /** Everything the terminal showed. */
  readonly shown: string;
  /** The questions that were never asked, in order. */
  readonly unasked: readonly string[];
}

const quoted = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** Runs `bizdata ARGS` at a terminal with the harness's environment plus `env`, answering `answers` in order. */
export function runAtTerminal(args: readonly string[], env: Record<string, string>, stateDir: string, answers: readonly Answer[], outputs: string[], timeoutMs = 30_000): Promise<TerminalRun> {
  const command = ['exec', ...[process.execPath, CLI, ...args].map(quoted)].join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], { env: cliEnv(env, stateDir), stdio: ['pipe', 'pipe', 'pipe'] });
  let shown = '';
  let next = 0;
  /** Where the last answered question ended: a question counts only when shown after it. */
  let from = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
    const expected = answers[next];
    const at = expected === undefined ? -1 : shown.indexOf(expected.question, from);
    if (expected === undefined || at < 0) return;
    from = at + expected.question.length;
    next++;
    child.stdin.write(`${expected.answer}\r`);
  });
  child.stderr.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`cannot run "script" (util-linux) for a terminal: ${err.message}`)));
    child.once('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      outputs.push(shown);
      resolve({ code, shown, unasked: answers.slice(next).map((a) => a.question) });
    });
  });
}
