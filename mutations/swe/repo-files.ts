import { execa } from 'execa';
import { isPythonTestFile, parsePatch } from './patch.js';

/**
 * The Python test files a test patch changes, read at `commit` from a local git repository (a work
 * clone or a bare one): what the engine needs to mutate against whole files. Files absent at that
 * commit (the patch creates them) are left out.
 */
export async function baseTestFiles(repo: string, commit: string, testPatch: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of parsePatch(testPatch).files) {
    if (file.oldPath === '/dev/null' || !isPythonTestFile(file.newPath)) continue;
    const shown = await execa('git', ['-C', repo, 'show', `${commit}:${file.oldPath}`], { reject: false, stripFinalNewline: false });
    if (shown.exitCode === 0) out.set(file.oldPath, shown.stdout);
  }
  return out;
}
