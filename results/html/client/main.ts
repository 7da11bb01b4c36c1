import { renderCells } from './cells.js';
import { buildFilters } from './filters.js';
import { renderHeadline } from './headline.js';
import { renderKinds } from './kinds.js';
import { renderMonitors } from './monitors.js';
import { renderRunInfo } from './run-info.js';
import { renderSample } from './sample-view.js';
import { renderSamples } from './samples.js';
import { filterSamples, onFilterChange } from './state.js';
import { renderStats } from './stats.js';

/**
 * The report page's script, bundled into one inline script (client-bundle.ts): it draws everything from the page's
 * JSON with DOM calls and `textContent` only, and routes between the overview and one sample (`#sample-ID`).
 */
function applyFilters(): void {
  const inScope = filterSamples();
  renderStats(inScope);
  renderKinds(inScope);
  renderMonitors();
  renderHeadline();
  renderCells();
  renderSamples();
}

let overviewScroll = 0;

function route(): void {
  const m = /^#sample-(\d+)$/.exec(location.hash);
  const overview = document.getElementById('overview') as HTMLElement;
  const view = document.getElementById('sample-view') as HTMLElement;
  if (m) {
    if (!overview.hidden) overviewScroll = window.scrollY;
    overview.hidden = true;
    view.hidden = false;
    renderSample(Number(m[1]));
    window.scrollTo(0, 0);
  } else {
    view.hidden = true;
    overview.hidden = false;
    window.scrollTo(0, overviewScroll);
  }
}

onFilterChange(applyFilters);
buildFilters();
applyFilters();
renderRunInfo();
window.addEventListener('hashchange', route);
route();
document.body.setAttribute('data-ready', 'true');
