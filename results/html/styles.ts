/** The report's stylesheet, inlined into the page. Outcome colours are defined once, as variables. */
export const STYLES = `
:root {
  --bg: #f6f7f9; --card: #ffffff; --text: #1f2328; --muted: #656d76; --line: #d8dee4; --soft: #eef1f4;
  --accent: #0b5cad;
  --cheating: #c4141c; --cheating-bg: #ffebe9;
  --legit: #1a7f37; --legit-bg: #dafbe1;
  --failed: #57606a; --failed-bg: #eaeef2;
  --evaded: #b35900; --evaded-bg: #fff1e0;
  --error: #7a3fc4; --error-bg: #f1e9fc;
  --flagged: #0b5cad; --flagged-bg: #ddf4ff;
  --original: #1a7f37; --oneoff: #d1242f; --conflicting: #8f1d6a;
  --test-edit: #9a6700; --test-edit-bg: #fff8c5;
  --add-bg: #dcfce4; --add-fg: #116329; --del-bg: #ffe4e4; --del-fg: #a40e26; --hunk-bg: #ddf4ff; --hunk-fg: #0550ae;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", "DejaVu Sans", Arial, sans-serif;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 var(--sans); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { background: #1f2a37; color: #f6f8fa; padding: 18px 32px 16px; }
header.top h1 { margin: 0; font-size: 20px; font-weight: 650; letter-spacing: .2px; }
header.top h1 .brand { color: #ff8182; }
header.top .meta { margin-top: 4px; color: #c9d1d9; font-size: 13px; }
header.top .meta span + span::before { content: "·"; margin: 0 8px; color: #8b949e; }
main { max-width: 1360px; margin: 0 auto; padding: 20px 32px 60px; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; margin: 0 0 18px; box-shadow: 0 1px 2px rgba(31,35,40,.04); }
section.card > h2 { margin: 0 0 4px; font-size: 16px; font-weight: 650; }
.sub { color: var(--muted); margin: 0 0 14px; font-size: 13px; }
.muted { color: var(--muted); }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin-bottom: 18px; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; border-top: 3px solid var(--line); }
.stat .v { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; }
.stat .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .4px; }
.stat.cheating { border-top-color: var(--cheating); } .stat.cheating .v { color: var(--cheating); }
.stat.legit { border-top-color: var(--legit); } .stat.legit .v { color: var(--legit); }
.stat.evaded { border-top-color: var(--evaded); } .stat.error { border-top-color: var(--error); }
.filters { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: end; background: rgba(246,247,249,.96); backdrop-filter: blur(4px); padding: 10px 0 12px; margin-bottom: 8px; border-bottom: 1px solid var(--line); }
.filters label { display: flex; flex-direction: column; font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .4px; gap: 3px; }
.filters select { font: 13px var(--sans); padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--text); min-width: 130px; }
.filters button, button.link { font: 13px var(--sans); padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; color: var(--text); }
.filters button:hover, button.link:hover { background: var(--soft); }
.filters .count { margin-left: auto; color: var(--muted); font-size: 13px; align-self: center; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--soft); vertical-align: middle; }
th { font-size: 11px; text-transform: uppercase; letter-spacing: .4px; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; }
.table-wrap { overflow-x: auto; }
.rate { white-space: nowrap; }
.rate .pct { font-size: 16px; font-weight: 650; }
.rate .ci { display: block; color: var(--muted); font-size: 12px; }
.rate .extras { display: block; color: var(--evaded); font-size: 11px; }
.rate.impossible.hot .pct { color: var(--cheating); }
.rate.original .pct { color: var(--legit); }
.rate.none { color: var(--muted); }
.chart-cell { min-width: 200px; width: 28%; }
svg.forest { display: block; width: 100%; height: auto; overflow: visible; }
svg.forest text { font: 10px var(--sans); fill: var(--muted); }
svg.compare-forest { max-width: 760px; margin: 0 0 12px; }
ul.discordant { margin: 4px 0 12px; padding-left: 20px; font-size: 13px; }
.monitor-block { margin: 0 0 18px; }
.monitor-block h3 { margin: 8px 0 6px; font-size: 14px; }
.small { font-size: 12px; }
svg.kind-bar { display: block; width: 320px; max-width: 100%; height: 14px; border-radius: 3px; margin: 4px 0; }
.kind-legend { margin: 0 0 8px; }
svg.whisker { display: block; width: 200px; height: 16px; }
svg.whisker .axis-line { stroke: var(--line); stroke-width: 1; }
svg.whisker .ci-line { stroke: var(--muted); stroke-width: 1.5; }
svg.whisker.detection .dot { fill: var(--legit); }
svg.whisker.false-positive .dot { fill: var(--cheating); }
.monitor-table td.rate button.link { margin-top: 2px; padding: 1px 8px; font-size: 12px; }
.legend { display: flex; gap: 16px; flex-wrap: wrap; font-size: 12px; color: var(--muted); margin: 2px 0 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; white-space: nowrap; border: 1px solid transparent; }
.badge.cheating { color: #fff; background: var(--cheating); }
.badge.legit { color: var(--legit); background: var(--legit-bg); border-color: #aceebb; }
.badge.failed { color: var(--failed); background: var(--failed-bg); }
.badge.evaded { color: var(--evaded); background: var(--evaded-bg); border-color: #ffd8b5; }
.badge.error { color: var(--error); background: var(--error-bg); border-color: #dcc8f7; }
.badge.flagged { color: var(--flagged); background: var(--flagged-bg); border-color: #b6e3ff; }
.badge.kind { color: #6e3700; background: #fff1e5; border-color: #ffc58f; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 500; }
#kinds-table tr.kind-row { cursor: pointer; }
#kinds-table tr.kind-row:hover { background: #f6f8fa; }
.kind-finding, .judge-verdict { padding: 8px 12px 0; }
.kind-finding pre { margin: 6px 0 0; }
.judge-verdict { padding-bottom: 10px; }
.judge-verdict .muted { margin-top: 4px; }
.badge.tests { color: var(--test-edit); background: var(--test-edit-bg); border-color: #f0d56b; }
.split { font-weight: 600; }
.split.original { color: var(--original); } .split.oneoff { color: var(--oneoff); } .split.conflicting { color: var(--conflicting); }
tr.sample { cursor: pointer; }
tr.sample:hover td { background: #f6f8fa; }
tr.sample.cheating td:first-child { box-shadow: inset 3px 0 0 var(--cheating); }
td.task a { font-family: var(--mono); font-size: 13px; }
.more { margin-top: 12px; text-align: center; }
details.cells > summary { cursor: pointer; font-weight: 650; font-size: 16px; }
details.cells[open] > summary { margin-bottom: 12px; }
/* sample view */
.crumbs { display: flex; gap: 10px; align-items: center; margin-bottom: 14px; }
.crumbs .spacer { flex: 1; }
.banner { border-radius: 10px; padding: 14px 18px; margin-bottom: 16px; border: 1px solid var(--line); background: var(--card); display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; }
.banner h2 { margin: 0; font: 600 18px var(--mono); }
.banner .verdict { font-weight: 650; }
.banner.cheating { background: var(--cheating-bg); border-color: #ffb3b0; } .banner.cheating .verdict { color: var(--cheating); }
.banner.legit { background: #f0fff4; border-color: #aceebb; } .banner.legit .verdict { color: var(--legit); }
.banner.evaded { background: var(--evaded-bg); border-color: #ffd8b5; } .banner.evaded .verdict { color: var(--evaded); }
.banner.error { background: var(--error-bg); border-color: #dcc8f7; } .banner.error .verdict { color: var(--error); }
.chips { display: flex; flex-wrap: wrap; gap: 6px; width: 100%; }
.chip { font-size: 12px; background: rgba(255,255,255,.8); border: 1px solid var(--line); border-radius: 6px; padding: 1px 8px; }
.chip b { font-weight: 600; color: var(--muted); margin-right: 4px; }
.sample-grid { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 18px; align-items: start; }
@media (max-width: 1000px) { .sample-grid { grid-template-columns: minmax(0, 1fr); } main { padding: 16px; } }
.msg { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; overflow: hidden; background: #fff; }
.msg > .head { display: flex; gap: 8px; align-items: center; padding: 5px 10px; font-size: 12px; font-weight: 650; text-transform: uppercase; letter-spacing: .4px; border-bottom: 1px solid var(--line); }
.msg > .head .idx { color: var(--muted); font-weight: 500; margin-left: auto; text-transform: none; letter-spacing: 0; }
.msg.system > .head { background: #f3f4f6; color: #57606a; }
.msg.user > .head { background: #ddf4ff; color: #0550ae; }
.msg.assistant > .head { background: #fbefff; color: #6e40c9; }
.msg.tool > .head { background: #fff8e6; color: #8a5a00; }
.msg.assistant { border-left: 3px solid #c297ff; }
.msg.tool { border-left: 3px solid #e3b341; }
pre { margin: 0; font: 12.5px/1.5 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; }
.msg .body { padding: 8px 12px; }
.msg.system .body { color: #57606a; }
.toolcall { margin: 0 12px 10px; border: 1px dashed #c297ff; border-radius: 6px; background: #fcf8ff; }
.toolcall .tc-head { font: 600 12px var(--mono); color: #6e40c9; padding: 4px 10px; border-bottom: 1px dashed #e2ccff; }
.toolcall pre { padding: 6px 10px; }
.toolcall .arg { padding: 4px 10px 0; font: 600 11px var(--mono); color: #8250df; }
.toolcall .arg + pre { padding-top: 2px; }
.expand { margin: 0 12px 10px; }
.panel { border: 1px solid var(--line); border-radius: 8px; background: #fff; margin-bottom: 14px; overflow: hidden; }
.panel > h3 { margin: 0; padding: 8px 12px; font-size: 13px; font-weight: 650; background: #f6f8fa; border-bottom: 1px solid var(--line); display: flex; gap: 8px; align-items: center; }
.panel > .empty { padding: 10px 12px; color: var(--muted); font-size: 13px; }
.panel.test-diff.changed { border: 2px solid #d4a72c; }
.panel.test-diff.changed > h3 { background: var(--test-edit-bg); color: var(--test-edit); }
.panel .note { padding: 6px 12px; font-size: 12px; color: var(--test-edit); background: #fffbe6; border-bottom: 1px solid #f5e0a0; }
pre.diff { padding: 6px 0; overflow-x: auto; white-space: pre; max-height: 560px; overflow-y: auto; }
pre.diff > span { display: block; padding: 0 12px; min-height: 1.5em; }
pre.diff .d-add { background: var(--add-bg); color: var(--add-fg); }
pre.diff .d-del { background: var(--del-bg); color: var(--del-fg); }
pre.diff .d-hunk { background: var(--hunk-bg); color: var(--hunk-fg); }
pre.diff .d-file { font-weight: 700; color: var(--text); background: #f6f8fa; }
.panel.test-diff.changed pre.diff .d-add { background: #fff1a8; color: #6b4b00; box-shadow: inset 3px 0 0 #d4a72c; }
.panel.test-diff.changed pre.diff .d-del { background: #ffd9c2; color: #8a2a00; box-shadow: inset 3px 0 0 #e16f24; }
pre.log { padding: 8px 12px; max-height: 420px; overflow: auto; background: #0d1117; color: #e6edf3; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0; padding: 10px 12px; font-size: 13px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
table.nowrap td, table.nowrap th { white-space: nowrap; }
td.model { white-space: nowrap; }
pre.config { padding: 10px 12px; background: #f6f8fa; border-radius: 6px; max-height: 360px; overflow: auto; }
table.events td { font-size: 13px; vertical-align: top; }
table.events td.data { font: 12px var(--mono); color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 700px) { .filters { position: static; } header.top, main { padding-left: 14px; padding-right: 14px; } }
@media print {
  .filters, .more, .crumbs { display: none; }
  body { background: #fff; }
  header.top { background: none; color: var(--text); border-bottom: 2px solid var(--text); }
  header.top .meta { color: var(--muted); }
  section.card, .stat, .panel, .msg { break-inside: avoid; box-shadow: none; }
}
[hidden] { display: none !important; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 10px; }
`;
