// What a command's thrown error becomes. A UserError is a message written for the user and shown
// as it is, and so is a coordinator's failure with what to do; anything else is a bug or an unexpected failure: its stack goes to the log, and the user
// sees one message that points there. Plain TypeScript (unit-tested in plain Node).
import { errorMessage } from '../core/errors';
import { CoordinatorUnavailableError } from '../core/ports';
import { redact } from '../core/redact';
import { UserError } from '../features/shared/userError';

export interface CommandFailure {
  /** The one message shown. */
  readonly message: string;
  /** The log line: for an unexpected error, with its stack (redacted like every log line). */
  readonly logLine: string;
  /** Offer "Show Log": the log holds more than the message. */
  readonly unexpected: boolean;
}

export function describeCommandFailure(commandId: string, err: unknown): CommandFailure {
  if (err instanceof UserError) {
    return { message: `Business Data: ${err.message}`, logLine: `${commandId}: ${err.message}`, unexpected: false };
  }
  // A coordinator that cannot be reached or refuses the password is the user's to fix, not a bug.
  if (CoordinatorUnavailableError.is(err)) {
    return { message: `Business Data: ${err.message} ${err.advice}`, logLine: `${commandId}: ${err.message}`, unexpected: false };
  }
  const detail = err instanceof Error && err.stack ? err.stack : errorMessage(err);
  return {
    message: `Business Data: ${commandId} failed: ${redact(errorMessage(err))}`,
    logLine: `${commandId} failed: ${redact(detail)}`,
    unexpected: true,
  };
}
