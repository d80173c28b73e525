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
  /** Each connection's bytes, each chunk with its place in the order all connections' chunks arrived. */
  const streams: Array<Array<{ readonly seq: number; readonly chunk: Buffer }>> = [];
  let arrived = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const sent: Array<{ readonly seq: number; readonly chunk: Buffer }> = [];
    streams.push(sent);
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => sent.push({ seq: arrived++, chunk }));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: () => streams.reduce((n, s) => n + s.reduce((m, c) => m + c.chunk.length, 0), 0),
    // In the order they reached the relay, whichever connection of the client's pool carried them.
    requests: () =>
      streams
        .flatMap((s) => splitRequests(s))
        .sort((a, b) => a.seq - b.seq)
        .map((r) => r.request),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The HTTP/1.1 requests in the bytes of one connection (bodies with Content-Length, as the client sends them), each with the arrival of its first byte. */
function splitRequests(chunks: ReadonlyArray<{ readonly seq: number; readonly chunk: Buffer }>): Array<{ readonly seq: number; readonly request: RawRequest }> {
  const bytes = Buffer.concat(chunks.map((c) => c.chunk));
  const seqAt = (offset: number): number => {
    let start = 0;
    for (const c of chunks) {
      if (offset < start + c.chunk.length) return c.seq;
      start += c.chunk.length;
    }
    return chunks.at(-1)?.seq ?? 0;
  };
  const out: Array<{ readonly seq: number; readonly request: RawRequest }> = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    assert.ok(end > 0, 'a request head without its end');
    const [line, ...rest] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers = rest.map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()] as const);
    assert.ok(!headers.some(([k]) => k === 'transfer-encoding'), 'bodies go with a Content-Length');
    const length = Number(headers.find(([k]) => k === 'content-length')?.[1] ?? 0);
    out.push({ seq: seqAt(at), request: { line, headers, body: bytes.subarray(end + 4, end + 4 + length) } });
    at = end + 4 + length;
  }
  return out;
}
