// Which data file belongs to a request file: NAME.data.csv or NAME.data.jsonl beside NAME.bizdata.http
// makes it data-driven, a run per row, wherever it runs (the Test Explorer, `bizdata test`, `bizdata
// send`), so the same file gives the same verdict everywhere. Paths only: the hosts read the files.

const REQUEST_ENDING = /\.bizdata\.http$/;
const DATA_ENDINGS = ['.data.csv', '.data.jsonl'] as const;

/** The data files a request file may have beside it, in the order they are looked for; none for a file not named NAME.bizdata.http. */
export function dataFileCandidates(requestFile: string): string[] {
  return REQUEST_ENDING.test(requestFile) ? DATA_ENDINGS.map((ending) => requestFile.replace(REQUEST_ENDING, ending)) : [];
}

/** NAME.bizdata.http for NAME.data.csv or NAME.data.jsonl. */
export function requestFileOfData(dataFile: string): string {
  return dataFile.replace(/\.data\.(csv|jsonl)$/, '.bizdata.http');
}

/** Where a data-driven run's results go without `--out`: beside the data file, named after it (`rows.csv` → `rows.results.jsonl`). */
export function resultsFileOf(dataFile: string): string {
  return dataFile.replace(/(\.[^./\\]*)?$/, '.results.jsonl');
}
