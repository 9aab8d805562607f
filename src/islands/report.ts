/** Opens the one 举报 dialog of the page from any island or script, mounting it (in its own React root) on first use. */
import { openReport, type ReportSubject } from '../stores/report.ts';

let mounted: Promise<void> | undefined;

/** Shows the report dialog about `subject` (the dialog's code loads on the first report of the page). */
export async function report(subject: ReportSubject): Promise<void> {
  mounted ??= (async () => {
    const [{ createRoot }, { createElement }, { ReportDialog }] = await Promise.all([
      import('react-dom/client'),
      import('react'),
      import('./ReportDialog.tsx'),
    ]);
    const host = document.createElement('div');
    host.dataset.reportHost = '';
    document.body.append(host);
    createRoot(host).render(createElement(ReportDialog));
  })();
  await mounted;
  openReport(subject);
}
