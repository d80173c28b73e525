// Fault injection for tests and demos: the failures a client must survive, on demand.

export const FAULT_TYPES = ['latency', 'status', 'reset', 'malformed-json', 'truncated-gzip'] as const;
export type FaultType = (typeof FAULT_TYPES)[number];

export interface Fault {
  readonly id: string;
  readonly type: FaultType;
  /** Applies only to requests whose path starts with this; every non-admin path when absent. */
  readonly path?: string;
  /** Requests left to affect; unlimited (until DELETE) when absent. */
  remaining?: number;
  /** Chance, 0 to 1, that a matching request is affected; 1 when absent. */
  readonly probability?: number;
  /** For `latency`: added delay before the request is handled normally. */
  readonly latencyMs?: number;
  /** For `status`: the HTTP status to answer with. */
  readonly status?: number;
}

export class FaultInputError extends Error {}

function field<T>(v: unknown, name: string, check: (x: unknown) => x is T, what: string): T | undefined {
  if (v === undefined) return undefined;
  if (!check(v)) throw new FaultInputError(`"${name}" must be ${what}.`);
  return v;
}

const isInt = (min: number, max: number) => (x: unknown): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

export class FaultSet {
  private faults: Fault[] = [];
  private counter = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** Validates a fault request body and adds it; throws FaultInputError with a clear message. */
  add(body: unknown): Fault {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new FaultInputError('The body must be a JSON object such as {"type": "status", "status": 503, "count": 1}.');
    }
    const b = body as Record<string, unknown>;
    const allowed = ['type', 'path', 'count', 'probability', 'latencyMs', 'status'];
    const unknown = Object.keys(b).find((k) => !allowed.includes(k));
    if (unknown !== undefined) throw new FaultInputError(`Unknown property "${unknown}"; allowed: ${allowed.join(', ')}.`);
    const type = b.type;
    if (typeof type !== 'string' || !(FAULT_TYPES as readonly string[]).includes(type)) {
      throw new FaultInputError(`"type" must be one of ${FAULT_TYPES.join(', ')}.`);
    }
    const path = field(b.path, 'path', (x): x is string => typeof x === 'string' && x.startsWith('/'), 'a path starting with "/"');
    const count = field(b.count, 'count', isInt(1, 1_000_000), 'an integer from 1 to 1000000');
    const probability = field(
      b.probability, 'probability', (x): x is number => typeof x === 'number' && x >= 0 && x <= 1, 'a number from 0 to 1');
    // At most two minutes: with a customer's responseDelayMs it stays within the server's idle timeout.
    const latencyMs = field(b.latencyMs, 'latencyMs', isInt(0, 120_000), 'an integer from 0 to 120000');
    const status = field(b.status, 'status', isInt(100, 599), 'an HTTP status from 100 to 599');
    if (type === 'latency' && latencyMs === undefined) throw new FaultInputError('A latency fault needs "latencyMs".');
    if (type === 'status' && status === undefined) throw new FaultInputError('A status fault needs "status".');
    this.counter += 1;
    const fault: Fault = { id: `fault-${this.counter}`, type: type as FaultType, path, remaining: count, probability, latencyMs, status };
    this.faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  /** The first fault that applies to this request, counting it down; undefined almost always. */
  take(path: string): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    for (const f of this.faults) {
      if (f.path !== undefined && !path.startsWith(f.path)) continue;
      if (f.probability !== undefined && this.random() >= f.probability) continue;
      if (f.remaining !== undefined) {
        f.remaining -= 1;
        if (f.remaining <= 0) this.faults = this.faults.filter((x) => x !== f);
      }
      return f;
    }
    return undefined;
  }
}
