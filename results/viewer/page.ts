/** The page's policy in its own markup too: a browser ignores `frame-ancestors` there (and says so), so it is left out. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
export const VIEWER_CSP = `${PAGE_CSP}; frame-ancestors 'none'`;

/**
 * The viewer's page: an empty frame its modules fill through DOM calls and `textContent` only, so no
 * stored text is ever parsed as markup. Nothing loads from anywhere but the viewer itself.
 */
export function viewerPage(styles: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<title>ImpossibleBench viewer</title>
<style>${styles}
nav.views a { color: #f6f8fa; margin-right: 16px; font-weight: 600; }
nav.views a.current { text-decoration: underline; }
.index-filters { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; align-items: center; }
.index-filters select, .index-filters input { font: inherit; padding: 3px 6px; }
#index-table th.sortable { cursor: pointer; }
#index-table tbody tr { cursor: pointer; }
#index-table tbody tr:hover { background: #f6f8fa; }
.pager { display: flex; gap: 10px; align-items: center; margin-top: 10px; }
details.fold > summary { cursor: pointer; color: var(--muted); font-size: 12px; padding: 4px 12px; }
</style>
</head>
<body>
<header class="top">
  <h1><span class="brand">Impossible</span>Bench viewer</h1>
  <nav class="views"><a href="#/runs" id="nav-runs">Runs</a><a href="#/samples" id="nav-samples">Samples</a></nav>
</header>
<main id="view"><noscript><p>The viewer draws its pages with JavaScript; allow scripts for this address.</p></noscript></main>
<script type="module" src="client/main.js"></script>
</body>
</html>
`;
}
