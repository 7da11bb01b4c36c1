import { ROOT_USER } from '../core/sandbox.js';
import { killTreeCommand } from './kill.js';
import { delay, type SandboxContainer } from './sandbox-container.js';

/** How long to keep trying to start the process-tree killer when no process slot is free. */
const KILL_BUDGET_MS = 30_000;

/**
 * Runs the process-tree killer (kill.ts) as the command's own user. It is retried for a while: under a fork bomb the
 * runtime may find no free process slot to start it.
 */
export async function killTree(c: SandboxContainer, token: string, user: string): Promise<void> {
  const deadline = Date.now() + KILL_BUDGET_MS;
  for (let wait = 50; Date.now() < deadline; wait = Math.min(wait * 2, 500)) {
    try {
      if ((await c.helper(killTreeCommand(token), user)).exitCode === 0) return;
    } catch {
      if (!(await c.isRunning())) return; // the container is gone: so is the tree
    }
    await delay(wait);
  }
}

/** The kernel's OOM kills in one container, told to the command they ended. */
export class OomWatch {
  /** OOM kills already attributed to earlier commands (the counter is per container). */
  private seen = 0;

  constructor(private readonly c: SandboxContainer) {}

  /** True when the kernel's OOM killer fired in this container since the last check. */
  async newKills(): Promise<boolean> {
    let count: number | undefined;
    try {
      // cgroup v2 and v1 paths; both expose an `oom_kill N` line.
      const probe = await this.c.helper(['cat', '/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control'], ROOT_USER);
      const match = /^oom_kill (\d+)$/m.exec(probe.stdout);
      if (match) count = Number(match[1]);
    } catch {
      // Fall through to the engine's own flag.
    }
    if (count !== undefined) {
      const fresh = count > this.seen;
      this.seen = count;
      return fresh;
    }
    // No counter readable (e.g. no process slot for the probe): the engine's own flag, which on
    // some engines is only set once and so may also speak of an earlier command.
    try {
      return (await this.c.inspect()).State.OOMKilled === true;
    } catch {
      return false;
    }
  }
}
