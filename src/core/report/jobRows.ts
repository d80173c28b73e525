// A job's rows (a batch's inputs, a data file's rows) as its report and its summary count them. A job
// is every run over the same results file: a row an earlier run finished is the job's, told apart
// from this run's, so the report after the last rerun is the report of the whole job.

/** One row of a job, by its latest result. */
export interface ReportRow {
  /** The row named by its values: a data row's columns, a batch's input. */
  readonly label: string;
  /** Where it is: ROWS:LINE of a data file; none for a batch's input. */
  readonly where?: string;
  /**
   * `ok`, `failed` by its latest result; `done`: finished by an earlier run whose results (a CSV)
   * keep no verdict; `repeated`: a repeat of an earlier row, looked up once; `unsent`: no run has
   * finished it yet, nor tried it in this one.
   */
  readonly outcome: 'ok' | 'failed' | 'done' | 'repeated' | 'unsent';
  /** Finished by an earlier run (this run skipped it). */
  readonly earlier?: boolean;
  /** A failure a later run tries again (network, limits, a stop): the row is not done. */
  readonly again?: boolean;
  readonly status?: number;
  readonly code?: string;
  /** The failure's words, as the results file holds them. */
  readonly text?: string;
}

/** The whole job: every row, by its latest result. `ok + failed + unjudged + repeated + notDone = rows`. */
export interface JobCounts {
  readonly rows: number;
  readonly ok: number;
  /** Failed for good (a later run skips it). */
  readonly failed: number;
  /** Finished by an earlier run whose results file keeps no verdict (CSV). */
  readonly unjudged: number;
  /** Repeats of an earlier row of the input (a batch looks each up once). */
  readonly repeated: number;
  /** Still to run: never tried, or failed in a way a later run tries again. */
  readonly notDone: number;
  /** Of the rows finished: those an earlier run finished. */
  readonly earlier: number;
}

/** This run's own rows: those it ran and wrote. */
export interface RunCounts {
  readonly rows: number;
  readonly ok: number;
  /** Failed, for good or to try again. */
  readonly failed: number;
  /** Of those failed: to try again (the job counts them as not done). */
  readonly again: number;
}

/** Counts a job row by row, in one pass, holding no row. */
export class RowTally {
  private readonly counts = { rows: 0, ok: 0, failed: 0, unjudged: 0, repeated: 0, notDone: 0, earlier: 0 };
  private readonly run = { rows: 0, ok: 0, failed: 0, again: 0 };

  add(row: Pick<ReportRow, 'outcome' | 'earlier' | 'again'>): void {
    const c = this.counts;
    c.rows++;
    if (row.earlier) c.earlier++;
    else if (row.outcome === 'ok' || row.outcome === 'failed') {
      this.run.rows++;
      this.run[row.outcome]++;
      if (row.outcome === 'failed' && row.again) this.run.again++;
    }
    if (row.outcome === 'ok') c.ok++;
    else if (row.outcome === 'failed' && !row.again) c.failed++;
    else if (row.outcome === 'done') c.unjudged++;
    else if (row.outcome === 'repeated') c.repeated++;
    else c.notDone++;
  }

  job(): JobCounts {
    return { ...this.counts };
  }

  thisRun(): RunCounts {
    return { ...this.run };
  }
}

/** The job's and this run's counts of rows. */
export function countRows(rows: Iterable<Pick<ReportRow, 'outcome' | 'earlier' | 'again'>>): { readonly job: JobCounts; readonly thisRun: RunCounts } {
  const tally = new RowTally();
  for (const r of rows) tally.add(r);
  return { job: tally.job(), thisRun: tally.thisRun() };
}

/**
 * One character per row, in order, for the outcome grid: `o` ok, `f` failed, `a` failed and to run
 * again, in this run; `O`, `F`, `d` finished by an earlier run (ok, failed, no verdict kept); `r` a
 * repeat; `u` not done.
 */
export function rowCell(r: Pick<ReportRow, 'outcome' | 'earlier' | 'again'>): string {
  switch (r.outcome) {
    case 'ok':
      return r.earlier ? 'O' : 'o';
    case 'failed':
      return r.earlier ? 'F' : r.again ? 'a' : 'f';
    case 'done':
      return 'd';
    case 'repeated':
      return 'r';
    default:
      return 'u';
  }
}

/** A data row named by its values: `country=US, name=Acme, Inc.`, cut to a readable length. */
export function valuesLabel(values: Readonly<Record<string, string>>, max = 120): string {
  const text = Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
    .replace(/[\r\n\t]+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
