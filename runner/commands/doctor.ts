import type { Command } from 'commander';
import { listSandboxContainers } from '../../docker/cleanup.js';
import { connectEngine, findEngine, noEngineError } from '../../docker/engine.js';
import { SANDBOX_IMAGES, imageStatus } from '../../docker/images.js';
import { formatError } from '../errors.js';

type Mark = 'ok' | 'warn' | 'fail';
const SYMBOL: Record<Mark, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

function line(mark: Mark, text: string, fix?: string): void {
  console.log(`${SYMBOL[mark]}  ${text}`);
  if (fix) console.log(`      fix: ${fix}`);
}

/** Checks everything a run needs from this machine; exit status 0 only when nothing fails. */
export async function doctor(): Promise<boolean> {
  let healthy = true;
  const { found, tried } = await findEngine();
  if (!found) {
    const err = noEngineError(tried);
    line('fail', `container engine: ${err.message}`, err.fix);
    if (tried[0]?.endpoint.kind !== 'DOCKER_HOST') {
      for (const t of tried) if (t.error !== 'no socket there') console.log(`      tried ${t.endpoint.label}: ${t.error}`);
    }
    return false;
  }
  line('ok', `container engine: ${found.product} ${found.version} (API ${found.apiVersion}) at ${found.endpoint.label}`);

  const { docker } = await connectEngine();
  const info = (await docker.info()) as {
    MemoryLimit?: boolean;
    SwapLimit?: boolean;
    PidsLimit?: boolean;
    CgroupVersion?: string;
    InitBinary?: string;
    OSType?: string;
  };
  const limits: string[] = [];
  if (info.MemoryLimit === false) limits.push('memory');
  if (info.PidsLimit === false) limits.push('pids');
  if (limits.length > 0) {
    healthy = false;
    line('fail', `the engine cannot enforce ${limits.join(' and ')} limits`, 'enable the memory and pids cgroup controllers (cgroup v2, or cgroup_enable=memory on the kernel command line)');
  } else {
    line('ok', `sandbox limits: memory, cpu and pids (cgroup v${info.CgroupVersion ?? '?'})${info.SwapLimit === false ? '; no swap accounting' : ''}`);
  }
  if (info.OSType && info.OSType !== 'linux') {
    healthy = false;
    line('fail', `the engine runs ${info.OSType} containers; sandboxes need Linux containers`, 'switch the engine to Linux containers');
  }

  for (const spec of SANDBOX_IMAGES) {
    const s = await imageStatus(spec.name, spec.recipe, docker);
    if (s.state === 'present') {
      line('ok', `image ${spec.name}: present${s.sizeBytes ? ` (${Math.round(s.sizeBytes / 1e6)} MB)` : ''}`);
    } else {
      healthy = false;
      const why = s.state === 'stale' ? `made by an older recipe (${s.recipe})` : 'missing';
      line('fail', `image ${spec.name}: ${why}`, 'impossiblebench images build');
    }
  }

  const swebench = (await docker.listImages({ filters: { reference: ['*/sweb.eval.*', 'sweb.eval.*'] } })).length;
  line('ok', `SWE-bench instance images: ${swebench} present (impossiblebench images pull --dataset D gets those a dataset needs)`);

  const left = await listSandboxContainers(undefined, docker);
  if (left.length > 0) {
    const runs = [...new Set(left.map((c) => c.runId))];
    line('warn', `${left.length} sandbox container(s) exist from ${runs.length} run(s) (fine if a run is in progress)`, 'impossiblebench cleanup');
  } else {
    line('ok', 'no leftover sandbox containers');
  }
  return healthy;
}

export function register(program: Command): void {
  program
    .command('doctor')
    .description('check the container engine, its limits and the sandbox images; print the fix for anything missing')
    .action(async () => {
      try {
        const healthy = await doctor();
        console.log(healthy ? 'all checks passed' : 'some checks failed; run the fix commands above');
        process.exitCode = healthy ? 0 : 1;
      } catch (err) {
        line('fail', formatError(err));
        process.exitCode = 1;
      }
    });
}
