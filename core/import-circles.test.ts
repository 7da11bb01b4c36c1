import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, repoSources } from './testing/sources.js';

/** Each source's relative imports, as repository paths (`.js` specifiers name the `.ts` sources). */
function importGraph(sources: { path: string; text: string }[]): Map<string, string[]> {
  const known = new Set(sources.map((s) => s.path));
  const graph = new Map<string, string[]>();
  for (const { path, text } of sources) {
    const targets = importSpecifiers(text)
      .filter((f) => f.startsWith('.'))
      .map((f) => posix.normalize(posix.join(posix.dirname(path), f)).replace(/\.js$/, '.ts'))
      .filter((t) => known.has(t));
    graph.set(path, targets);
  }
  return graph;
}

/** Every circle of imports, each once, as the files along it starting from its smallest path. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const circles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const circle = stack.slice(stack.indexOf(next));
        const start = circle.indexOf([...circle].sort()[0]!);
        const turned = [...circle.slice(start), ...circle.slice(0, start)];
        circles.set(turned.join(' → '), turned);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...circles.values()];
}

describe('import circles', () => {
  it('no source reaches itself through its imports', () => {
    const sources = repoSources().filter((s) => !s.path.endsWith('.test.ts'));
    const found = importCircles(importGraph(sources)).map((c) => [...c, c[0]].join(' → '));
    expect(found, 'move what both sides need into a file of its own').toEqual([]);
  });

  it('finds a circle through type-only imports and names it once', () => {
    const graph = importGraph([
      { path: 'runner/a.ts', text: "import { b } from './b.js';" },
      { path: 'runner/b.ts', text: "import type { C } from './c.js';" },
      { path: 'runner/c.ts', text: "export { a } from './a.js';" },
      { path: 'runner/d.ts', text: "import { a } from './a.js';" },
    ]);
    expect(importCircles(graph)).toEqual([['runner/a.ts', 'runner/b.ts', 'runner/c.ts']]);
    expect(importCircles(importGraph([{ path: 'runner/a.ts', text: "import { b } from './b.js';" }]))).toEqual([]);
  });
});
