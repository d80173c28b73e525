// The answer behind each test of the Test Explorer's last runs: the test's id → the result document
// of its request's answer (a history entry), so "Open Answer" on a test or its message finds it. In
// memory only, and bounded: the answers themselves live in the history.
const LIMIT = 1000;

export class TestAnswers {
  private readonly byTest = new Map<string, string>();

  set(testId: string, resultUri: string): void {
    // Re-inserted, so the oldest answers are the ones dropped.
    this.byTest.delete(testId);
    this.byTest.set(testId, resultUri);
    for (const oldest of this.byTest.keys()) {
      if (this.byTest.size <= LIMIT) break;
      this.byTest.delete(oldest);
    }
  }

  /** The result document of the test's answer, or of the request it belongs to (an assertion's id extends its request's). */
  of(testId: string): string | undefined {
    return this.byTest.get(testId) ?? this.byTest.get(testId.replace(/\/[^/#]*$/, ''));
  }

  forget(testId: string): void {
    this.byTest.delete(testId);
  }
}
