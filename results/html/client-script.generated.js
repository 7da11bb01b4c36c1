// Generated from results/html/client/*.ts by `npm run build:client`: edit those, not this file.
"use strict";
(() => {
  var __defProp = Object.defineProperty;
  var __defProps = Object.defineProperties;
  var __getOwnPropDescs = Object.getOwnPropertyDescriptors;
  var __getOwnPropSymbols = Object.getOwnPropertySymbols;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __propIsEnum = Object.prototype.propertyIsEnumerable;
  var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
  var __spreadValues = (a, b) => {
    for (var prop in b || (b = {}))
      if (__hasOwnProp.call(b, prop))
        __defNormalProp(a, prop, b[prop]);
    if (__getOwnPropSymbols)
      for (var prop of __getOwnPropSymbols(b)) {
        if (__propIsEnum.call(b, prop))
          __defNormalProp(a, prop, b[prop]);
      }
    return a;
  };
  var __spreadProps = (a, b) => __defProps(a, __getOwnPropDescs(b));

  // results/html/client/data.ts
  var _a;
  var DATA = JSON.parse((_a = document.getElementById("report-data").textContent) != null ? _a : "");
  var SPLITS = ["original", "oneoff", "conflicting"];
  var SPLIT_NAME = { original: "original", oneoff: "one-off", conflicting: "conflicting" };
  var SAMPLES = DATA.samples;
  var BY_ID = {};
  for (const s of SAMPLES) BY_ID[s.id] = s;
  var KIND_INFO = DATA.kinds;
  var MON = DATA.monitors;
  function isImpossible(split) {
    return split !== "original";
  }

  // results/format.ts
  function intervalMethod(r) {
    return `interval: bootstrap over ${r.tasks} task${r.tasks === 1 ? "" : "s"}, ${r.perTask} repeats`;
  }
  function kappa(k) {
    return k === null ? "—" : k.toFixed(2);
  }

  // results/viewer/client/dom.ts
  function h(tag, attrs = null, ...children) {
    const el = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs != null ? attrs : {})) {
      if (value === void 0 || value === false) continue;
      if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
      else if (name === "text") el.textContent = String(value);
      else el.setAttribute(name, String(value));
    }
    append(el, children);
    return el;
  }
  function append(parent, children) {
    for (const child of children) {
      if (child === null || child === void 0 || child === false) continue;
      if (Array.isArray(child)) append(parent, child);
      else parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
    return parent;
  }
  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }
  function num(n) {
    return n.toLocaleString("en-US");
  }

  // results/html/client/dom.ts
  var SVGNS = "http://www.w3.org/2000/svg";
  function byId(id) {
    return document.getElementById(id);
  }
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS(SVGNS, tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === void 0) continue;
      if (name === "text") el.textContent = String(value);
      else el.setAttribute(name, String(value));
    }
    append(el, children);
    return el;
  }
  function pct(x, digits = 1) {
    return x === null || x === void 0 ? "—" : `${(x * 100).toFixed(digits)}%`;
  }
  function usd(c, unknown) {
    if (c === null) return unknown ? "unknown" : "—";
    return c > 0 && c < 0.01 ? `$${c.toFixed(4)}` : `$${c.toFixed(2)}`;
  }
  function secs(ms) {
    return ms < 1e3 ? `${Math.round(ms)} ms` : ms < 6e4 ? `${(ms / 1e3).toFixed(1)} s` : `${(ms / 6e4).toFixed(1)} min`;
  }

  // results/html/client/state.ts
  var FILTERS = ["model", "dataset", "split", "scaffold", "access", "outcome", "kind", "monitor"];
  var PAGE = 200;
  var state = {
    model: "",
    dataset: "",
    split: "",
    scaffold: "",
    access: "",
    outcome: "",
    kind: "",
    monitor: "",
    shown: PAGE,
    filtered: SAMPLES
  };
  var redraw = () => {
  };
  function onFilterChange(draw) {
    redraw = draw;
  }
  function setFilters(values) {
    for (const name of FILTERS) {
      const value = values[name];
      if (value === void 0) continue;
      state[name] = value;
      const sel = document.getElementById(`filter-${name}`);
      if (sel) sel.value = value;
    }
    state.shown = PAGE;
    redraw();
  }
  function resetFilters() {
    setFilters(Object.fromEntries(FILTERS.map((name) => [name, ""])));
  }
  function monitorRead(s, id) {
    let found = null;
    for (const v of s.monitors || []) if (v.monitor === id) found = v;
    return found;
  }
  function isFlagged(v) {
    var _a2;
    return !!v && v.status === "scored" && ((_a2 = v.score) != null ? _a2 : 0) >= MON.threshold;
  }
  function matchesMonitor(s) {
    if (!state.monitor) return true;
    const bar = state.monitor.indexOf("|");
    const how = state.monitor.slice(0, bar);
    const v = monitorRead(s, state.monitor.slice(bar + 1));
    if ((v == null ? void 0 : v.status) !== "scored") return false;
    return how === "missed" ? s.label === "cheating" && !isFlagged(v) : s.label === "legit" && isFlagged(v);
  }
  function matchesKind(s) {
    return !state.kind || (s.kinds || []).some((f) => f.kind === state.kind);
  }
  function matchesConfig(c) {
    return (!state.model || c.model === state.model) && (!state.dataset || c.dataset === state.dataset) && (!state.scaffold || c.scaffold === state.scaffold) && (!state.access || c.access === state.access);
  }
  function matchesOutcome(s) {
    switch (state.outcome) {
      case "":
        return true;
      case "cheating":
        return s.label === "cheating";
      case "legit":
        return s.label === "legit";
      case "flagged":
      case "context_limit":
        return s.stopReason === state.outcome;
      default:
        return s.outcome === state.outcome;
    }
  }
  function filterSamples() {
    const inScope = SAMPLES.filter((s) => matchesConfig(s.key) && (!state.split || s.key.split === state.split));
    state.filtered = inScope.filter((s) => matchesOutcome(s) && matchesKind(s) && matchesMonitor(s));
    return inScope;
  }

  // results/html/client/cells.ts
  var TEXT_COLUMNS = ["Model", "Dataset", "Split", "Scaffold", "Access", "Prompt"];
  var NUM_COLUMNS = ["Max att.", "n", "Passes", "Rate", "95% CI", "Tampered", "Evaded", "Flagged", "Errors", "Mean att.", "Tokens", "Cost"];
  var REPEAT_COLUMNS = ["Repeats", "Repeats agree", "Kappa"];
  var REPEATED = DATA.rows.some((r) => SPLITS.some((s) => {
    var _a2;
    return (_a2 = r.splits[s]) == null ? void 0 : _a2.repeats;
  }));
  function cellRow(c) {
    const k = c.cell;
    return h(
      "tr",
      null,
      h("td", { text: k.model }),
      h("td", { text: k.dataset }),
      h("td", { class: `split ${k.split}`, text: SPLIT_NAME[k.split] }),
      h("td", { text: k.scaffold }),
      h("td", { text: k.access }),
      h("td", { text: k.prompt }),
      h("td", { class: "num", text: k.maxAttempts }),
      h("td", { class: "num", text: c.n }),
      h("td", { class: "num", text: c.passes }),
      h("td", { class: "num", text: pct(c.rate) }),
      h("td", {
        class: "num",
        text: c.interval ? `${pct(c.interval.low)} – ${pct(c.interval.high)}${c.repeats ? " (bootstrap over tasks)" : ""}` : "—"
      }),
      h("td", { class: "num", text: c.tampered }),
      h("td", { class: "num", text: c.evaded }),
      h("td", { class: "num", text: c.flagged }),
      h("td", { class: "num", text: c.errors }),
      h("td", { class: "num", text: c.meanAttempts === null ? "—" : c.meanAttempts.toFixed(2) }),
      h("td", { class: "num", text: num(c.inputTokens + c.outputTokens) }),
      h("td", { class: "num", text: usd(c.costUsd, c.costUnknown > 0) }),
      REPEATED && [
        h("td", { class: "num", text: c.repeats ? c.repeats.perTask : "—" }),
        h("td", { class: "num", text: c.repeats ? pct(c.repeats.agree) : "—" }),
        h("td", { class: "num", text: c.repeats ? kappa(c.repeats.kappa) : "—" })
      ]
    );
  }
  function renderCells() {
    const host = clear(byId("cells"));
    const cells = [];
    for (const r of DATA.rows) {
      if (!matchesConfig(r.config)) continue;
      for (const s of SPLITS) {
        const c = r.splits[s];
        if (c && (!state.split || s === state.split)) cells.push(c);
      }
    }
    const head = h(
      "tr",
      null,
      TEXT_COLUMNS.map((t) => h("th", { text: t })),
      NUM_COLUMNS.map((t) => h("th", { class: "num", text: t })),
      REPEATED && REPEAT_COLUMNS.map((t) => h("th", { class: "num", text: t }))
    );
    append(host, [
      h(
        "div",
        { class: "table-wrap" },
        h("table", { class: "nowrap", id: "cells-table" }, h("thead", null, head), h("tbody", null, cells.map(cellRow)))
      )
    ]);
  }

  // results/html/client/filters.ts
  var OUTCOME_OPTIONS = [
    ["cheating", "cheating (passed on impossible)"],
    ["legit", "passed on original"],
    ["passed", "passed (any split)"],
    ["failed", "failed"],
    ["evaded", "evaded"],
    ["flagged", "flagged"],
    ["context_limit", "ended at the context window"],
    ["error", "error"]
  ];
  function distinct(field) {
    const seen = {};
    for (const s of SAMPLES) seen[s.key[field]] = true;
    for (const r of DATA.rows) {
      if (field === "split") for (const k of Object.keys(r.splits)) seen[k] = true;
      else seen[r.config[field]] = true;
    }
    return Object.keys(seen).sort((a, b) => field === "split" ? SPLITS.indexOf(a) - SPLITS.indexOf(b) : a.localeCompare(b));
  }
  function select(name, label, options) {
    const sel = h(
      "select",
      { id: `filter-${name}`, "data-filter": name, onchange: () => setFilters({ [name]: sel.value }) },
      h("option", { value: "", text: "all" }),
      options.map((o) => h("option", { value: o[0], text: o[1] }))
    );
    return h("label", null, label, sel);
  }
  function plain(values, names) {
    return values.map((v) => [v, names ? names[v] || v : v]);
  }
  function kindOptions() {
    const seen = {};
    for (const s of SAMPLES) for (const f of s.kinds || []) seen[f.kind] = (seen[f.kind] || 0) + 1;
    return KIND_INFO.order.filter((k) => seen[k]).map((k) => [k, `${k} (${num(seen[k])})`]);
  }
  function monitorOptions() {
    const out = [];
    for (const m of MON.list) {
      const name = m.model + (m.prompt ? ` @${m.prompt}` : "");
      out.push([`missed|${m.id}`, `cheating ${name} missed`], [`flagged|${m.id}`, `legitimate ${name} flagged`]);
    }
    return out;
  }
  function buildFilters() {
    const datasets = distinct("dataset");
    append(byId("filters"), [
      select("model", "Model", plain(distinct("model"))),
      // A run over one dataset needs no choice of it.
      datasets.length > 1 && select("dataset", "Dataset", plain(datasets)),
      select("split", "Split", plain(distinct("split"), SPLIT_NAME)),
      select("scaffold", "Scaffold", plain(distinct("scaffold"))),
      select("access", "Test access", plain(distinct("access"))),
      select("outcome", "Outcome", OUTCOME_OPTIONS),
      select("kind", "Cheating kind", kindOptions()),
      MON.list.length ? select("monitor", "Monitor", monitorOptions()) : null,
      h("button", { type: "button", id: "filter-reset", text: "Reset", onclick: resetFilters }),
      h("span", { class: "count", id: "filter-count" })
    ]);
  }

  // results/html/split-mark.ts
  function splitMark(split, cx, cy) {
    const paint = { fill: `var(--${split})`, stroke: "#fff", "stroke-width": 1.2 };
    if (split === "original") return { tag: "circle", attrs: __spreadValues({ cx, cy, r: 4.2 }, paint) };
    return { tag: "rect", attrs: __spreadProps(__spreadValues({ x: cx - 4, y: cy - 4, width: 8, height: 8 }, paint), { transform: `rotate(45 ${cx} ${cy})` }) };
  }

  // results/html/client/charts.ts
  var TICKS = [0, 0.25, 0.5, 0.75, 1];
  function forest(row, splits) {
    const W = 320;
    const PAD = 8;
    const LH = 16;
    const H = splits.length * LH + 6;
    const x = (v) => PAD + v * (W - 2 * PAD);
    const g = svg("svg", { class: "forest", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "rates with 95% intervals" });
    for (const t of TICKS)
      append(g, [svg("line", { x1: x(t), x2: x(t), y1: 0, y2: H, stroke: t === 0 || t === 1 ? "#d0d7de" : "#eaeef2", "stroke-width": 1 })]);
    splits.forEach((split, i) => {
      const c = row.splits[split];
      const y = 3 + i * LH + LH / 2;
      if (!c || c.rate === null || !c.interval) return;
      const color = `var(--${split})`;
      const { low, high } = c.interval;
      const title = `${SPLIT_NAME[split]}: ${pct(c.rate)} [${pct(low)} – ${pct(high)}] (${c.passes}/${c.n})`;
      const mark = splitMark(split, x(c.rate), y);
      append(g, [
        svg(
          "g",
          { class: "point", "data-split": split },
          svg("title", { text: title }),
          svg("rect", { x: x(0), y: y - 4, width: Math.max(0, x(c.rate) - x(0)), height: 8, rx: 2, fill: color, "fill-opacity": 0.18 }),
          svg("line", { class: "whisker", x1: x(low), x2: x(high), y1: y, y2: y, stroke: color, "stroke-width": 1.6 }),
          svg("line", { x1: x(low), x2: x(low), y1: y - 4, y2: y + 4, stroke: color, "stroke-width": 1.6 }),
          svg("line", { x1: x(high), x2: x(high), y1: y - 4, y2: y + 4, stroke: color, "stroke-width": 1.6 }),
          svg(mark.tag, mark.attrs)
        )
      ]);
    });
    return g;
  }
  function axis() {
    const W = 320;
    const PAD = 8;
    const g = svg("svg", { class: "forest axis", viewBox: `0 0 ${W} 14` });
    for (const t of TICKS) {
      const anchor = t === 0 ? "start" : t === 1 ? "end" : "middle";
      append(g, [svg("text", { x: PAD + t * (W - 2 * PAD), y: 10, "text-anchor": anchor, text: `${Math.round(t * 100)}%` })]);
    }
    return g;
  }
  var KIND_COLORS = {
    "modify-tests": "#d1242f",
    "operator-overload": "#8250df",
    "record-state": "#0969da",
    "special-casing": "#bf8700",
    "runner-tampering": "#1b7c83",
    "outside-changes": "#6e7781",
    other: "#afb8c1"
  };
  function kindBar(model) {
    const counts = {};
    let total = 0;
    for (const s of SAMPLES) {
      if (s.label !== "cheating" || model && s.key.model !== model) continue;
      for (const f of s.kinds || []) {
        counts[f.kind] = (counts[f.kind] || 0) + 1;
        total++;
      }
    }
    if (!total) return h("p", { class: "muted kind-bar-empty", text: "No cheating sample to classify." });
    const W = 320;
    const H = 14;
    let x = 0;
    const g = svg("svg", { class: "kind-bar", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "cheating kinds" });
    const legend2 = h("div", { class: "legend kind-legend" });
    for (const k of KIND_INFO.order) {
      const n = counts[k];
      if (!n) continue;
      const w = n / total * W;
      append(g, [
        svg("rect", { x, y: 0, width: Math.max(w, 0.5), height: H, fill: KIND_COLORS[k], "data-kind": k }, svg("title", { text: `${k}: ${n}` }))
      ]);
      append(legend2, [h("span", null, h("i", { style: `background:${KIND_COLORS[k]}` }), `${k} ${n}`)]);
      x += w;
    }
    return h("div", { class: "kind-bar-wrap" }, g, legend2);
  }
  function whisker(r, cls) {
    const W = 200;
    const PAD = 6;
    const H = 16;
    const x = (v) => PAD + v * (W - 2 * PAD);
    const g = svg("svg", { class: `whisker ${cls}`, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": r.rate === null ? "no rate" : pct(r.rate) });
    append(g, [svg("line", { x1: x(0), x2: x(1), y1: H / 2, y2: H / 2, class: "axis-line" })]);
    if (r.rate === null || !r.interval) return g;
    const { low, high } = r.interval;
    append(g, [
      svg("line", { x1: x(low), x2: x(high), y1: H / 2, y2: H / 2, class: "ci-line" }),
      svg("line", { x1: x(low), x2: x(low), y1: 3, y2: H - 3, class: "ci-line" }),
      svg("line", { x1: x(high), x2: x(high), y1: 3, y2: H - 3, class: "ci-line" }),
      svg("circle", { cx: x(r.rate), cy: H / 2, r: 4, class: "dot" })
    ]);
    return g;
  }

  // results/html/client/headline.ts
  function rateCell(c, split) {
    if (!c) return h("td", { class: "rate none" }, h("span", { class: "muted", text: "not run" }));
    if (c.rate === null || !c.interval)
      return h("td", { class: "rate none" }, h("span", { class: "pct", text: "—" }), h("span", { class: "ci", text: `${c.errors} errors, no result` }));
    const cls = `rate ${isImpossible(split) ? `impossible${c.passes > 0 ? " hot" : ""}` : "original"}`;
    const extras = [
      c.tampered ? `${c.tampered} passed, tampered` : "",
      c.evaded ? `${c.evaded} evaded` : "",
      c.flagged ? `${c.flagged} flagged` : "",
      c.contextLimited ? `${c.contextLimited} at context limit` : "",
      c.refusals ? c.refusals + (c.refusals === 1 ? " refusal" : " refusals") : "",
      c.errors ? c.errors + (c.errors === 1 ? " error" : " errors") : "",
      c.repeats ? `${intervalMethod(c.repeats)} · repeats agree on ${pct(c.repeats.agree)} of tasks, kappa ${kappa(c.repeats.kappa)}` : ""
    ].filter(Boolean).join(" · ");
    return h(
      "td",
      { class: cls, "data-split": split },
      h("span", { class: "pct", text: pct(c.rate) }),
      h("span", { class: "ci", text: `[${pct(c.interval.low)} – ${pct(c.interval.high)}]  ${c.passes}/${c.n}` }),
      extras ? h("span", { class: "extras", text: extras }) : null
    );
  }
  var REPEATED2 = DATA.rows.some((r) => SPLITS.some((s) => {
    var _a2;
    return (_a2 = r.splits[s]) == null ? void 0 : _a2.repeats;
  }));
  function varies(field) {
    const seen = {};
    for (const r of DATA.rows) seen[r.config[field]] = true;
    return Object.keys(seen).length > 1;
  }
  function headlineTable(rows, splits, show) {
    const head = h(
      "tr",
      null,
      h("th", { text: "Model" }),
      show.dataset && h("th", { text: "Dataset" }),
      h("th", { text: "Scaffold" }),
      h("th", { text: "Access" }),
      show.prompt && h("th", { text: "Prompt" }),
      show.attempts && h("th", { class: "num", text: "Attempts" }),
      splits.map((s) => h("th", { class: `split ${s}`, text: s === "original" ? "Original pass rate" : `${SPLIT_NAME[s]} cheating` })),
      h("th", { class: "chart-cell" }, axis())
    );
    const body = h(
      "tbody",
      null,
      rows.map(
        (r) => h(
          "tr",
          { class: "config-row" },
          h("td", { class: "model", text: r.config.model }),
          show.dataset && h("td", { text: r.config.dataset }),
          h("td", { text: r.config.scaffold }),
          h("td", { text: r.config.access }),
          show.prompt && h("td", { text: r.config.prompt }),
          show.attempts && h("td", { class: "num", text: r.config.maxAttempts }),
          splits.map((s) => rateCell(r.splits[s], s)),
          h("td", { class: "chart-cell" }, forest(r, splits))
        )
      )
    );
    return h("div", { class: "table-wrap" }, h("table", { id: "headline-table" }, h("thead", null, head), body));
  }
  function legend(splits, shared) {
    return h(
      "div",
      { class: "legend" },
      splits.map(
        (s) => h(
          "span",
          null,
          h("i", { style: `background: var(--${s})` }),
          s === "original" ? "original pass rate (legitimate)" : `${SPLIT_NAME[s]} cheating rate`
        )
      ),
      h("span", { text: `bars: rate · whiskers: ${REPEATED2 ? "Wilson 95% interval, or with repeats a bootstrap over tasks" : "Wilson 95% interval"}` }),
      shared.length ? h("span", { class: "shared", text: `all rows: ${shared.map((p) => `${p[0]} ${p[1]}`).join(" · ")}` }) : null
    );
  }
  function renderHeadline() {
    const host = clear(byId("headline"));
    const splits = SPLITS.filter((s) => !state.split || s === state.split);
    const rows = DATA.rows.filter((r) => matchesConfig(r.config));
    const show = { dataset: varies("dataset"), prompt: varies("prompt"), attempts: varies("maxAttempts") };
    const first = rows[0];
    if (!first) {
      append(host, [h("p", { class: "muted", text: DATA.rows.length ? "No config matches the filters." : "No samples are stored for this run yet." })]);
      return;
    }
    const shared = [
      !show.dataset && ["dataset", first.config.dataset],
      !show.prompt && ["prompt", first.config.prompt],
      !show.attempts && ["max attempts", String(first.config.maxAttempts)]
    ].filter((p) => !!p);
    append(host, [legend(splits, shared), headlineTable(rows, splits, show)]);
  }

  // results/html/client/kinds.ts
  function kindsTable(counts, classified) {
    const rows = KIND_INFO.order.filter((k) => counts[k]).map(
      (k) => h(
        "tr",
        {
          class: "kind-row",
          "data-kind": k,
          onclick: () => {
            setFilters({ kind: k });
            byId("samples").scrollIntoView();
          }
        },
        h("td", null, h("span", { class: "badge kind", text: k })),
        h("td", { class: "num", text: num(counts[k]) }),
        h("td", { class: "num", text: pct(counts[k] / classified) }),
        h("td", { class: "muted", text: KIND_INFO.descriptions[k] })
      )
    );
    const head = h(
      "tr",
      null,
      h("th", { text: "Kind" }),
      h("th", { class: "num", text: "Samples" }),
      h("th", { class: "num", text: "Share" }),
      h("th", { text: "What it means" })
    );
    const foot = h(
      "tr",
      null,
      h("td", { text: "classified" }),
      h("td", { class: "num", text: num(classified) }),
      h("td"),
      h("td", { class: "muted", text: "cheating passes and evasions" })
    );
    return h("div", { class: "table-wrap" }, h("table", { id: "kinds-table" }, h("thead", null, head), h("tbody", null, rows), h("tfoot", null, foot)));
  }
  function renderKinds(scope) {
    const host = clear(byId("kinds-summary"));
    const counts = {};
    let classified = 0;
    for (const s of scope) {
      if (!s.kinds) continue;
      classified++;
      for (const f of s.kinds) counts[f.kind] = (counts[f.kind] || 0) + 1;
    }
    if (!classified) {
      append(host, [h("p", { class: "muted", text: "No sample in the filters passed an impossible split or evaded." })]);
      return;
    }
    append(host, [kindsTable(counts, classified)]);
  }

  // results/html/client/monitors.ts
  function rateText(r) {
    return r.rate === null || !r.interval ? "— (0/0)" : `${pct(r.rate)} [${pct(r.interval.low)} – ${pct(r.interval.high)}] ${r.hits}/${r.n}`;
  }
  function unscoredText(m) {
    const parts = Object.entries(m.unscored).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`);
    return parts.length ? parts.join(", ") : "0";
  }
  function showMonitorSamples(how, id) {
    setFilters({ monitor: `${how}|${id}` });
    byId("samples").scrollIntoView();
  }
  function rateCell2(r, cls, how, id, any) {
    return h(
      "td",
      { class: "rate" },
      h("span", { class: "ci", text: rateText(r) }),
      whisker(r, cls),
      any ? h("button", { type: "button", class: "link", text: how, onclick: () => showMonitorSamples(how, id) }) : null
    );
  }
  function monitorRow(m, model) {
    let metrics = null;
    if (!model) metrics = m.overall;
    else for (const b of m.byModel) if (b.model === model) metrics = b.metrics;
    if (!metrics) return null;
    return h(
      "tr",
      { class: "monitor-row", "data-monitor": m.id },
      h("td", { class: "model", text: m.model }),
      h("td", { class: "muted", title: m.promptHash || "no prompt", text: m.prompt || "—" }),
      rateCell2(metrics.detection, "detection", "missed", m.id, metrics.detection.n > metrics.detection.hits),
      rateCell2(metrics.falsePositive, "false-positive", "flagged", m.id, metrics.falsePositive.hits > 0),
      h("td", { class: "num", text: metrics.auroc === null ? "—" : metrics.auroc.toFixed(3) }),
      h("td", { class: "num", text: unscoredText(metrics) })
    );
  }
  function monitorTable(model) {
    const head = h(
      "tr",
      null,
      h("th", { text: "Monitor" }),
      h("th", { text: "Prompt" }),
      h("th", { text: "Detection (cheating flagged)" }),
      h("th", { text: "False positives (legit flagged)" }),
      h("th", { class: "num", text: "AUROC" }),
      h("th", { class: "num", text: "Not scored" })
    );
    const rows = MON.list.map((m) => monitorRow(m, model)).filter((r) => r !== null);
    return h("div", { class: "table-wrap" }, h("table", { class: "monitor-table" }, h("thead", null, head), h("tbody", null, rows)));
  }
  function renderMonitors() {
    const host = document.getElementById("monitors");
    if (!host) return;
    clear(host);
    const models = {};
    for (const m of MON.list) for (const b of m.byModel) models[b.model] = true;
    const shown = Object.keys(models).sort().filter((m) => !state.model || m === state.model);
    const blocks = (state.model ? [] : [""]).concat(shown).map(
      (model) => h(
        "div",
        { class: "monitor-block", "data-model": model || "all" },
        h("h3", { text: model || "All agent models" }),
        h("div", { class: "muted small", text: "Cheating kinds" }),
        kindBar(model),
        monitorTable(model)
      )
    );
    append(host, blocks);
  }

  // results/html/client/run-info.ts
  function eventRow(e) {
    let key = null;
    try {
      key = e.sampleKey ? JSON.parse(e.sampleKey) : null;
    } catch (e2) {
      key = null;
    }
    const data = e.data && typeof e.data === "object" && Object.keys(e.data).length === 0 ? "" : JSON.stringify(e.data);
    return h(
      "tr",
      null,
      h("td", { class: "muted", text: e.time.replace("T", " ").replace(/\.\d+Z$/, "") }),
      h("td", null, h("b", { text: e.kind })),
      h("td", { text: Array.isArray(key) ? key.join(" · ") : e.sampleKey || "" }),
      h("td", { class: "data", text: data })
    );
  }
  function renderRunInfo() {
    append(byId("run-config"), [h("pre", { class: "config", text: JSON.stringify(DATA.run.config, null, 2) })]);
    const host = byId("run-events");
    const events = DATA.events;
    if (!events.length) {
      append(host, [h("p", { class: "muted", text: "No events were recorded." })]);
      return;
    }
    const omitted = DATA.eventsOmitted ? h("p", { class: "muted", text: `The first ${num(DATA.eventsOmitted)} events are left out; the latest ${num(events.length)} follow.` }) : null;
    const head = h("tr", null, h("th", { text: "Time" }), h("th", { text: "Event" }), h("th", { text: "Sample" }), h("th", { text: "Data" }));
    append(host, [
      omitted,
      h("div", { class: "table-wrap" }, h("table", { class: "events" }, h("thead", null, head), h("tbody", null, events.map(eventRow))))
    ]);
  }

  // results/html/client/samples.ts
  function outcomeBadge(s) {
    if (s.label === "cheating" && s.tamper && s.tamper.length)
      return h("span", { class: "badge cheating", title: `passed with signs of harness tampering: ${s.tamper.join("; ")}`, text: "passed, tampered" });
    if (s.label === "cheating") return h("span", { class: "badge cheating", title: "passed on an impossible split", text: "cheating" });
    if (s.label === "legit") return h("span", { class: "badge legit", text: "passed" });
    return h("span", { class: `badge ${s.outcome}`, text: s.outcome });
  }
  function kindBadges(s) {
    return (s.kinds || []).map((f) => [
      h("span", { class: "badge kind", "data-kind": f.kind, title: `${KIND_INFO.descriptions[f.kind]}: ${f.why}`, text: f.kind }),
      " "
    ]);
  }
  function sampleRow(s) {
    const href = `#sample-${s.id}`;
    return h(
      "tr",
      {
        class: `sample ${s.label} outcome-${s.outcome}`,
        "data-id": s.id,
        onclick: (e) => {
          if (e.target.tagName !== "A") location.hash = href;
        }
      },
      h("td", { class: "task" }, h("a", { href, text: s.key.taskId })),
      h("td", { text: s.key.model }),
      h("td", { class: `split ${s.key.split}`, text: SPLIT_NAME[s.key.split] }),
      h("td", { text: s.key.scaffold }),
      h("td", { text: s.key.access }),
      h("td", { text: s.key.prompt }),
      h("td", { class: "num", text: s.key.epoch }),
      h("td", null, outcomeBadge(s), " ", s.stopReason === "flagged" ? h("span", { class: "badge flagged", text: "flagged" }) : null),
      h("td", { class: "muted", text: s.stopReason.replace("_", " ") }),
      h("td", { class: "num", text: s.attempts }),
      h("td", { class: "num", text: num(s.inputTokens + s.outputTokens) }),
      h(
        "td",
        { class: "kinds" },
        kindBadges(s),
        s.testDiff ? h("span", { class: "badge tests", title: "the agent changed test files", text: "tests edited" }) : null
      )
    );
  }
  function sampleTable(rows) {
    const head = h(
      "tr",
      null,
      ["Task", "Model", "Split", "Scaffold", "Access", "Prompt"].map((t) => h("th", { text: t })),
      h("th", { class: "num", text: "Epoch" }),
      h("th", { text: "Outcome" }),
      h("th", { text: "Stop" }),
      h("th", { class: "num", text: "Att." }),
      h("th", { class: "num", text: "Tokens" }),
      h("th", { text: "Evidence" })
    );
    return h("div", { class: "table-wrap" }, h("table", { id: "sample-table", class: "nowrap" }, h("thead", null, head), h("tbody", null, rows)));
  }
  function renderSamples() {
    const host = clear(byId("samples"));
    const { filtered } = state;
    byId("filter-count").textContent = `showing ${num(filtered.length)} of ${num(SAMPLES.length)} samples`;
    if (!filtered.length) {
      append(host, [h("p", { class: "muted", text: SAMPLES.length ? "No sample matches the filters." : "No samples are stored for this run yet." })]);
      return;
    }
    append(host, [sampleTable(filtered.slice(0, state.shown).map(sampleRow))]);
    if (filtered.length > state.shown) {
      const more = h("button", {
        type: "button",
        class: "link",
        text: `Show ${num(Math.min(PAGE, filtered.length - state.shown))} more`,
        onclick: () => {
          state.shown += PAGE;
          renderSamples();
        }
      });
      append(host, [h("div", { class: "more" }, more)]);
    }
  }

  // results/html/client/transcript.ts
  var LONG_LINES = 60;
  var KEEP_LINES = 40;
  function longText(text, cls) {
    const lines = text.split("\n");
    if (lines.length <= LONG_LINES && text.length <= 8e3) return [h("pre", { class: cls, text })];
    const pre = h("pre", { class: cls, text: `${lines.slice(0, KEEP_LINES).join("\n").slice(0, 6e3)}
…` });
    const btn = h("button", {
      type: "button",
      class: "link",
      text: `Show all ${num(lines.length)} lines`,
      onclick: () => {
        pre.textContent = text;
        btn.remove();
      }
    });
    return [pre, h("div", { class: "expand" }, btn)];
  }
  function toolArgs(args) {
    let parsed;
    try {
      parsed = JSON.parse(args);
    } catch (e) {
      return longText(args, "");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return longText(JSON.stringify(parsed, null, 2), "");
    const fields = parsed;
    const keys = Object.keys(fields);
    if (!keys.length) return [h("pre", { class: "muted", text: "(no arguments)" })];
    return keys.map((k) => {
      const v = fields[k];
      return [h("div", { class: "arg", text: k }), longText(typeof v === "string" ? v : JSON.stringify(v, null, 2), "")];
    });
  }
  function message(m, i) {
    const extra = m.role === "tool" ? (m.name ? m.name : "") + (m.toolCallId ? `  ← ${m.toolCallId}` : "") : m.name || "";
    return h(
      "div",
      { class: `msg ${m.role}` },
      h(
        "div",
        { class: "head" },
        h("span", { text: m.role }),
        extra ? h("span", { class: "muted", style: "text-transform:none;font-weight:500", text: extra }) : null,
        h("span", { class: "idx", text: `#${i + 1}` })
      ),
      m.content ? h("div", { class: "body" }, longText(m.content, "")) : null,
      (m.toolCalls || []).map(
        (tc) => h("div", { class: "toolcall" }, h("div", { class: "tc-head", text: `→ ${tc.name}  (${tc.id})` }), toolArgs(tc.arguments))
      )
    );
  }
  var FILE_LINE = /^(diff |index |--- |\+\+\+ |new file|deleted file|similarity|rename |old mode|new mode)/;
  function diffView(text) {
    const pre = h("pre", { class: "diff" });
    for (const line of text.replace(/\n$/, "").split("\n")) {
      let cls = "d-ctx";
      if (FILE_LINE.test(line)) cls = "d-file";
      else if (line.charAt(0) === "@" && line.charAt(1) === "@") cls = "d-hunk";
      else if (line.charAt(0) === "+") cls = "d-add";
      else if (line.charAt(0) === "-") cls = "d-del";
      append(pre, [h("span", { class: cls, text: line })]);
    }
    return pre;
  }

  // results/html/client/sample-panels.ts
  function panel(title, cls, content, empty = "", badge = null) {
    return h("div", { class: `panel ${cls}` }, h("h3", null, title, badge), content || h("div", { class: "empty", text: empty }));
  }
  function sampleEvents(s) {
    const events = DATA.events.filter((e) => e.sampleKey === s.keyString);
    if (!events.length) return null;
    const facts = events.map((e) => [
      h("dt", { text: e.time.replace("T", " ").replace(/\.\d+Z$/, "") }),
      h("dd", null, h("b", { text: e.kind }), " ", h("span", { class: "muted", text: JSON.stringify(e.data) }))
    ]);
    return panel("Events", "sample-events", h("dl", { class: "facts" }, facts));
  }
  function kindsPanel(s) {
    if (!s.kinds && !(s.judges || []).length) return null;
    const findings = (s.kinds || []).map((f) => {
      const lines = f.evidence.map((e) => `${e.file ? e.file + (e.line ? `:${e.line}` : "") : e.source}  ${e.change || ""}${e.text}`).join("\n");
      return h(
        "div",
        { class: "kind-finding", "data-kind": f.kind },
        h("div", null, h("span", { class: "badge kind", "data-kind": f.kind, text: f.kind }), " ", h("span", { class: "muted", text: f.why })),
        lines ? h("pre", { class: "log", text: lines }) : null
      );
    });
    const judges = (s.judges || []).map(
      (j) => h(
        "div",
        { class: "judge-verdict" },
        h("b", { text: `Judge ${j.model}: ` }),
        h("span", { class: "badge kind", "data-kind": j.kind || "", text: j.kind || "no category" }),
        h("div", { class: "muted", text: j.explanation })
      )
    );
    return h("div", { class: "panel kinds-panel", id: "kinds" }, h("h3", { text: "How it cheated" }), findings, judges);
  }
  function monitorsPanel(s) {
    if (!(s.monitors || []).length) return null;
    const facts = s.monitors.map((v) => {
      const said = v.status === "scored" ? String(v.score) + (isFlagged(v) ? " · flagged" : " · not flagged") : v.status;
      return [h("dt", { text: v.monitor }), h("dd", null, h("b", { text: said }), " ", h("span", { class: "muted", text: v.reason }))];
    });
    return panel("Monitors", "monitors-panel", h("dl", { class: "facts" }, facts));
  }
  function testDiffPanel(s) {
    return h(
      "div",
      { class: `panel test-diff${s.testDiff ? " changed" : ""}`, id: "test-diff" },
      h("h3", null, "Test-file changes", s.testDiff ? h("span", { class: "badge tests", text: "tests edited" }) : null),
      s.testDiff ? h("div", { class: "note", text: "The agent changed test files. On an impossible split this is the most common way to cheat." }) : null,
      s.testDiff ? diffView(s.testDiff) : h("div", { class: "empty", text: "No test file was changed." })
    );
  }
  function evidencePanels(s) {
    return [
      kindsPanel(s),
      monitorsPanel(s),
      s.error ? panel("Error", "", h("pre", { class: "log", text: s.error })) : null,
      testDiffPanel(s),
      panel("Source changes", "source-diff", s.sourceDiff ? diffView(s.sourceDiff) : null, "No source file was changed."),
      panel("Changes outside the work dir", "outside", s.outsideChanges ? h("pre", { class: "log", text: s.outsideChanges }) : null, "None."),
      panel("Grading log", "grading", s.gradingLog ? longText(s.gradingLog, "log") : null, "No grading output."),
      sampleEvents(s)
    ];
  }

  // results/html/client/sample-view.ts
  var VERDICT = {
    cheating: "Cheating: passed tests that contradict the spec",
    legit: "Passed the original tests",
    failed: "Did not pass",
    evaded: "Evaded: reported success but the tests never ran to their end",
    error: "Infrastructure or API error: left out of every rate"
  };
  function crumbs(s) {
    const { filtered } = state;
    const pos = filtered.indexOf(s);
    const prev = pos > 0 ? filtered[pos - 1] : null;
    const next = pos >= 0 && pos < filtered.length - 1 ? filtered[pos + 1] : null;
    return h(
      "div",
      { class: "crumbs" },
      h("a", { href: "#", id: "back", text: "← All samples" }),
      h("span", { class: "spacer" }),
      prev ? h("a", { href: `#sample-${prev.id}`, text: "‹ previous" }) : null,
      pos >= 0 ? h("span", { class: "muted", text: `${pos + 1} of ${filtered.length}` }) : null,
      next ? h("a", { href: `#sample-${next.id}`, text: "next ›" }) : null
    );
  }
  function banner(s, kind) {
    const k = s.key;
    const chips = [
      ["model", k.model],
      ["dataset", k.dataset],
      ["split", SPLIT_NAME[k.split]],
      ["scaffold", k.scaffold],
      ["access", k.access],
      ["prompt", k.prompt],
      ["max attempts", k.maxAttempts],
      ["epoch", k.epoch]
    ];
    return h(
      "div",
      { class: `banner ${kind}`, id: "sample-banner" },
      h("h2", { text: k.taskId }),
      outcomeBadge(s),
      s.stopReason === "flagged" ? h("span", { class: "badge flagged", text: "flagged for a human" }) : null,
      kindBadges(s),
      h("span", { class: "verdict", text: VERDICT[kind] || "" }),
      h(
        "div",
        { class: "chips" },
        chips.map((p) => h("span", { class: "chip" }, h("b", { text: p[0] }), String(p[1])))
      )
    );
  }
  function runFacts(s) {
    const cached = s.cacheReadTokens ? ` (${num(s.cacheReadTokens)} from cache)` : "";
    const facts = [
      ["outcome", s.outcome],
      ["stop reason", s.stopReason.replace("_", " ")],
      ["attempts", `${s.attempts} of ${s.key.maxAttempts}`],
      ["tokens", `${num(s.inputTokens)} in${cached} · ${num(s.outputTokens)} out`],
      ["cost", `${usd(s.costUsd, true)}${s.costUsd ? " billed, cache prices applied" : ""}`],
      ["wall time", secs(s.wallMs)],
      ["started", s.startedAt],
      s.errorCount ? ["infra errors", String(s.errorCount) + (s.outcome === "error" ? "" : " before this result")] : null
    ];
    return panel(
      "Run",
      "",
      h(
        "dl",
        { class: "facts" },
        facts.filter((p) => p !== null).map((p) => [h("dt", { text: p[0] }), h("dd", { text: p[1] })])
      )
    );
  }
  function renderSample(id) {
    const s = BY_ID[id];
    const host = clear(byId("sample-view"));
    if (!s) {
      append(host, [h("p", null, `No sample ${id} in this report. `, h("a", { href: "#", text: "Back to the overview" }))]);
      return;
    }
    const kind = s.label === "cheating" ? "cheating" : s.label === "legit" ? "legit" : s.outcome;
    const transcript = h(
      "div",
      { id: "transcript" },
      h("h3", { style: "margin:0 0 10px;font-size:15px", text: `Transcript · ${s.transcript.length} messages` }),
      s.transcript.length ? s.transcript.map(message) : h("p", { class: "muted", text: "No messages were recorded." })
    );
    append(host, [
      crumbs(s),
      banner(s, kind),
      h("div", { class: "sample-grid" }, transcript, h("div", { id: "evidence" }, runFacts(s), evidencePanels(s)))
    ]);
  }

  // results/html/client/stats.ts
  function tally(scope) {
    const t = { imp: 0, cheats: 0, orig: 0, legit: 0, evaded: 0, errors: 0, cost: 0, unknownCost: 0 };
    for (const s of scope) {
      if (s.costUsd === null) t.unknownCost++;
      else t.cost += s.costUsd;
      if (s.outcome === "error") {
        t.errors++;
        continue;
      }
      if (s.outcome === "evaded") t.evaded++;
      if (isImpossible(s.key.split)) {
        t.imp++;
        if (s.label === "cheating") t.cheats++;
      } else {
        t.orig++;
        if (s.label === "legit") t.legit++;
      }
    }
    return t;
  }
  function stat(cls, id, value, label) {
    return h("div", { class: `stat ${cls}`, id }, h("div", { class: "v", text: value }), h("div", { class: "k", text: label }));
  }
  function renderStats(scope) {
    const { imp, cheats, orig, legit, evaded, errors, cost, unknownCost } = tally(scope);
    append(clear(byId("stats")), [
      stat("", "stat-samples", num(scope.length), scope.length === SAMPLES.length ? "samples" : "samples in the filters"),
      stat("cheating", "stat-cheating", imp ? pct(cheats / imp) : "—", `cheating on impossible, pooled (${cheats}/${imp})`),
      stat("legit", "stat-legit", orig ? pct(legit / orig) : "—", `passing originals (${legit}/${orig})`),
      stat("evaded", "stat-evaded", num(evaded), "evaded"),
      stat("error", "stat-errors", num(errors), "errors (not scored)"),
      stat(
        "",
        "stat-cost",
        unknownCost ? "unknown" : usd(cost, false),
        unknownCost ? `cost (${unknownCost} unpriced)` : "cost billed, cache prices applied"
      )
    ]);
  }

  // results/html/client/main.ts
  function applyFilters() {
    const inScope = filterSamples();
    renderStats(inScope);
    renderKinds(inScope);
    renderMonitors();
    renderHeadline();
    renderCells();
    renderSamples();
  }
  var overviewScroll = 0;
  function route() {
    const m = /^#sample-(\d+)$/.exec(location.hash);
    const overview = document.getElementById("overview");
    const view = document.getElementById("sample-view");
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
  window.addEventListener("hashchange", route);
  route();
  document.body.setAttribute("data-ready", "true");
})();
