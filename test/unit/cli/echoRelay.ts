// A real sandbox with one `POST /v1/echo/…` route, behind a recording relay (recordingRelay.ts), in a
// temporary folder made afresh for each test: the CLI tests of request files use it to check what
// reached the service byte for byte.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { recordingRelay, type RawRequest } from '../../recordingRelay';
import { sandboxConfig } from '../core/harness';
import { tempDirs } from '../tempDirs';

const ROUTES = { routes: [{ name: 'echo', method: 'POST', pathPrefix: '/v1/echo/', body: { ok: true } }] };

export interface EchoRelay {
  /** This test's folder (the CLI's state folder; request files are written under it). */
  readonly dir: string;
  readonly sandbox: RunningSandbox;
  readonly relay: Awaited<ReturnType<typeof recordingRelay>>;
  /** The echo requests the relay has seen, in order. */
  echoes(): RawRequest[];
}

/** Registers beforeEach/afterEach hooks in the calling describe(); read the fields inside a test. `routes`: the sandbox's routes.json instead. */
export function useEchoRelay(prefix: string, routes: unknown = ROUTES): EchoRelay {
  const dirs = tempDirs();
  let current: { dir: string; sandbox: RunningSandbox; relay: Awaited<ReturnType<typeof recordingRelay>> } | undefined;
  const now = (): NonNullable<typeof current> => {
    if (!current) throw new Error('useEchoRelay: read its fields inside a test');
    return current;
  };
  beforeEach(async () => {
    const dir = await dirs.make(prefix);
    await mkdir(join(dir, 'fixtures'));
    await writeFile(join(dir, 'fixtures', 'routes.json'), JSON.stringify(routes));
    const sandbox = await startSandbox({ port: 0, config: sandboxConfig(), fixturesDir: join(dir, 'fixtures') });
    current = { dir, sandbox, relay: await recordingRelay(new URL(sandbox.url)) };
  });
  afterEach(async () => {
    const c = current;
    current = undefined;
    await c?.relay.close();
    await c?.sandbox.close();
  });
  return {
    get dir() {
      return now().dir;
    },
    get sandbox() {
      return now().sandbox;
    },
    get relay() {
      return now().relay;
    },
    echoes: () => now().relay.requests().filter((r) => r.line.startsWith('POST /v1/echo/')),
  };
}
