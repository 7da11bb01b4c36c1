import { interviewExplanation, interviewTable, type InterviewCell } from '../interview-metrics.js';
import { escapeHtml } from './escape.js';

/** The interview card (`run --interview`): the Markdown report's table, per cell; nothing for a run that asked none. */
export function interviewsHtml(cells: readonly InterviewCell[]): string {
  if (cells.length === 0) return '';
  const { judged, head, rows } = interviewTable(cells);
  const cell = (tag: 'th' | 'td') => (text: string) => `<${tag}>${escapeHtml(text)}</${tag}>`;
  return `<section class="card" id="interviews-card">
    <h2>What the agents said when asked</h2>
    <p class="sub">${escapeHtml(interviewExplanation(judged).replaceAll('`', ''))}</p>
    <table id="interviews"><thead><tr>${head.map(cell('th')).join('')}</tr></thead><tbody>${rows
      .map((r) => `<tr>${r.map(cell('td')).join('')}</tr>`)
      .join('')}</tbody></table>
  </section>
  `;
}
