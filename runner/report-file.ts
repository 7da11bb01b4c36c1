import { writeFileAtomic } from '../core/atomic-write.js';
import { renderHtml } from '../results/html/page.js';
import { loadFullReportData } from '../results/report-data.js';
import { openStore } from '../results/store.js';

/** Writes a run's self-contained HTML report (the same page as `report RUN --html FILE`), atomically. */
export async function writeHtmlReport(storePath: string, runId: string, file: string): Promise<void> {
  const store = openStore(storePath, { mustExist: true });
  try {
    writeFileAtomic(file, renderHtml(loadFullReportData(store, runId)));
  } finally {
    store.close();
  }
}
