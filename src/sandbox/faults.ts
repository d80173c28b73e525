// Fault injection for tests and demos: the failures and odd answers a client must survive, on demand.
// Most faults replace the handling of a request before anything is checked. A `respond` fault
// comes after the request's usual authentication (credentials or token, account, input, limits),
// so the client's whole path runs as it would, and then answers exactly what the fault says.
import type { IncomingMessage } from 'node:http';
import type { Customer } from './customers';
import { type Answer, checkHeaders, exactAnswer, pathOf } from './http';

export const FAULT_TYPES = ['latency', 'status', 'reset', 'malformed-json', 'truncated-gzip', 'respond'] as const;
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
  /** For `status` and `respond`: the HTTP status to answer with. */
  readonly status?: number;
  /** For `respond`: header names in lower case. */
  readonly headers?: Readonly<Record<string, string>>;
  /** For `respond`: a string is sent as is; any other JSON value as JSON. */
  readonly body?: unknown;
}

export class FaultInputError extends Error {}

const COMMON = ['type', 'path', 'count', 'probability'];
const PROPERTIES: Readonly<Record<FaultType, readonly string[]>> = {
  latency: [...COMMON, 'latencyMs'],
  status: [...COMMON, 'status'],
  reset: COMMON,
  'malformed-json': COMMON,
  'truncated-gzip': COMMON,
  respond: [...COMMON, 'status', 'headers', 'body'],
};
function field<T>(v: unknown, name: string, check: (x: unknown) => x is T, what: string): T | undefined {
  if (v === undefined) return undefined;
  if (!check(v)) throw new FaultInputError(`"${name}" must be ${what}.`);
  return v;
}

const isInt = (min: number, max: number) => (x: unknown): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class FaultSet {
  private faults: Fault[] = [];
  private counter = 0;

  constructor(private readonly random: () => number = Math.random) {}

  /** Validates a fault request body and adds it; throws FaultInputError with a clear message. */
  add(body: unknown): Fault {
    if (!isObject(body)) {
      throw new FaultInputError('The body must be a JSON object such as {"type": "status", "status": 503, "count": 1}.');
    }
    const type = body.type;
    if (typeof type !== 'string' || !(FAULT_TYPES as readonly string[]).includes(type)) {
      throw new FaultInputError(`"type" must be one of ${FAULT_TYPES.join(', ')}.`);
    }
    const allowed = PROPERTIES[type as FaultType];
    const unknown = Object.keys(body).find((k) => !allowed.includes(k));
    if (unknown !== undefined) throw new FaultInputError(`Unknown property "${unknown.slice(0, 60)}" for a ${type} fault; allowed: ${allowed.join(', ')}.`);
    const path = field(body.path, 'path', (x): x is string => typeof x === 'string' && x.startsWith('/'), 'a path starting with "/"');
    const count = field(body.count, 'count', isInt(1, 1_000_000), 'an integer from 1 to 1000000');
    const probability = field(
      body.probability, 'probability', (x): x is number => typeof x === 'number' && x >= 0 && x <= 1, 'a number from 0 to 1');
    // At most two minutes: with a customer's responseDelayMs it stays within the server's idle timeout.
    const latencyMs = field(body.latencyMs, 'latencyMs', isInt(0, 120_000), 'an integer from 0 to 120000');
    const status = type === 'respond'
      ? field(body.status, 'status', isInt(200, 599), 'an HTTP status from 200 to 599')
      : field(body.status, 'status', isInt(100, 599), 'an HTTP status from 100 to 599');
    if (type === 'latency' && latencyMs === undefined) throw new FaultInputError('A latency fault needs "latencyMs".');
    if ((type === 'status' || type === 'respond') && status === undefined) throw new FaultInputError(`A ${type} fault needs "status".`);
    if ((status === 204 || status === 304) && body.body !== undefined) throw new FaultInputError(`A ${status} answer has no body; leave "body" out.`);
    const headers = body.headers === undefined ? undefined : checkHeaders(body.headers);
    if (typeof headers === 'string') throw new FaultInputError(`"headers" ${headers}.`);
    this.counter += 1;
    const fault: Fault = {
      id: `fault-${this.counter}`, type: type as FaultType, path, remaining: count, probability, latencyMs, status, headers, body: body.body,
    };
    this.faults.push(fault);
    return fault;
  }

  get size(): number {
    return this.faults.length;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  /**
   * The first fault of this phase that applies to the request, counting it down; undefined almost
   * always. `before` faults replace the handling; `answer` faults (respond) replace the answer.
   */
  take(path: string, phase: 'before' | 'answer'): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    for (const f of this.faults) {
      if ((f.type === 'respond') !== (phase === 'answer')) continue;
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

/** What a respond fault needs of the sandbox: its faults, and the statistics that count the answer. */
export interface FaultContext {
  readonly faults: FaultSet;
  readonly store: { noteCode(customer: Customer | undefined, code: string): void };
}

/**
 * Where a request passed its usual checks: the answer of a respond fault that applies to it, if any
 * (counted in the customer's statistics as `fault:respond`), instead of the usual one.
 */
export function respondFault(ctx: FaultContext, req: IncomingMessage, customer?: Customer): Answer | undefined {
  if (ctx.faults.size === 0) return undefined;
  const fault = ctx.faults.take(pathOf(req.url), 'answer');
  if (fault === undefined) return undefined;
  ctx.store.noteCode(customer, 'fault:respond');
  return exactAnswer(fault.status ?? 200, fault.headers, fault.body, 'fault:respond');
}
