// Mocha's spec reporter plus one plain closing line, "<suite>: N passed, N failed", that CI reads
// (in parallel mode too: the counts come from the events the workers send back).
'use strict';
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const label = (options && options.reporterOptions && options.reporterOptions.suite) || process.env.BIZDATA_SUITE || 'tests';
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      Mocha.reporters.Base.consoleLog(`${label}: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
    });
  }
}

module.exports = SummaryReporter;
