// The one place a data call is counted: the exchange (core/exchange/exchange.ts) asks here before
// each data call goes on the wire, whatever host sent it. The run's ceiling gives it a place or
// refuses; the contract's count takes it (counted before it is sent, so a call whose answer is lost,
// or a process killed mid-call, still counts) or refuses it, when the service already answered SC005
// in this period, in any process sharing the store. A call that surely never left is given back; an
// SC005 answer marks the period for every process. Sign-ins are not data calls and never come here.
import type { UsageStore } from '../ports';
import type { CallCeiling } from './ceiling';
import { type Contract, periodAt, periodWord } from './contract';
import { keepMsOf, readUsage, type ContractUsage } from './usage';

/** The contract's code for "Maximum limit permitted by the contract reached" (spec 7.2). */
export const CONTRACT_REACHED = 'SC005';

export interface MeterOptions {
  /** Whose count (core/accounts/session.ts contractScope). */
  readonly scope: string;
  /** The connection, for messages. */
  readonly connection: string;
  readonly contract: Contract;
  readonly store: UsageStore;
  readonly now?: () => number;
}

/** A contract's count of data calls, as one client keeps it through the shared store. */
export class ContractMeter {
  private readonly now: () => number;

  constructor(private readonly o: MeterOptions) {
    this.now = o.now ?? Date.now;
  }

  get connection(): string {
    return this.o.connection;
  }

  /** The contract's usage now. */
  usage(): Promise<ContractUsage> {
    return readUsage(this.o.store, this.o.scope, this.o.connection, this.o.contract, this.now());
  }

  /** Counts a call about to be sent in the period now; or the refusal, when the period is marked reached. */
  async take(): Promise<{ readonly period: string } | { readonly refused: string }> {
    const now = this.now();
    const span = periodAt(this.o.contract, now);
    const taken = await this.o.store.take(this.o.scope, span.key, keepMsOf(span, now));
    if (taken.counted) return { period: span.key };
    const when = taken.reachedAt > 0 ? ` at ${new Date(taken.reachedAt).toISOString()}` : '';
    const reset = new Date(span.end).toISOString().slice(0, 10);
    const reached = `The contract of the connection "${this.o.connection}" reached its limit ${periodWord(this.o.contract.period)}`;
    const until = `so no data call is sent until the period resets on ${reset}; nothing was sent`;
    return { refused: `${reached}: the service answered ${CONTRACT_REACHED}${when}, ${until}.` };
  }

  giveBack(period: string): Promise<void> {
    return this.o.store.giveBack(this.o.scope, period);
  }

  /** The service answered SC005: the period is marked for every process sharing the store. */
  reached(period: string): Promise<void> {
    const now = this.now();
    const span = periodAt(this.o.contract, now);
    return this.o.store.markReached(this.o.scope, period, now, keepMsOf(span, now));
  }

  /** What to do about a refusal: wait for the reset, or lift the mark once the operator raised the limit. */
  get advice(): string {
    const reset = `bizdata usage --reset --connection ${this.o.connection}`;
    return `If the operator raised the limit, run "${reset}" (and raise "maxCalls" of its "contract"); otherwise wait for the reset.`;
  }
}

/** One data call on its way: give it back if it surely never left, tell its answer's code. */
export interface DataCallTurn {
  notSent(): Promise<void>;
  answered(code: string | undefined): Promise<void>;
}

/** Why the call may not go: the run's ceiling, or the contract marked reached. */
export interface TurnRefusal {
  readonly refused: { readonly kind: 'ceiling' | 'limit'; readonly text: string; readonly advice: string };
}

/**
 * Before a data call goes on the wire: a place under the run's ceiling, then the contract's count.
 * A store that throws (its folder, its coordinator) gives the ceiling's place back and throws.
 */
export async function beginDataCall(meter: ContractMeter | undefined, ceiling: CallCeiling | undefined): Promise<DataCallTurn | TurnRefusal> {
  if (ceiling && !ceiling.take()) {
    const f = ceiling.failure();
    return { refused: { kind: 'ceiling', text: f.text, advice: f.advice } };
  }
  let taken: Awaited<ReturnType<ContractMeter['take']>> | undefined;
  try {
    taken = await meter?.take();
  } catch (err) {
    ceiling?.giveBack();
    throw err;
  }
  if (taken && 'refused' in taken) {
    ceiling?.giveBack();
    return { refused: { kind: 'limit', text: taken.refused, advice: meter?.advice ?? '' } };
  }
  const period = taken?.period;
  return {
    notSent: async () => {
      ceiling?.giveBack();
      if (meter && period !== undefined) await meter.giveBack(period);
    },
    answered: async (code) => {
      if (meter && period !== undefined && code === CONTRACT_REACHED) await meter.reached(period);
    },
  };
}
