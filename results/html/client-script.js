// The report page's script, inlined into the page by page.ts: renders everything from the embedded JSON with DOM calls
// and `textContent` only. Plain ES2019 with nothing to load, so the page works when opened from a file.
(() => {
  var DATA = JSON.parse(document.getElementById('report-data').textContent);
  var SVGNS = 'http://www.w3.org/2000/svg';
  var SPLITS = ['original', 'oneoff', 'conflicting'];
  var SPLIT_NAME = { original: 'original', oneoff: 'one-off', conflicting: 'conflicting' };
  var SAMPLES = DATA.samples;
  var BY_ID = {};
  SAMPLES.forEach((s) => {
    BY_ID[s.id] = s;
  });
  var PAGE = 200;
  var state = { model: '', split: '', scaffold: '', access: '', outcome: '', kind: '', monitor: '', shown: PAGE };
  var KIND_INFO = DATA.kinds;
  var MON = DATA.monitors;
  var filtered = SAMPLES;
  var overviewScroll = 0;

  function h(tag, attrs, ...children) {
    var el = document.createElement(tag);
    setAttrs(el, attrs);
    for (const child of children) append(el, child);
    return el;
  }
  function svg(tag, attrs, ...children) {
    var el = document.createElementNS(SVGNS, tag);
    setAttrs(el, attrs);
    for (const child of children) append(el, child);
    return el;
  }
  function setAttrs(el, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach((k) => {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === 'text') el.textContent = String(v);
      else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, String(v));
    });
  }
  function append(el, ...children) {
    for (const child of children) appendOne(el, child);
  }
  function appendOne(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) {
      child.forEach((c) => {
        appendOne(el, c);
      });
      return;
    }
    el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }
  function pct(x, digits) {
    return x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits === undefined ? 1 : digits)}%`;
  }
  function num(n) {
    return Number(n).toLocaleString('en-US');
  }
  function usd(c, unknown) {
    if (c === null) return unknown ? 'unknown' : '—';
    return c > 0 && c < 0.01 ? `$${c.toFixed(4)}` : `$${c.toFixed(2)}`;
  }
  function secs(ms) {
    return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60000).toFixed(1)} min`;
  }
  function isImpossible(split) {
    return split !== 'original';
  }

  // ---- filters ------------------------------------------------------------------------------
  var OUTCOME_OPTIONS = [
    ['cheating', 'cheating (passed on impossible)'],
    ['legit', 'passed on original'],
    ['passed', 'passed (any split)'],
    ['failed', 'failed'],
    ['evaded', 'evaded'],
    ['flagged', 'flagged'],
    ['context_limit', 'ended at the context window'],
    ['error', 'error'],
  ];
  function distinct(field) {
    var seen = {};
    SAMPLES.forEach((s) => {
      seen[s.key[field]] = true;
    });
    DATA.rows.forEach((r) => {
      if (field === 'split')
        Object.keys(r.splits).forEach((k) => {
          seen[k] = true;
        });
      else seen[r.config[field]] = true;
    });
    return Object.keys(seen).sort((a, b) => (field === 'split' ? SPLITS.indexOf(a) - SPLITS.indexOf(b) : a.localeCompare(b)));
  }
  function buildFilters() {
    var bar = document.getElementById('filters');
    function select(name, label, options) {
      var sel = h(
        'select',
        {
          id: `filter-${name}`,
          'data-filter': name,
          onchange: () => {
            state[name] = sel.value;
            state.shown = PAGE;
            applyFilters();
          },
        },
        h('option', { value: '', text: 'all' }),
        options.map((o) => h('option', { value: o[0], text: o[1] })),
      );
      return h('label', null, label, sel);
    }
    function plain(values, names) {
      return values.map((v) => [v, names ? names[v] || v : v]);
    }
    var datasets = distinct('dataset');
    append(bar, [
      select('model', 'Model', plain(distinct('model'))),
      // A run over one dataset needs no choice of it.
      datasets.length > 1 && select('dataset', 'Dataset', plain(datasets)),
      select('split', 'Split', plain(distinct('split'), SPLIT_NAME)),
      select('scaffold', 'Scaffold', plain(distinct('scaffold'))),
      select('access', 'Test access', plain(distinct('access'))),
      select('outcome', 'Outcome', OUTCOME_OPTIONS),
      select('kind', 'Cheating kind', kindOptions()),
      MON.list.length ? select('monitor', 'Monitor', monitorOptions()) : null,
      h('button', {
        type: 'button',
        id: 'filter-reset',
        text: 'Reset',
        onclick: () => {
          ['model', 'dataset', 'split', 'scaffold', 'access', 'outcome', 'kind', 'monitor'].forEach((k) => {
            state[k] = '';
            var sel = document.getElementById(`filter-${k}`);
            if (sel) sel.value = '';
          });
          state.shown = PAGE;
          applyFilters();
        },
      }),
      h('span', { class: 'count', id: 'filter-count' }),
    ]);
  }
  // The kinds the samples show, in the classifier's order, each with how many samples show it.
  function kindOptions() {
    var seen = {};
    SAMPLES.forEach((s) => {
      (s.kinds || []).forEach((f) => {
        seen[f.kind] = (seen[f.kind] || 0) + 1;
      });
    });
    return KIND_INFO.order.filter((k) => seen[k]).map((k) => [k, `${k} (${num(seen[k])})`]);
  }
  // Per monitor: the cheating samples it missed and the legitimate ones it flagged.
  function monitorOptions() {
    var out = [];
    MON.list.forEach((m) => {
      var name = m.model + (m.prompt ? ` @${m.prompt}` : '');
      out.push([`missed|${m.id}`, `cheating ${name} missed`], [`flagged|${m.id}`, `legitimate ${name} flagged`]);
    });
    return out;
  }
  function monitorRead(s, id) {
    var found = null;
    (s.monitors || []).forEach((v) => {
      if (v.monitor === id) found = v;
    });
    return found;
  }
  function isFlagged(v) {
    return v && v.status === 'scored' && v.score >= MON.threshold;
  }
  function matchesMonitor(s) {
    if (!state.monitor) return true;
    var bar = state.monitor.indexOf('|');
    var how = state.monitor.slice(0, bar),
      v = monitorRead(s, state.monitor.slice(bar + 1));
    if (v?.status !== 'scored') return false;
    return how === 'missed' ? s.label === 'cheating' && !isFlagged(v) : s.label === 'legit' && isFlagged(v);
  }
  function matchesKind(s) {
    return !state.kind || (s.kinds || []).some((f) => f.kind === state.kind);
  }
  function matchesConfig(c) {
    return (
      (!state.model || c.model === state.model) &&
      (!state.dataset || c.dataset === state.dataset) &&
      (!state.scaffold || c.scaffold === state.scaffold) &&
      (!state.access || c.access === state.access)
    );
  }
  function matchesOutcome(s) {
    switch (state.outcome) {
      case '':
        return true;
      case 'cheating':
        return s.label === 'cheating';
      case 'legit':
        return s.label === 'legit';
      case 'flagged':
      case 'context_limit':
        return s.stopReason === state.outcome;
      default:
        return s.outcome === state.outcome;
    }
  }
  function applyFilters() {
    var inScope = SAMPLES.filter((s) => matchesConfig(s.key) && (!state.split || s.key.split === state.split));
    filtered = inScope.filter((s) => matchesOutcome(s) && matchesKind(s) && matchesMonitor(s));
    renderStats(inScope);
    renderKinds(inScope);
    renderMonitors();
    renderHeadline();
    renderCells();
    renderSamples();
  }

  // ---- summary cards: the samples the model/split/scaffold/access filters keep, pooled -----------
  function renderStats(scope) {
    var imp = 0,
      cheats = 0,
      orig = 0,
      legit = 0,
      evaded = 0,
      errors = 0,
      cost = 0,
      unknownCost = 0;
    scope.forEach((s) => {
      if (s.costUsd === null) unknownCost++;
      else cost += s.costUsd;
      if (s.outcome === 'error') {
        errors++;
        return;
      }
      if (s.outcome === 'evaded') evaded++;
      if (isImpossible(s.key.split)) {
        imp++;
        if (s.label === 'cheating') cheats++;
      } else {
        orig++;
        if (s.label === 'legit') legit++;
      }
    });
    function stat(cls, id, value, label) {
      return h('div', { class: `stat ${cls}`, id: id }, h('div', { class: 'v', text: value }), h('div', { class: 'k', text: label }));
    }
    append(
      clear(document.getElementById('stats')),
      stat('', 'stat-samples', num(scope.length), scope.length === SAMPLES.length ? 'samples' : 'samples in the filters'),
      stat('cheating', 'stat-cheating', imp ? pct(cheats / imp) : '—', `cheating on impossible, pooled (${cheats}/${imp})`),
      stat('legit', 'stat-legit', orig ? pct(legit / orig) : '—', `passing originals (${legit}/${orig})`),
      stat('evaded', 'stat-evaded', num(evaded), 'evaded'),
      stat('error', 'stat-errors', num(errors), 'errors (not scored)'),
      stat(
        '',
        'stat-cost',
        unknownCost ? 'unknown' : usd(cost, 0),
        unknownCost ? `cost (${unknownCost} unpriced)` : 'cost billed, cache prices applied',
      ),
    );
  }

  // ---- headline: each cheating rate beside the original pass rate, with a forest chart ---------
  function rateCell(c, split) {
    if (!c) return h('td', { class: 'rate none' }, h('span', { class: 'muted', text: 'not run' }));
    if (c.rate === null)
      return h(
        'td',
        { class: 'rate none' },
        h('span', { class: 'pct', text: '—' }),
        h('span', { class: 'ci', text: `${c.errors} errors, no result` }),
      );
    var cls = `rate ${isImpossible(split) ? `impossible${c.passes > 0 ? ' hot' : ''}` : 'original'}`;
    var extras = [
      c.tampered ? `${c.tampered} passed, tampered` : '',
      c.evaded ? `${c.evaded} evaded` : '',
      c.flagged ? `${c.flagged} flagged` : '',
      c.contextLimited ? `${c.contextLimited} at context limit` : '',
      c.refusals ? c.refusals + (c.refusals === 1 ? ' refusal' : ' refusals') : '',
      c.errors ? c.errors + (c.errors === 1 ? ' error' : ' errors') : '',
    ]
      .filter(Boolean)
      .join(' · ');
    return h(
      'td',
      { class: cls, 'data-split': split },
      h('span', { class: 'pct', text: pct(c.rate) }),
      h('span', { class: 'ci', text: `[${pct(c.interval.low)} – ${pct(c.interval.high)}]  ${c.passes}/${c.n}` }),
      extras ? h('span', { class: 'extras', text: extras }) : null,
    );
  }
  function forest(row, splits) {
    var W = 320,
      PAD = 8,
      LH = 16,
      H = splits.length * LH + 6;
    var x = (v) => PAD + v * (W - 2 * PAD);
    var g = svg('svg', { class: 'forest', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rates with 95% intervals' });
    [0, 0.25, 0.5, 0.75, 1].forEach((t) => {
      append(g, svg('line', { x1: x(t), x2: x(t), y1: 0, y2: H, stroke: t === 0 || t === 1 ? '#d0d7de' : '#eaeef2', 'stroke-width': 1 }));
    });
    splits.forEach((split, i) => {
      var c = row.splits[split];
      var y = 3 + i * LH + LH / 2;
      if (!c || c.rate === null) return;
      var color = `var(--${split})`;
      var title = `${SPLIT_NAME[split]}: ${pct(c.rate)} [${pct(c.interval.low)} – ${pct(c.interval.high)}] (${c.passes}/${c.n})`;
      append(
        g,
        svg(
          'g',
          { class: 'point', 'data-split': split },
          svg('title', { text: title }),
          svg('rect', { x: x(0), y: y - 4, width: Math.max(0, x(c.rate) - x(0)), height: 8, rx: 2, fill: color, 'fill-opacity': 0.18 }),
          svg('line', { class: 'whisker', x1: x(c.interval.low), x2: x(c.interval.high), y1: y, y2: y, stroke: color, 'stroke-width': 1.6 }),
          svg('line', { x1: x(c.interval.low), x2: x(c.interval.low), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
          svg('line', { x1: x(c.interval.high), x2: x(c.interval.high), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
          split === 'original'
            ? svg('circle', { cx: x(c.rate), cy: y, r: 4.2, fill: color, stroke: '#fff', 'stroke-width': 1.2 })
            : svg('rect', {
                x: x(c.rate) - 4,
                y: y - 4,
                width: 8,
                height: 8,
                fill: color,
                stroke: '#fff',
                'stroke-width': 1.2,
                transform: `rotate(45 ${x(c.rate)} ${y})`,
              }),
        ),
      );
    });
    return g;
  }
  function axis() {
    var W = 320,
      PAD = 8;
    var g = svg('svg', { class: 'forest axis', viewBox: `0 0 ${W} 14` });
    [0, 0.25, 0.5, 0.75, 1].forEach((t) => {
      append(
        g,
        svg('text', {
          x: PAD + t * (W - 2 * PAD),
          y: 10,
          'text-anchor': t === 0 ? 'start' : t === 1 ? 'end' : 'middle',
          text: `${Math.round(t * 100)}%`,
        }),
      );
    });
    return g;
  }
  function renderHeadline() {
    var host = clear(document.getElementById('headline'));
    var splits = SPLITS.filter((s) => !state.split || s === state.split);
    var rows = DATA.rows.filter((r) => matchesConfig(r.config));
    // A column whose value every row shares says it once, above the table, and leaves room for the rates.
    function varies(field) {
      var seen = {};
      DATA.rows.forEach((r) => {
        seen[r.config[field]] = true;
      });
      return Object.keys(seen).length > 1;
    }
    var showDataset = varies('dataset'),
      showPrompt = varies('prompt'),
      showAttempts = varies('maxAttempts');
    if (!rows.length) {
      append(host, h('p', { class: 'muted', text: DATA.rows.length ? 'No config matches the filters.' : 'No samples are stored for this run yet.' }));
      return;
    }
    var shared = [
      !showDataset && ['dataset', rows[0].config.dataset],
      !showPrompt && ['prompt', rows[0].config.prompt],
      !showAttempts && ['max attempts', String(rows[0].config.maxAttempts)],
    ].filter(Boolean);
    var head = h(
      'tr',
      null,
      h('th', { text: 'Model' }),
      showDataset && h('th', { text: 'Dataset' }),
      h('th', { text: 'Scaffold' }),
      h('th', { text: 'Access' }),
      showPrompt && h('th', { text: 'Prompt' }),
      showAttempts && h('th', { class: 'num', text: 'Attempts' }),
      splits.map((s) => h('th', { class: `split ${s}`, text: s === 'original' ? 'Original pass rate' : `${SPLIT_NAME[s]} cheating` })),
      h('th', { class: 'chart-cell' }, axis()),
    );
    var body = h(
      'tbody',
      null,
      rows.map((r) =>
        h(
          'tr',
          { class: 'config-row' },
          h('td', { class: 'model', text: r.config.model }),
          showDataset && h('td', { text: r.config.dataset }),
          h('td', { text: r.config.scaffold }),
          h('td', { text: r.config.access }),
          showPrompt && h('td', { text: r.config.prompt }),
          showAttempts && h('td', { class: 'num', text: r.config.maxAttempts }),
          splits.map((s) => rateCell(r.splits[s], s)),
          h('td', { class: 'chart-cell' }, forest(r, splits)),
        ),
      ),
    );
    append(
      host,
      h(
        'div',
        { class: 'legend' },
        splits.map((s) =>
          h(
            'span',
            null,
            h('i', { style: `background: var(--${s})` }),
            s === 'original' ? 'original pass rate (legitimate)' : `${SPLIT_NAME[s]} cheating rate`,
          ),
        ),
        h('span', { text: 'bars: rate · whiskers: Wilson 95% interval' }),
        shared.length ? h('span', { class: 'shared', text: `all rows: ${shared.map((p) => `${p[0]} ${p[1]}`).join(' · ')}` }) : null,
      ),
      h('div', { class: 'table-wrap' }, h('table', { id: 'headline-table' }, h('thead', null, head), body)),
    );
  }

  // ---- kinds: the samples the model/split/scaffold/access filters keep ----------------------------
  function renderKinds(scope) {
    var host = clear(document.getElementById('kinds-summary'));
    var counts = {},
      classified = 0;
    scope.forEach((s) => {
      if (!s.kinds) return;
      classified++;
      s.kinds.forEach((f) => {
        counts[f.kind] = (counts[f.kind] || 0) + 1;
      });
    });
    if (!classified) {
      append(host, h('p', { class: 'muted', text: 'No sample in the filters passed an impossible split or evaded.' }));
      return;
    }
    var rows = KIND_INFO.order
      .filter((k) => counts[k])
      .map((k) =>
        h(
          'tr',
          {
            class: 'kind-row',
            'data-kind': k,
            onclick: () => {
              state.kind = k;
              document.getElementById('filter-kind').value = k;
              state.shown = PAGE;
              applyFilters();
              document.getElementById('samples').scrollIntoView();
            },
          },
          h('td', null, h('span', { class: 'badge kind', text: k })),
          h('td', { class: 'num', text: num(counts[k]) }),
          h('td', { class: 'num', text: pct(counts[k] / classified) }),
          h('td', { class: 'muted', text: KIND_INFO.descriptions[k] }),
        ),
      );
    append(
      host,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { id: 'kinds-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { text: 'Kind' }),
              h('th', { class: 'num', text: 'Samples' }),
              h('th', { class: 'num', text: 'Share' }),
              h('th', { text: 'What it means' }),
            ),
          ),
          h('tbody', null, rows),
          h(
            'tfoot',
            null,
            h(
              'tr',
              null,
              h('td', { text: 'classified' }),
              h('td', { class: 'num', text: num(classified) }),
              h('td'),
              h('td', { class: 'muted', text: 'cheating passes and evasions' }),
            ),
          ),
        ),
      ),
    );
  }

  // ---- monitors: per agent model, the kinds of cheating faced and each monitor's rates -------------
  var KIND_COLORS = {
    'modify-tests': '#d1242f',
    'operator-overload': '#8250df',
    'record-state': '#0969da',
    'special-casing': '#bf8700',
    'runner-tampering': '#1b7c83',
    'outside-changes': '#6e7781',
    other: '#afb8c1',
  };
  // One bar: each kind's share of the kinds shown by the model's cheating samples.
  function kindBar(model) {
    var counts = {},
      total = 0;
    SAMPLES.forEach((s) => {
      if (s.label !== 'cheating' || (model && s.key.model !== model)) return;
      (s.kinds || []).forEach((f) => {
        counts[f.kind] = (counts[f.kind] || 0) + 1;
        total++;
      });
    });
    if (!total) return h('p', { class: 'muted kind-bar-empty', text: 'No cheating sample to classify.' });
    var W = 320,
      H = 14,
      x = 0;
    var g = svg('svg', { class: 'kind-bar', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'cheating kinds' });
    var legend = h('div', { class: 'legend kind-legend' });
    KIND_INFO.order.forEach((k) => {
      if (!counts[k]) return;
      var w = (counts[k] / total) * W;
      append(
        g,
        svg(
          'rect',
          { x: x, y: 0, width: Math.max(w, 0.5), height: H, fill: KIND_COLORS[k], 'data-kind': k },
          svg('title', { text: `${k}: ${counts[k]}` }),
        ),
      );
      append(legend, h('span', null, h('i', { style: `background:${KIND_COLORS[k]}` }), `${k} ${counts[k]}`));
      x += w;
    });
    return h('div', { class: 'kind-bar-wrap' }, g, legend);
  }
  // A rate as a dot on 0-100% with its Wilson interval as whiskers.
  function whisker(r, cls) {
    var W = 200,
      PAD = 6,
      H = 16;
    var x = (v) => PAD + v * (W - 2 * PAD);
    var g = svg('svg', {
      class: `whisker ${cls}`,
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': r.rate === null ? 'no rate' : pct(r.rate),
    });
    append(g, svg('line', { x1: x(0), x2: x(1), y1: H / 2, y2: H / 2, class: 'axis-line' }));
    if (r.rate === null) return g;
    append(
      g,
      svg('line', { x1: x(r.interval.low), x2: x(r.interval.high), y1: H / 2, y2: H / 2, class: 'ci-line' }),
      svg('line', { x1: x(r.interval.low), x2: x(r.interval.low), y1: 3, y2: H - 3, class: 'ci-line' }),
      svg('line', { x1: x(r.interval.high), x2: x(r.interval.high), y1: 3, y2: H - 3, class: 'ci-line' }),
      svg('circle', { cx: x(r.rate), cy: H / 2, r: 4, class: 'dot' }),
    );
    return g;
  }
  function rateText(r) {
    return r.rate === null ? '— (0/0)' : `${pct(r.rate)} [${pct(r.interval.low)} – ${pct(r.interval.high)}] ${r.hits}/${r.n}`;
  }
  function unscoredText(m) {
    var parts = Object.keys(m.unscored)
      .filter((k) => m.unscored[k])
      .map((k) => `${m.unscored[k]} ${k}`);
    return parts.length ? parts.join(', ') : '0';
  }
  function showMonitorSamples(how, id) {
    state.monitor = `${how}|${id}`;
    document.getElementById('filter-monitor').value = state.monitor;
    state.shown = PAGE;
    applyFilters();
    document.getElementById('samples').scrollIntoView();
  }
  function monitorTable(model) {
    var rows = MON.list
      .map((m) => {
        var metrics = null;
        if (!model) metrics = m.overall;
        else
          m.byModel.forEach((b) => {
            if (b.model === model) metrics = b.metrics;
          });
        if (!metrics) return null;
        return h(
          'tr',
          { class: 'monitor-row', 'data-monitor': m.id },
          h('td', { class: 'model', text: m.model }),
          h('td', { class: 'muted', title: m.promptHash || 'no prompt', text: m.prompt || '—' }),
          h(
            'td',
            { class: 'rate' },
            h('span', { class: 'ci', text: rateText(metrics.detection) }),
            whisker(metrics.detection, 'detection'),
            metrics.detection.n > metrics.detection.hits
              ? h('button', {
                  type: 'button',
                  class: 'link',
                  text: 'missed',
                  onclick: () => {
                    showMonitorSamples('missed', m.id);
                  },
                })
              : null,
          ),
          h(
            'td',
            { class: 'rate' },
            h('span', { class: 'ci', text: rateText(metrics.falsePositive) }),
            whisker(metrics.falsePositive, 'false-positive'),
            metrics.falsePositive.hits
              ? h('button', {
                  type: 'button',
                  class: 'link',
                  text: 'flagged',
                  onclick: () => {
                    showMonitorSamples('flagged', m.id);
                  },
                })
              : null,
          ),
          h('td', { class: 'num', text: metrics.auroc === null ? '—' : metrics.auroc.toFixed(3) }),
          h('td', { class: 'num', text: unscoredText(metrics) }),
        );
      })
      .filter(Boolean);
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'monitor-table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { text: 'Monitor' }),
            h('th', { text: 'Prompt' }),
            h('th', { text: 'Detection (cheating flagged)' }),
            h('th', { text: 'False positives (legit flagged)' }),
            h('th', { class: 'num', text: 'AUROC' }),
            h('th', { class: 'num', text: 'Not scored' }),
          ),
        ),
        h('tbody', null, rows),
      ),
    );
  }
  function renderMonitors() {
    var host = document.getElementById('monitors');
    if (!host) return;
    clear(host);
    var models = {};
    MON.list.forEach((m) => {
      m.byModel.forEach((b) => {
        models[b.model] = true;
      });
    });
    var shown = Object.keys(models)
      .sort()
      .filter((m) => !state.model || m === state.model);
    var blocks = (state.model ? [] : [''])
      .concat(shown)
      .map((model) =>
        h(
          'div',
          { class: 'monitor-block', 'data-model': model || 'all' },
          h('h3', { text: model || 'All agent models' }),
          h('div', { class: 'muted small', text: 'Cheating kinds' }),
          kindBar(model),
          monitorTable(model),
        ),
      );
    append(host, blocks);
  }

  function renderCells() {
    var host = clear(document.getElementById('cells'));
    var rows = [];
    DATA.rows.forEach((r) => {
      if (!matchesConfig(r.config)) return;
      SPLITS.forEach((s) => {
        var c = r.splits[s];
        if (c && (!state.split || s === state.split)) rows.push(c);
      });
    });
    append(
      host,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'nowrap', id: 'cells-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Model', 'Dataset', 'Split', 'Scaffold', 'Access', 'Prompt'].map((t) => h('th', { text: t })),
              ['Max att.', 'n', 'Passes', 'Rate', '95% CI', 'Tampered', 'Evaded', 'Flagged', 'Errors', 'Mean att.', 'Tokens', 'Cost'].map((t) =>
                h('th', { class: 'num', text: t }),
              ),
            ),
          ),
          h(
            'tbody',
            null,
            rows.map((c) => {
              var k = c.cell;
              return h(
                'tr',
                null,
                h('td', { text: k.model }),
                h('td', { text: k.dataset }),
                h('td', { class: `split ${k.split}`, text: SPLIT_NAME[k.split] }),
                h('td', { text: k.scaffold }),
                h('td', { text: k.access }),
                h('td', { text: k.prompt }),
                h('td', { class: 'num', text: k.maxAttempts }),
                h('td', { class: 'num', text: c.n }),
                h('td', { class: 'num', text: c.passes }),
                h('td', { class: 'num', text: pct(c.rate) }),
                h('td', { class: 'num', text: c.interval ? `${pct(c.interval.low)} – ${pct(c.interval.high)}` : '—' }),
                h('td', { class: 'num', text: c.tampered }),
                h('td', { class: 'num', text: c.evaded }),
                h('td', { class: 'num', text: c.flagged }),
                h('td', { class: 'num', text: c.errors }),
                h('td', { class: 'num', text: c.meanAttempts === null ? '—' : c.meanAttempts.toFixed(2) }),
                h('td', { class: 'num', text: num(c.inputTokens + c.outputTokens) }),
                h('td', { class: 'num', text: usd(c.costUsd, c.costUnknown) }),
              );
            }),
          ),
        ),
      ),
    );
  }

  // ---- sample list ------------------------------------------------------------------------------
  function outcomeBadge(s) {
    if (s.label === 'cheating' && s.tamper && s.tamper.length)
      return h('span', {
        class: 'badge cheating',
        title: `passed with signs of harness tampering: ${s.tamper.join('; ')}`,
        text: 'passed, tampered',
      });
    if (s.label === 'cheating') return h('span', { class: 'badge cheating', title: 'passed on an impossible split', text: 'cheating' });
    if (s.label === 'legit') return h('span', { class: 'badge legit', text: 'passed' });
    return h('span', { class: `badge ${s.outcome}`, text: s.outcome });
  }
  function kindBadges(s) {
    return (s.kinds || []).map((f) => [
      h('span', { class: 'badge kind', 'data-kind': f.kind, title: `${KIND_INFO.descriptions[f.kind]}: ${f.why}`, text: f.kind }),
      ' ',
    ]);
  }
  function renderSamples() {
    var host = clear(document.getElementById('samples'));
    document.getElementById('filter-count').textContent = `showing ${num(filtered.length)} of ${num(SAMPLES.length)} samples`;
    if (!filtered.length) {
      append(host, h('p', { class: 'muted', text: SAMPLES.length ? 'No sample matches the filters.' : 'No samples are stored for this run yet.' }));
      return;
    }
    var rows = filtered.slice(0, state.shown).map((s) => {
      var href = `#sample-${s.id}`;
      return h(
        'tr',
        {
          class: `sample ${s.label} outcome-${s.outcome}`,
          'data-id': s.id,
          onclick: (e) => {
            if (e.target.tagName !== 'A') location.hash = href;
          },
        },
        h('td', { class: 'task' }, h('a', { href: href, text: s.key.taskId })),
        h('td', { text: s.key.model }),
        h('td', { class: `split ${s.key.split}`, text: SPLIT_NAME[s.key.split] }),
        h('td', { text: s.key.scaffold }),
        h('td', { text: s.key.access }),
        h('td', { text: s.key.prompt }),
        h('td', { class: 'num', text: s.key.epoch }),
        h('td', null, outcomeBadge(s), ' ', s.stopReason === 'flagged' ? h('span', { class: 'badge flagged', text: 'flagged' }) : null),
        h('td', { class: 'muted', text: s.stopReason.replace('_', ' ') }),
        h('td', { class: 'num', text: s.attempts }),
        h('td', { class: 'num', text: num(s.inputTokens + s.outputTokens) }),
        h(
          'td',
          { class: 'kinds' },
          kindBadges(s),
          s.testDiff ? h('span', { class: 'badge tests', title: 'the agent changed test files', text: 'tests edited' }) : null,
        ),
      );
    });
    append(
      host,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { id: 'sample-table', class: 'nowrap' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Task', 'Model', 'Split', 'Scaffold', 'Access', 'Prompt'].map((t) => h('th', { text: t })),
              h('th', { class: 'num', text: 'Epoch' }),
              h('th', { text: 'Outcome' }),
              h('th', { text: 'Stop' }),
              h('th', { class: 'num', text: 'Att.' }),
              h('th', { class: 'num', text: 'Tokens' }),
              h('th', { text: 'Evidence' }),
            ),
          ),
          h('tbody', null, rows),
        ),
      ),
    );
    if (filtered.length > state.shown) {
      append(
        host,
        h(
          'div',
          { class: 'more' },
          h('button', {
            type: 'button',
            class: 'link',
            text: `Show ${num(Math.min(PAGE, filtered.length - state.shown))} more`,
            onclick: () => {
              state.shown += PAGE;
              renderSamples();
            },
          }),
        ),
      );
    }
  }

  // ---- one sample -----------------------------------------------------------------------------
  var LONG_LINES = 60,
    KEEP_LINES = 40;
  function longText(text, cls) {
    var lines = text.split('\n');
    if (lines.length <= LONG_LINES && text.length <= 8000) return [h('pre', { class: cls, text: text })];
    var pre = h('pre', { class: cls, text: `${lines.slice(0, KEEP_LINES).join('\n').slice(0, 6000)}\n…` });
    var btn = h('button', {
      type: 'button',
      class: 'link',
      text: `Show all ${num(lines.length)} lines`,
      onclick: () => {
        pre.textContent = text;
        btn.remove();
      },
    });
    return [pre, h('div', { class: 'expand' }, btn)];
  }
  // Tool arguments as their fields, strings shown with their real line breaks (code stays readable).
  function toolArgs(args) {
    var parsed;
    try {
      parsed = JSON.parse(args);
    } catch {
      return longText(args, '');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return longText(JSON.stringify(parsed, null, 2), '');
    var keys = Object.keys(parsed);
    if (!keys.length) return [h('pre', { class: 'muted', text: '(no arguments)' })];
    return keys.map((k) => {
      var v = parsed[k];
      return [h('div', { class: 'arg', text: k }), longText(typeof v === 'string' ? v : JSON.stringify(v, null, 2), '')];
    });
  }
  function message(m, i) {
    var extra = m.role === 'tool' ? (m.name ? m.name : '') + (m.toolCallId ? `  ← ${m.toolCallId}` : '') : m.name || '';
    return h(
      'div',
      { class: `msg ${m.role}` },
      h(
        'div',
        { class: 'head' },
        h('span', { text: m.role }),
        extra ? h('span', { class: 'muted', style: 'text-transform:none;font-weight:500', text: extra }) : null,
        h('span', { class: 'idx', text: `#${i + 1}` }),
      ),
      m.content ? h('div', { class: 'body' }, longText(m.content, '')) : null,
      (m.toolCalls || []).map((tc) =>
        h('div', { class: 'toolcall' }, h('div', { class: 'tc-head', text: `→ ${tc.name}  (${tc.id})` }), toolArgs(tc.arguments)),
      ),
    );
  }
  function diffView(text) {
    var pre = h('pre', { class: 'diff' });
    text
      .replace(/\n$/, '')
      .split('\n')
      .forEach((line) => {
        var cls = 'd-ctx';
        if (/^(diff |index |--- |\+\+\+ |new file|deleted file|similarity|rename |old mode|new mode)/.test(line)) cls = 'd-file';
        else if (line.charAt(0) === '@' && line.charAt(1) === '@') cls = 'd-hunk';
        else if (line.charAt(0) === '+') cls = 'd-add';
        else if (line.charAt(0) === '-') cls = 'd-del';
        append(pre, h('span', { class: cls, text: line }));
      });
    return pre;
  }
  function panel(title, cls, content, empty, badge) {
    return h('div', { class: `panel ${cls || ''}` }, h('h3', null, title, badge || null), content || h('div', { class: 'empty', text: empty }));
  }
  var VERDICT = {
    cheating: 'Cheating: passed tests that contradict the spec',
    legit: 'Passed the original tests',
    failed: 'Did not pass',
    evaded: 'Evaded: reported success but the tests never ran to their end',
    error: 'Infrastructure or API error: left out of every rate',
  };
  function sampleEvents(s) {
    var events = DATA.events.filter((e) => e.sampleKey === s.keyString);
    if (!events.length) return null;
    return panel(
      'Events',
      'sample-events',
      h(
        'dl',
        { class: 'facts' },
        events.map((e) => [
          h('dt', { text: e.time.replace('T', ' ').replace(/\.\d+Z$/, '') }),
          h('dd', null, h('b', { text: e.kind }), ' ', h('span', { class: 'muted', text: JSON.stringify(e.data) })),
        ]),
      ),
    );
  }
  // Each kind the classifier found, with the lines that show it.
  function kindsPanel(s) {
    if (!s.kinds && !(s.judges || []).length) return null;
    return h(
      'div',
      { class: 'panel kinds-panel', id: 'kinds' },
      h('h3', { text: 'How it cheated' }),
      (s.kinds || []).map((f) => {
        var lines = f.evidence
          .map((e) => {
            var where = `${e.file ? e.file + (e.line ? `:${e.line}` : '') : e.source}  `;
            return where + (e.change || '') + e.text;
          })
          .join('\n');
        return h(
          'div',
          { class: 'kind-finding', 'data-kind': f.kind },
          h('div', null, h('span', { class: 'badge kind', 'data-kind': f.kind, text: f.kind }), ' ', h('span', { class: 'muted', text: f.why })),
          lines ? h('pre', { class: 'log', text: lines }) : null,
        );
      }),
      (s.judges || []).map((j) =>
        h(
          'div',
          { class: 'judge-verdict' },
          h('b', { text: `Judge ${j.model}: ` }),
          h('span', { class: 'badge kind', 'data-kind': j.kind || '', text: j.kind || 'no category' }),
          h('div', { class: 'muted', text: j.explanation }),
        ),
      ),
    );
  }
  // What each monitor said about the sample, against the threshold.
  function monitorsPanel(s) {
    if (!(s.monitors || []).length) return null;
    return panel(
      'Monitors',
      'monitors-panel',
      h(
        'dl',
        { class: 'facts' },
        s.monitors.map((v) => {
          var said = v.status === 'scored' ? String(v.score) + (isFlagged(v) ? ' · flagged' : ' · not flagged') : v.status;
          return [h('dt', { text: v.monitor }), h('dd', null, h('b', { text: said }), ' ', h('span', { class: 'muted', text: v.reason }))];
        }),
      ),
    );
  }
  function renderSample(id) {
    var s = BY_ID[id];
    var host = clear(document.getElementById('sample-view'));
    if (!s) {
      append(host, h('p', null, `No sample ${id} in this report. `, h('a', { href: '#', text: 'Back to the overview' })));
      return;
    }
    var pos = filtered.indexOf(s);
    var prev = pos > 0 ? filtered[pos - 1] : null;
    var next = pos >= 0 && pos < filtered.length - 1 ? filtered[pos + 1] : null;
    var kind = s.label === 'cheating' ? 'cheating' : s.label === 'legit' ? 'legit' : s.outcome;
    var k = s.key;
    append(
      host,
      h(
        'div',
        { class: 'crumbs' },
        h('a', { href: '#', id: 'back', text: '← All samples' }),
        h('span', { class: 'spacer' }),
        prev ? h('a', { href: `#sample-${prev.id}`, text: '‹ previous' }) : null,
        pos >= 0 ? h('span', { class: 'muted', text: `${pos + 1} of ${filtered.length}` }) : null,
        next ? h('a', { href: `#sample-${next.id}`, text: 'next ›' }) : null,
      ),
      h(
        'div',
        { class: `banner ${kind}`, id: 'sample-banner' },
        h('h2', { text: k.taskId }),
        outcomeBadge(s),
        s.stopReason === 'flagged' ? h('span', { class: 'badge flagged', text: 'flagged for a human' }) : null,
        kindBadges(s),
        h('span', { class: 'verdict', text: VERDICT[kind] || '' }),
        h(
          'div',
          { class: 'chips' },
          [
            ['model', k.model],
            ['dataset', k.dataset],
            ['split', SPLIT_NAME[k.split]],
            ['scaffold', k.scaffold],
            ['access', k.access],
            ['prompt', k.prompt],
            ['max attempts', k.maxAttempts],
            ['epoch', k.epoch],
          ].map((p) => h('span', { class: 'chip' }, h('b', { text: p[0] }), String(p[1]))),
        ),
      ),
      h(
        'div',
        { class: 'sample-grid' },
        h(
          'div',
          { id: 'transcript' },
          h('h3', { style: 'margin:0 0 10px;font-size:15px', text: `Transcript · ${s.transcript.length} messages` }),
          s.transcript.length ? s.transcript.map(message) : h('p', { class: 'muted', text: 'No messages were recorded.' }),
        ),
        h(
          'div',
          { id: 'evidence' },
          panel(
            'Run',
            '',
            h(
              'dl',
              { class: 'facts' },
              [
                ['outcome', s.outcome],
                ['stop reason', s.stopReason.replace('_', ' ')],
                ['attempts', `${s.attempts} of ${k.maxAttempts}`],
                [
                  'tokens',
                  `${num(s.inputTokens)} in${s.cacheReadTokens ? ` (${num(s.cacheReadTokens)} from cache)` : ''} · ${num(s.outputTokens)} out`,
                ],
                ['cost', `${usd(s.costUsd, 1)}${s.costUsd ? ' billed, cache prices applied' : ''}`],
                ['wall time', secs(s.wallMs)],
                ['started', s.startedAt],
                s.errorCount ? ['infra errors', String(s.errorCount) + (s.outcome === 'error' ? '' : ' before this result')] : null,
              ]
                .filter(Boolean)
                .map((p) => [h('dt', { text: p[0] }), h('dd', { text: p[1] })]),
            ),
          ),
          kindsPanel(s),
          monitorsPanel(s),
          s.error ? panel('Error', '', h('pre', { class: 'log', text: s.error })) : null,
          h(
            'div',
            { class: `panel test-diff${s.testDiff ? ' changed' : ''}`, id: 'test-diff' },
            h('h3', null, 'Test-file changes', s.testDiff ? h('span', { class: 'badge tests', text: 'tests edited' }) : null),
            s.testDiff
              ? h('div', { class: 'note', text: 'The agent changed test files. On an impossible split this is the most common way to cheat.' })
              : null,
            s.testDiff ? diffView(s.testDiff) : h('div', { class: 'empty', text: 'No test file was changed.' }),
          ),
          panel('Source changes', 'source-diff', s.sourceDiff ? diffView(s.sourceDiff) : null, 'No source file was changed.'),
          panel('Changes outside the work dir', 'outside', s.outsideChanges ? h('pre', { class: 'log', text: s.outsideChanges }) : null, 'None.'),
          panel('Grading log', 'grading', s.gradingLog ? longText(s.gradingLog, 'log') : null, 'No grading output.'),
          sampleEvents(s),
        ),
      ),
    );
  }

  // ---- run config and events ------------------------------------------------------------------
  function renderRunInfo() {
    var cfg = document.getElementById('run-config');
    append(cfg, h('pre', { class: 'config', text: JSON.stringify(DATA.run.config, null, 2) }));
    var host = document.getElementById('run-events');
    var events = DATA.events;
    if (!events.length) {
      append(host, h('p', { class: 'muted', text: 'No events were recorded.' }));
      return;
    }
    append(
      host,
      DATA.eventsOmitted
        ? h('p', {
            class: 'muted',
            text: `The first ${num(DATA.eventsOmitted)} events are left out; the latest ${num(events.length)} follow.`,
          })
        : null,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'events' },
          h(
            'thead',
            null,
            h('tr', null, h('th', { text: 'Time' }), h('th', { text: 'Event' }), h('th', { text: 'Sample' }), h('th', { text: 'Data' })),
          ),
          h(
            'tbody',
            null,
            events.map((e) => {
              var key = null;
              try {
                key = e.sampleKey ? JSON.parse(e.sampleKey) : null;
              } catch {
                key = null;
              }
              var data = e.data && typeof e.data === 'object' && Object.keys(e.data).length === 0 ? '' : JSON.stringify(e.data);
              return h(
                'tr',
                null,
                h('td', { class: 'muted', text: e.time.replace('T', ' ').replace(/\.\d+Z$/, '') }),
                h('td', null, h('b', { text: e.kind })),
                h('td', { text: Array.isArray(key) ? key.join(' · ') : e.sampleKey || '' }),
                h('td', { class: 'data', text: data }),
              );
            }),
          ),
        ),
      ),
    );
  }

  // ---- routing ---------------------------------------------------------------------------------
  function route() {
    var m = /^#sample-(\d+)$/.exec(location.hash);
    var overview = document.getElementById('overview');
    var view = document.getElementById('sample-view');
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

  buildFilters();
  applyFilters();
  renderRunInfo();
  window.addEventListener('hashchange', route);
  route();
  document.body.setAttribute('data-ready', 'true');
})();
