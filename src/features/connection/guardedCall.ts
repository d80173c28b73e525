// The path every call of a connection goes through, in order: may the stored credentials go to the
// current sign-in address (boundCredentials.ts), can the interface be called (readiness.ts; asked
// once per call: a host that asked first, to offer the fix before showing progress, says so), then
// the call and, when the lockout guard refuses, the user's word (guardPrompt.ts) and on "Try anyway"
// the call again with `confirmRisk`. Plain TypeScript (unit-tested in plain Node).
import type { CallOptions } from '../../core/clientOptions';
import type { CallResult, InterfaceId } from '../../core/model';
import { notReadyFailure, type NotReady } from './readiness';

export interface CallGate {
  /** Undefined when the stored credentials may go to the current sign-in address; else the failure of a call that sent nothing. */
  mayGo(id: InterfaceId): Promise<CallResult | undefined>;
  readiness(id: InterfaceId): Promise<NotReady | undefined>;
  /** The lockout guard refused: true when the user says to try anyway. */
  confirmRisk(id: InterfaceId): Promise<boolean>;
  /** The interface is being called now (the status bar names it). */
  using(id: InterfaceId): void;
}

/** `readinessAsked`: the host asked readiness for `id` just before and it was ready (Connection.whenReady). */
export async function guardedCall(gate: CallGate, id: InterfaceId, run: (o: CallOptions) => Promise<CallResult>, options: CallOptions, readinessAsked = false): Promise<CallResult> {
  const moved = await gate.mayGo(id);
  if (moved) return moved;
  const reason = readinessAsked ? undefined : await gate.readiness(id);
  if (reason) return notReadyFailure(reason);
  gate.using(id);
  const first = await run(options);
  if (first.ok || first.kind !== 'guard') return first;
  if (!(await gate.confirmRisk(id))) return first;
  return run({ ...options, confirmRisk: true });
}
