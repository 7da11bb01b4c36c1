import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { firstSyntaxError, withPythonTree } from '../mutations/python/parser.js';
import { fillPlaceholders, shippedPath } from './shipped.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = /\.(py|js|sh)$/;
/** Where the package's own files are not scripts it reads: task data, the CLI launcher, the build, repo-only helpers. */
const NOT_READ = /^(tasks\/builtin|bin|dist|node_modules|scripts|tmp|tmp-scratch|coverage)\//;

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
    expect(scripts.filter((s) => !packed.has(s)), 'add them to package.json "files"').toEqual([]);
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

describe('shippedPath', () => {
  it('finds a file beside a module of the sources, and under the package root (never in dist/) for a built module', () => {
    const root = mkdtempSync(join(tmpdir(), 'ib-shipped-'));
    try {
      writeFileSync(join(root, 'package.json'), '{"name": "impossiblebench"}');
      mkdirSync(join(root, 'a', 'b'), { recursive: true });
      writeFileSync(join(root, 'a', 'b', 'x.py'), '');
      // A compiled module of the same name in dist/ is never taken for the shipped file.
      mkdirSync(join(root, 'dist', 'a', 'b'), { recursive: true });
      writeFileSync(join(root, 'dist', 'a', 'b', 'x.py'), '');
      const source = pathToFileURL(join(root, 'a', 'b', 'm.ts')).href;
      const built = pathToFileURL(join(root, 'dist', 'a', 'b', 'm.js')).href;
      expect(shippedPath(source, 'x.py')).toBe(join(root, 'a', 'b', 'x.py'));
      expect(shippedPath(built, 'x.py')).toBe(join(root, 'a', 'b', 'x.py'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('fillPlaceholders', () => {
  it('fills every placeholder, and names one without a value or a value without a placeholder', () => {
    expect(fillPlaceholders('a=@A@ b=@B_2@ $@ @x@', { A: '1', B_2: "'2'" }, 't')).toBe("a=1 b='2' $@ @x@");
    expect(() => fillPlaceholders('@A@ @C@', { A: '1' }, 't.sh')).toThrow('t.sh: no value for the placeholder @C@');
    expect(() => fillPlaceholders('@A@', { A: '1', D: '2' }, 't.sh')).toThrow('t.sh: no placeholder for @D@');
  });
});
