import { describe, expect, it, onTestFinished } from 'vitest';
import { sandboxBackend } from './backends.js';
import { getDocker } from './engine.js';
import { PYTHON_IMAGE } from './image-names.js';
import { DERIVED_LABEL, RUN_LABEL } from './labels.js';
import { testRunId } from './testing.js';

const backend = sandboxBackend();

describe('images derived from a sandbox', () => {
  it("keep the settings of the sandbox's image, not the sandbox's own, and are found and removed by their run", async () => {
    const runId = testRunId('derived');
    const name = `impossiblebench/history:${runId}`;
    const sandbox = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'derive' });
    onTestFinished(() => backend.images.removeDerived!([name]));
    try {
      await sandbox.exec(['sh', '-c', 'echo kept > /kept']);
      await backend.images.derive!(sandbox, name, { 'impossiblebench.test': 'yes' });
    } finally {
      await sandbox.destroy();
    }
    const docker = await getDocker();
    const [source, derived] = await Promise.all([docker.getImage(PYTHON_IMAGE).inspect(), docker.getImage(name).inspect()]);
    for (const key of ['Entrypoint', 'Cmd', 'Env', 'WorkingDir'] as const) expect(derived.Config[key] ?? [], key).toEqual(source.Config[key] ?? []);
    expect(derived.Config.Labels).toMatchObject({ [RUN_LABEL]: runId, [DERIVED_LABEL]: '1', 'impossiblebench.test': 'yes' });
    // A plain `docker run` of it runs as the source image would, and sees the sandbox's files.
    const again = await backend.create({ image: name, runId, sampleId: 'from-derived' });
    try {
      expect((await again.exec(['cat', '/kept'])).stdout).toBe('kept\n');
    } finally {
      await again.destroy();
    }
    expect((await backend.images.listDerived!()).filter((i) => i.runId === runId)).toEqual([{ name, runId }]);
    await backend.images.removeDerived!([name]);
    await backend.images.removeDerived!([name]);
    expect((await backend.images.listDerived!()).filter((i) => i.runId === runId)).toEqual([]);
  });
});
