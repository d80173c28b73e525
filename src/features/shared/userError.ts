// The line between a failure the user can act on and a bug (see commands/registerCommand.ts).

/** An error whose message is written for the user: shown as it is, without a stack trace. */
export class UserError extends Error {
  override readonly name = 'UserError';
}
