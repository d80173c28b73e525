// What the tests of `bizdata import` share: a real sandbox that answers every method under its echo
// paths (both interfaces), behind the recording relay, the built CLI run against it, the requests the
// relay saw taken apart (method, path, query, headers, body), and every file an import wrote, read.
import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RawRequest } from '../../recordingRelay';
import { canaryEnv, runCli, type Run } from './cliHarness';
import { useEchoRelay, type EchoRelay } from './echoRelay';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Interface A's echo paths under /v1/echo/, Interface B's under /V9.9/echo/: every method answers 200 {"ok": true}. */
const ROUTES = {
  routes: METHODS.flatMap((method) => [
    { method, pathPrefix: '/v1/echo/', body: { ok: true } },
    { method, pathPrefix: '/V9.9/echo/', body: { ok: true } },
  ]),
};

export interface Sent {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly rawQuery: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

export interface ImportRuns {
  readonly at: EchoRelay;
  readonly outputs: string[];
  /** The built CLI with the relay as every service address and the canary credentials. */
  run(args: readonly string[], env?: Record<string, string>): Promise<Run>;
  /** The echo requests the relay saw, in order, taken apart. */
  sent(): Sent[];
  /** Every request the relay saw (sign-ins too), each as text: line, headers, body. */
  wire(): string[];
}

export function useImportRuns(prefix: string): ImportRuns {
  const at = useEchoRelay(prefix, ROUTES);
  const outputs: string[] = [];
  return {
    at,
    outputs,
    run: (args, env = {}) => runCli(args, { ...canaryEnv(at.relay.url), ...env }, at.dir, outputs, 30_000),
    sent: () =>
      at.relay
        .requests()
        .filter((r) => /^\S+ \/(?:v1|V9\.9)\/echo\//.test(r.line))
        .map(taken),
    wire: () => at.relay.requests().map((r) => `${r.line}\n${r.headers.map((h) => h.join(': ')).join('\n')}\n${r.body.toString('latin1')}`),
  };
}

function taken(r: RawRequest): Sent {
  const [method, target] = r.line.split(' ');
  const q = target.indexOf('?');
  return {
    method,
    path: q < 0 ? target : target.slice(0, q),
    rawQuery: q < 0 ? '' : target.slice(q + 1),
    query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
    headers: new Map(r.headers),
    body: r.body,
  };
}

/** Every file under `dir` (one level: an import writes flat), by name, as text. */
export async function filesIn(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n), 'utf8')] as const)));
}

/** None of `secrets` in any of `texts`, in clear or base64. */
export function assertNoSecret(texts: Iterable<string>, secrets: readonly string[]): void {
  for (const text of texts) {
    for (const s of secrets) {
      assert.ok(!text.includes(s), `a secret (${s.slice(0, 6)}…) was written`);
      assert.ok(!text.includes(Buffer.from(s).toString('base64')), `a secret (${s.slice(0, 6)}…) was written in base64`);
    }
  }
}

/** The fields of a form body the service received, after checking it came as a form. */
export function formFields(r: Sent | undefined): string[][] {
  assert.equal(r?.headers.get('content-type'), 'application/x-www-form-urlencoded');
  return [...new URLSearchParams(r?.body.toString())];
}
