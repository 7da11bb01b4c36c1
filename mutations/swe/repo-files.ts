import { execa } from 'execa';
import { ROOT_USER } from '../../core/sandbox.js';
import type { SandboxBackend } from '../../docker/types.js';
import { TESTBED } from '../../tasks/env/swe.js';
import { taskImage } from '../../tasks/images.js';
import type { SweTask } from '../../tasks/task.js';
import { inSandbox } from '../validate/pool.js';
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

/**
 * The same files read in the task's own image, which holds the repository at its base commit
 * (where validation runs): for rows whose repository is nowhere else at hand.
 */
export async function imageTestFiles(task: SweTask, options: { runId: string; backend?: SandboxBackend }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const files = parsePatch(task.originalTestPatch).files.filter((f) => f.oldPath !== '/dev/null' && isPythonTestFile(f.newPath));
  if (files.length === 0) return out;
  const sandbox = {
    image: taskImage(task),
    runId: options.runId,
    sampleId: `${task.id}-test-files`,
    ...(options.backend ? { backend: options.backend } : {}),
  };
  return inSandbox(sandbox, async (box) => {
    for (const file of files) {
      const shown = await box.exec(['git', '-C', TESTBED, 'show', `${task.baseCommit}:${file.oldPath}`], { user: ROOT_USER });
      // A file cut short by the output limit would not be the file: leave it out.
      if (shown.exitCode === 0 && shown.stdoutCutBytes === 0) out.set(file.oldPath, shown.stdout);
    }
    return out;
  });
}
