// The one way a thrown value becomes text, everywhere (core, command line, extension).

/** The message of a thrown value, without stack noise. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
