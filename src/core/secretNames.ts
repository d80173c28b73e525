// The one rule of which names hold a secret: a prompt whose answer is masked, a variable, header, query
// parameter or body field of an imported file whose value never lands in a file. Broad on purpose:
// a name taken for a secret by mistake costs a question; a secret taken for a plain value leaks.
const SECRET_NAME = /pass|pwd|secret|token|key|credential|auth/i;

/** Whether a name (of a variable, header, parameter or field) says it holds a secret. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
