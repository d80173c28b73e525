// "Business Data: Open Report": the report of this window's latest Test Explorer run or batch, in a
// webview beside the editors.
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';

export async function openReport(services: Services): Promise<void> {
  const report = services.reports.latest;
  if (!report) throw new UserError('There is no run to report yet. Run request files from the Testing view, or run a batch ("Business Data: Run Batch Lookup"), then open the report.');
  await services.reportPanel.show(report);
}
