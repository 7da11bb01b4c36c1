import type { Command } from 'commander';
import { z } from 'zod';
import { sandboxBackend } from '../../docker/backends.js';
import { UserError } from '../../core/errors.js';
import { dockerHosts } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import { SANDBOX_BACKEND_OPTIONS, switchField, textField } from '../settings/shared-options.js';
import type { DerivedImage, SandboxBackend, UnreachableEngine } from '../../docker/types.js';

/** The options of `cleanup`, in the order the help lists them. */
const CleanupOptionsSchema = z.object({
  run: textField('--run <id>', 'only the containers and history images of this run'),
  dryRun: switchField('--dry-run', 'list what would be removed, remove nothing'),
  ...SANDBOX_BACKEND_OPTIONS,
});

export function register(program: Command): void {
  const command = program
    .command('cleanup')
    .description('remove every sandbox container (found by its run label), including those left by a killed run, and the history images runs made');
  addCommandOptions(command, CleanupOptionsSchema).action(async () => {
    const options = commandOptions(command, CleanupOptionsSchema);
    if (options.run !== undefined && options.run.trim() === '') throw new UserError('--run needs a run id');
    const backend = sandboxBackend(options.sandbox, dockerHosts(options.dockerHost));
    const scope = options.run ? ` of run ${options.run}` : '';
    if (options.dryRun) {
      const { sandboxes: found, unreachable } = backend.placement
        ? await backend.placement.survey({ runId: options.run })
        : { sandboxes: await backend.list({ runId: options.run }), unreachable: [] };
      for (const c of found) console.log(`${c.id.slice(0, 12)}  ${c.engine ? `${c.engine}  ` : ''}run ${c.runId}  sample ${c.sampleId}  ${c.state}`);
      console.log(`${found.length} sandbox container${found.length === 1 ? '' : 's'}${scope} would be removed`);
      const images = await historyImagesOf(backend, options.run);
      for (const i of images) console.log(`${i.name}  run ${i.runId}`);
      if (images.length) console.log(`${images.length} history image${images.length === 1 ? '' : 's'}${scope} would be removed`);
      failIfUnreachable(unreachable, 'not listed');
      return;
    }
    const result = await backend.cleanup({ runId: options.run });
    const { removed, failed } = result;
    for (const f of failed) console.error(`could not remove ${f.sandbox.id.slice(0, 12)}: ${f.error}`);
    console.log(`removed ${removed.length} sandbox container${removed.length === 1 ? '' : 's'}${scope}`);
    // After the containers, which may still use them.
    const images = await historyImagesOf(backend, options.run);
    if (images.length) {
      await backend.images.removeDerived?.(images.map((i) => i.name));
      console.log(`removed ${images.length} history image${images.length === 1 ? '' : 's'}${scope}`);
    }
    failIfUnreachable(result.unreachable ?? [], 'left');
    if (failed.length > 0)
      throw new UserError(
        `${failed.length} sandbox container(s) could not be removed`,
        'run `impossiblebench cleanup` again, or `docker rm -f` them',
      );
  });
}

/** Names each engine of a pool that did not answer, whose containers were neither listed nor removed, and fails. */
function failIfUnreachable(unreachable: UnreachableEngine[], what: 'not listed' | 'left'): void {
  for (const u of unreachable) console.error(`engine ${u.engine} did not answer, so its containers are ${what}: ${u.error}`);
  if (unreachable.length > 0)
    throw new UserError(
      `${unreachable.length} engine(s) did not answer`,
      'start them, then run `impossiblebench cleanup` again with the same --docker-host flags',
    );
}

/** The images runs derived from their sandboxes (history images), of one run or all. */
async function historyImagesOf(backend: SandboxBackend, runId: string | undefined): Promise<DerivedImage[]> {
  return ((await backend.images.listDerived?.()) ?? []).filter((i) => runId === undefined || i.runId === runId);
}
