import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Steps } from './build/progress.js';
import { ensurePythonImage } from './build/python.js';
import { verifyPythonImage } from './build/verify.js';
import { getDocker } from './engine.js';
import { SandboxError } from './errors.js';
import { PYTHON_IMAGE, PYTHON_RECIPE, imageStatus } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';

const runId = testRunId('images');
const made: string[] = [];

/** An image derived from the sandbox image by running `script` in it and committing. */
async function deriveImage(script: string, labels: Record<string, string> = {}): Promise<string> {
  const tag = `t${randomBytes(4).toString('hex')}`;
  const repo = 'impossiblebench/test-derived';
  const sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'derive' });
  try {
    expect((await sandbox.exec(['sh', '-c', script])).exitCode).toBe(0);
    const container = (await getDocker()).getContainer(sandbox.id);
    await container.commit({ repo, tag, changes: Object.entries(labels).map(([k, v]) => `LABEL ${k}=${v}`) });
  } finally {
    await sandbox.destroy();
  }
  made.push(`${repo}:${tag}`);
  return `${repo}:${tag}`;
}

afterAll(async () => {
  const docker = await getDocker();
  for (const image of made)
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
});

const quiet = () => new Steps(process.stderr, true);

describe('sandbox images', () => {
  it('tells present, missing and stale images apart by the recipe label', async () => {
    expect((await imageStatus(PYTHON_IMAGE, PYTHON_RECIPE)).state).toBe('present');
    expect((await imageStatus('impossiblebench/never-built:0', PYTHON_RECIPE)).state).toBe('missing');
    const old = await deriveImage('true', { 'impossiblebench.recipe': 'python3.11-recipe-of-long-ago' });
    expect(await imageStatus(old, PYTHON_RECIPE)).toMatchObject({ state: 'stale', recipe: 'python3.11-recipe-of-long-ago' });
  });

  it('verifies a working image by running a sandbox from it', async () => {
    const check = await verifyPythonImage(PYTHON_IMAGE);
    expect(check.python).toMatch(/^3\.11\./);
    expect(check.pytest).toMatch(/^7\.2\./);
    expect(check.git).toMatch(/^\d+\.\d+/);
  });

  it('rejects an image that lacks what a sandbox needs', async () => {
    const broken = await deriveImage('rm -rf /usr/lib/python3/dist-packages/pytest /usr/lib/python3/dist-packages/_pytest');
    await expect(verifyPythonImage(broken)).rejects.toThrow(SandboxError);
    await expect(verifyPythonImage(broken)).rejects.toThrow(/not a usable Python sandbox: .*pytest/);
  });

  it('keeps a present, working image as it is (idempotent)', async () => {
    const before = await imageStatus(PYTHON_IMAGE, PYTHON_RECIPE);
    const outcome = await ensurePythonImage({ offline: true, steps: quiet() });
    expect(outcome.how).toBe('present');
    expect((await imageStatus(PYTHON_IMAGE, PYTHON_RECIPE)).id).toBe(before.id);
  });

  it('leaves the current image, no temporary tag and no root file system behind when a build fails', async () => {
    const before = await imageStatus(PYTHON_IMAGE, PYTHON_RECIPE);
    const rootfsBefore = readdirSync(tmpdir()).filter((n) => n.startsWith('impossiblebench-rootfs-')).length;
    await expect(ensurePythonImage({ offline: true, rebuild: true, mirror: 'http://127.0.0.1:9/debian', steps: quiet() })).rejects.toThrow();
    expect((await imageStatus(PYTHON_IMAGE, PYTHON_RECIPE)).id).toBe(before.id);
    const tags = (await (await getDocker()).listImages()).flatMap((i) => i.RepoTags ?? []);
    expect(tags.filter((t) => t.startsWith('impossiblebench/python:build-'))).toEqual([]);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('impossiblebench-rootfs-')).length).toBe(rootfsBefore);
  });
});
