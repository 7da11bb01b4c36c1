import { sandboxBackend } from '../../docker/backends.js';
import { sharedDataFile } from '../../core/testing/shared-data.js';
import { swebenchImage } from '../../tasks/images.js';

/**
 * Whether the SWE-bench rows and the replicas of these instances' images (built by `scripts/swebench-replicas.sh`)
 * are at hand for a test file. Without them its tests are skipped with the reason said; under CI, which builds them,
 * their absence is an error.
 */
export async function replicasReady(ids: readonly string[]): Promise<boolean> {
  const verified = sharedDataFile('swebench/verified.jsonl');
  const missing = (await Promise.all(ids.map((id) => sandboxBackend().images.status(swebenchImage(id)))))
    .filter((s) => s.state !== 'present')
    .map((s) => s.name);
  if (missing.length > 0) {
    const why = `the SWE-bench replica${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (build ${missing.length === 1 ? 'it' : 'them'}: bash scripts/swebench-replicas.sh)`;
    if (process.env.CI) throw new Error(why);
    console.warn(`skipping: ${why}`);
  }
  return verified !== undefined && missing.length === 0;
}
