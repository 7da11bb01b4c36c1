import type { Command } from 'commander';
import { Steps } from '../../docker/build/progress.js';
import { ensurePythonImage } from '../../docker/build/python.js';
import { SANDBOX_IMAGES, imageStatus } from '../../docker/images.js';
import { UserError } from '../errors.js';

interface BuildFlags {
  offline?: boolean;
  rebuild?: boolean;
  mirror?: string;
  quiet?: boolean;
}

export function register(program: Command): void {
  const images = program.command('images').description('provision and list the sandbox images');

  images
    .command('build')
    .description('make the sandbox image: use it if present, else pull from a registry, else build it from Debian packages')
    .option('--offline', 'never contact a registry: use the image if present, else build it from Debian packages (needs root)')
    .option('--rebuild', 'build a new image even if a working one is present')
    .option('--mirror <url>', 'Debian archive for the offline build (default: the one apt on this machine uses)')
    .option('-q, --quiet', 'print only the result')
    .action(async (flags: BuildFlags) => {
      if (flags.mirror !== undefined && !/^https?:\/\/\S+$/.test(flags.mirror)) {
        throw new UserError(`--mirror must be an http(s) URL, got ${JSON.stringify(flags.mirror)}`);
      }
      const controller = new AbortController();
      const onInterrupt = () => controller.abort(new UserError('images build interrupted; no partial image was kept'));
      process.once('SIGINT', onInterrupt);
      process.once('SIGTERM', onInterrupt);
      const steps = new Steps(process.stderr, flags.quiet);
      try {
        const outcome = await ensurePythonImage({ offline: flags.offline, rebuild: flags.rebuild, mirror: flags.mirror, signal: controller.signal, steps });
        const verb = { present: 'present', pulled: 'pulled and extended', built: 'built from Debian packages' }[outcome.how];
        console.log(`${outcome.image}: ${verb}, python ${outcome.check.python}, pytest ${outcome.check.pytest}, git ${outcome.check.git} (${steps.elapsed()})`);
      } catch (err) {
        if (controller.signal.aborted) {
          process.exitCode = 130;
          throw controller.signal.reason;
        }
        throw err;
      } finally {
        process.off('SIGINT', onInterrupt);
        process.off('SIGTERM', onInterrupt);
      }
    });

  images
    .command('list')
    .description('show which sandbox images are present')
    .action(async () => {
      let missing = 0;
      for (const spec of SANDBOX_IMAGES) {
        const s = await imageStatus(spec.name, spec.recipe);
        if (s.state !== 'present') missing++;
        const size = s.sizeBytes ? `, ${Math.round(s.sizeBytes / 1e6)} MB` : '';
        const recipe = s.recipe ? `, recipe ${s.recipe}` : s.state === 'present' ? ', made outside this tool' : '';
        console.log(`${spec.name}  ${s.state}${recipe}${size}  (${spec.purpose})`);
      }
      if (missing > 0) console.log('fix: impossiblebench images build');
    });
}
