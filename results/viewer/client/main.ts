import { renderCompare } from './compare.js';
import { clear, h } from './dom.js';
import { renderRuns } from './runs.js';
import { renderSample } from './sample.js';
import { renderSamples } from './samples.js';

/**
 * The viewer's router: the hash says which page is shown (`#/runs`, `#/samples?filters`, `#/sample/ID`, `#/compare?run=ID&by=SETTING`),
 * so each is a stable link. `body[data-ready]` tells a waiting browser the page is drawn.
 */
async function show(): Promise<void> {
  const host = document.getElementById('view') as HTMLElement;
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = hash.split('?');
  document.body.dataset.ready = 'false';
  const page = path.startsWith('sample/') ? 'sample' : path === 'samples' ? 'samples' : path === 'compare' ? 'compare' : 'runs';
  document.body.dataset.view = page;
  for (const name of ['runs', 'samples'])
    document.getElementById(`nav-${name}`)?.classList.toggle('current', page.startsWith(name.slice(0, -1)) && page === name);
  try {
    if (page === 'sample') await renderSample(host, path.slice('sample/'.length));
    else if (page === 'samples') await renderSamples(host, new URLSearchParams(search));
    else if (page === 'compare') await renderCompare(host, new URLSearchParams(search));
    else await renderRuns(host);
    window.scrollTo(0, 0);
  } catch (err) {
    clear(host).append(h('p', { class: 'muted', id: 'view-error', text: `Could not load this page: ${(err as Error).message}` }));
  }
  document.body.dataset.ready = 'true';
}

window.addEventListener('hashchange', () => void show());
void show();
