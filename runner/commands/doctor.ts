import type { Command } from 'commander';
import { z } from 'zod';
import { sandboxBackend } from '../../docker/backends.js';
import { SANDBOX_IMAGES } from '../../docker/image-names.js';
import type { BackendCheck, SandboxBackend } from '../../docker/types.js';
import { formatError } from '../../core/errors.js';
import { dockerHosts } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import { SANDBOX_BACKEND_OPTIONS } from '../settings/shared-options.js';
import { findAgentBinary, type LookupContext } from '../../scaffolds/agent-cli/binaries.js';
import { BUILTIN_AGENT_CLIS } from '../../scaffolds/agent-cli/spec.js';

type Mark = BackendCheck['mark'];
const SYMBOL: Record<Mark, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

function line(mark: Mark, text: string, fix?: string): void {
  console.log(`${SYMBOL[mark]}  ${text}`);
  if (fix) console.log(`      fix: ${fix}`);
}

/** Checks everything a run needs from this machine; exit status 0 only when nothing fails. */
export async function doctor(backend: SandboxBackend): Promise<boolean> {
  let healthy = true;
  const checks = await backend.probe();
  for (const c of checks) {
    line(c.mark, c.text, c.fix);
    for (const d of c.details ?? []) console.log(`      ${d}`);
  }
  if (checks.some((c) => c.mark === 'fail')) {
    healthy = false;
    // Nothing else can be asked of a backend that does not answer.
    if (checks[0]?.mark === 'fail') return false;
  }

  for (const spec of SANDBOX_IMAGES) {
    const s = await backend.images.status(spec.name, spec.recipe);
    // A pool: the engines that lack it, so the fix goes where it is needed.
    const lacking = s.state === 'stale' ? [] : ((await backend.placement?.missingWhere([spec.name])) ?? []).map((w) => w.where);
    const build = `impossiblebench images build${lacking.length ? ', with the same --docker-host flags' : ''}`;
    if (s.state === 'present') {
      const size = s.sizeBytes ? ` (${Math.round(s.sizeBytes / 1e6)} MB)` : '';
      if (lacking.length === 0) line('ok', `image ${spec.name}: present${size}`);
      // Its samples still run, on the engines that hold it, with fewer at once.
      else line('warn', `image ${spec.name}: present${size}, but not on ${lacking.join(', ')}: its samples run on the other engines only`, build);
    } else {
      healthy = false;
      line('fail', `image ${spec.name}: ${s.state === 'stale' ? `made by an older recipe (${s.recipe})` : 'missing'}`, build);
    }
  }

  agentPrograms();

  const swebench = (await backend.images.list(['*/sweb.eval.*', 'sweb.eval.*'])).length;
  line('ok', `SWE-bench instance images: ${swebench} present (impossiblebench images pull --dataset D gets those a dataset needs)`);

  const left = await backend.list();
  if (left.length > 0) {
    const runs = [...new Set(left.map((c) => c.runId))];
    line('warn', `${left.length} sandbox container(s) exist from ${runs.length} run(s) (fine if a run is in progress)`, 'impossiblebench cleanup');
  } else {
    line('ok', 'no leftover sandbox containers');
  }
  return healthy;
}

/**
 * Whether each built-in agent program (the codex and claude-code scaffolds) is installed, and where; a missing one is
 * a warning with its install command, since only runs of its scaffold need it.
 */
export function agentProgramChecks(ctx: LookupContext = {}): { mark: Mark; text: string; fix?: string }[] {
  return Object.values(BUILTIN_AGENT_CLIS).map(({ spec }) => {
    const found = findAgentBinary(spec, ctx);
    return found.found
      ? { mark: 'ok' as const, text: `agent program for --scaffold ${spec.name}: ${found.path} (found by ${found.via})` }
      : { mark: 'warn' as const, text: `agent program for --scaffold ${spec.name}: missing (${found.why})`, fix: found.install };
  });
}

function agentPrograms(): void {
  for (const c of agentProgramChecks()) line(c.mark, c.text, c.fix);
}

export function register(program: Command): void {
  const command = program
    .command('doctor')
    .description(
      'check the sandbox backend (the container engine), its limits, the sandbox images and the agent programs; print the fix for anything missing',
    );
  const schema = z.object(SANDBOX_BACKEND_OPTIONS);
  addCommandOptions(command, schema).action(async () => {
    const flags = commandOptions(command, schema);
    try {
      const healthy = await doctor(sandboxBackend(flags.sandbox, dockerHosts(flags.dockerHost)));
      console.log(healthy ? 'all checks passed' : 'some checks failed; run the fix commands above');
      process.exitCode = healthy ? 0 : 1;
    } catch (err) {
      line('fail', formatError(err));
      process.exitCode = 1;
    }
  });
}
