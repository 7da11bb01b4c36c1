import { writeHtmlReportStreaming } from '../../results/html/stream-report.js';
import { openStore } from '../../results/store.js';

/**
 * Writes a run's self-contained HTML report (the page of `report RUN --html FILE`), atomically. It embeds
 * every transcript unless `maxTranscripts` says otherwise: the demo's runs are small enough.
 */
export async function writeHtmlReport(storePath: string, runId: string, file: string, maxTranscripts = Number.POSITIVE_INFINITY): Promise<void> {
  const store = openStore(storePath, { mustExist: true });
  try {
    await writeHtmlReportStreaming(store, runId, file, { maxTranscripts, storeLabel: storePath });
  } finally {
    store.close();
  }
}
