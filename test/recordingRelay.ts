// A recording relay of the tests' own: a loopback TCP relay in front of the real sandbox that keeps
// every byte a client sends, so a test can compare what reached the service byte for byte.
import * as assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface RawRequest {
  readonly line: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** A TCP relay in front of `target`: every byte a client sends is kept, per connection, then handed on unchanged. */
export async function recordingRelay(target: URL): Promise<{ url: string; requests(): RawRequest[]; bytes(): number; close(): Promise<void> }> {
  const streams: Buffer[][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const sent: Buffer[] = [];
    streams.push(sent);
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => sent.push(chunk));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: () => streams.reduce((n, s) => n + s.reduce((m, c) => m + c.length, 0), 0),
    requests: () => streams.flatMap((s) => splitRequests(Buffer.concat(s))),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The HTTP/1.1 requests in the bytes of one connection (bodies with Content-Length, as the client sends them). */
function splitRequests(bytes: Buffer): RawRequest[] {
  const out: RawRequest[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    assert.ok(end > 0, 'a request head without its end');
    const [line, ...rest] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers = rest.map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()] as const);
    assert.ok(!headers.some(([k]) => k === 'transfer-encoding'), 'bodies go with a Content-Length');
    const length = Number(headers.find(([k]) => k === 'content-length')?.[1] ?? 0);
    out.push({ line, headers, body: bytes.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}
