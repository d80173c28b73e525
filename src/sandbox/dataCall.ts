// The steps every data call takes, whatever the operation (the IP lookup, the organizations lookup,
// a fixtures route): the interface's token check, the account, the input, the customer's limits
// (SC004, SC005, SC006), the customer's delay, then the answer. The interfaces differ only in how
// they read the token and how they word a refusal, which a DataCallSide supplies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUCCESS_CODE } from '../core/codes/codes';
import type { SandboxContext } from './context';
import { respondFault } from './faults';
import { type Answer, ErrorAnswer } from './http';
import type { Customer, TokenCheck } from './store';

export type ValidToken = Extract<TokenCheck, { ok: true }>;

export interface DataCallSide {
  /** Checks what precedes the token (A: Origin) and the token; throws the interface's refusal. */
  authorize(ctx: SandboxContext, req: IncomingMessage): ValidToken;
  /** Checks the account behind a valid token (B: lock, expired credentials); throws a refusal. */
  checkAccount?(ctx: SandboxContext, token: ValidToken): void;
  /** The interface's refusal for a customer-level code (SC004, SC005, SC006). */
  refuse(ctx: SandboxContext, code: string): ErrorAnswer;
}

/**
 * Runs a data call. `prepare` validates the input (throwing a 400) and returns what makes the
 * answer once the call is admitted; a 2xx answer counts against the contract. A respond fault
 * replaces the answer of an admitted call (and uses no contract).
 */
export async function dataCall(
  ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, side: DataCallSide, prepare: () => () => Answer,
): Promise<Answer> {
  let customer: Customer | undefined;
  try {
    // authorize() counts its own refusals: before it, no customer is known.
    const token = side.authorize(ctx, req);
    customer = token.customer;
    customer.stats.dataCalls += 1;
    side.checkAccount?.(ctx, token);
    const produce = prepare();
    const refused = admitDataCall(ctx, customer, res);
    if (refused !== undefined) throw side.refuse(ctx, refused);
    if (customer.responseDelayMs > 0) await ctx.delay(customer.responseDelayMs);
    const answer = respondFault(ctx, req, customer) ?? produce();
    if (answer.code === 'fault:respond') {
      // Counted by respondFault; uses no contract.
    } else if (answer.status >= 200 && answer.status < 300) {
      ctx.store.useContract(customer);
      ctx.store.noteCode(customer, SUCCESS_CODE);
    } else if (answer.code !== undefined) {
      ctx.store.noteCode(customer, answer.code);
    }
    answer.vary = true;
    return answer;
  } catch (err) {
    if (!(err instanceof ErrorAnswer)) throw err;
    if (customer !== undefined) ctx.store.noteCode(customer, err.code);
    return varying(err.answer());
  }
}

/** A data-call answer, success or refusal: it could have been compressed, so it varies with Accept-Encoding. */
export function varying(answer: Answer): Answer {
  answer.vary = true;
  return answer;
}

/**
 * Customer-level checks of a data call, in the order the service would apply them: subscriber
 * expiry (SC004), contract usage (SC005), then QPS and concurrency (SC006). On success a slot is
 * held until the response closes. Returns the refusing code, or undefined when admitted.
 */
function admitDataCall(ctx: SandboxContext, customer: Customer, res: ServerResponse): string | undefined {
  if (ctx.store.isSubscriberExpired(customer)) return 'SC004';
  if (ctx.store.contractExhausted(customer)) return 'SC005';
  if (!customer.limiter.tryAcquire()) return 'SC006';
  // A client that hung up while the request waited (injected latency) already fired 'close':
  // listening for it now would hold the slot for ever.
  if (res.destroyed || res.socket === null || res.socket.destroyed) customer.limiter.release();
  else res.once('close', () => customer.limiter.release());
  if (customer.limiter.active > customer.stats.maxConcurrency) customer.stats.maxConcurrency = customer.limiter.active;
  return undefined;
}
