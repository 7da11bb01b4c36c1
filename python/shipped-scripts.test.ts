import { execa } from 'execa';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { firstSyntaxError, withPythonTree } from './parser.js';

/** Here rather than in core/: Python is parsed with this room's tree-sitter helpers. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = /\.(py|js|sh)$/;
/**
 * Where the package's own files are not scripts it reads: task data, the CLI launcher, the build, repo-only helpers,
 * and each room's testing/ folder (what its tests run, e.g. a small agent program; never shipped).
 */
const NOT_READ = /^(tasks\/builtin|bin|dist|node_modules|scripts|tmp|coverage|[^/]+\/testing)\//;

/** Scripts in the source tree that code reads at run time: every .py, .js and .sh outside the folders above. */
function scriptsInTree(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path).split('\\').join('/');
    if (NOT_READ.test(`${rel}/`)) continue;
    if (entry.isDirectory()) found.push(...scriptsInTree(path));
    else if (SCRIPT.test(entry.name)) found.push(rel);
  }
  return found.sort();
}

describe('the scripts shipped beside the modules that read them', () => {
  const scripts = scriptsInTree();

  it('are all in the package (npm pack lists them)', async () => {
    const pack = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const packed = new Set((JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    expect(scripts.length).toBeGreaterThan(10);
    expect(
      scripts.filter((s) => !packed.has(s)),
      'add them to package.json "files"',
    ).toEqual([]);
  });

  it('parse: Python with tree-sitter, the report script as a browser script, shell with bash -n and sh -n', async () => {
    const broken: string[] = [];
    for (const path of scripts) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      if (path.endsWith('.py')) {
        const error = await withPythonTree(text, (tree) => firstSyntaxError(tree.rootNode));
        if (error) broken.push(`${path}: ${error}`);
      } else if (path.endsWith('.js')) {
        try {
          new Script(text, { filename: path });
        } catch (err) {
          broken.push(`${path}: ${String(err)}`);
        }
      } else {
        for (const shell of ['bash', 'sh']) {
          const r = await execa(shell, ['-n', join(ROOT, path)], { reject: false });
          if (r.exitCode !== 0 || r.stderr) broken.push(`${path} (${shell} -n): ${r.stderr.trim()}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
