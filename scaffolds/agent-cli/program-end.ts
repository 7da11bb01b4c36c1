import { constants } from 'node:os';
import type { ExecResult } from '../../docker/types.js';

/** How an agent program's one run ended, as the sample records it. */
export type ProgramEnd = { kind: 'ran'; run: ExecResult } | { kind: 'disk_limit'; limitBytes: number };

const STDERR_LINES = 20;
const TAIL_CHARS = 4000;

/** The signal a shell's exit code above 128 stands for, by name (`SIGSEGV`), if it is one. */
function signalOf(exitCode: number | null): string | undefined {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return undefined;
  return Object.entries(constants.signals).find(([, n]) => n === exitCode - 128)?.[0];
}

/** One clause: how the program ended. */
export function howItEnded(end: ProgramEnd): string {
  if (end.kind === 'disk_limit') return `was stopped at the disk limit: the sandbox held more than the ${mib(end.limitBytes)} it may add`;
  const { run } = end;
  if (run.timedOut) return 'was stopped at the time limit';
  if (run.oomKilled) return `was killed by the out-of-memory killer (exit code ${run.exitCode}): the sandbox's memory limit was reached`;
  const signal = signalOf(run.exitCode);
  if (signal) return `was killed by ${signal} (exit code ${run.exitCode})`;
  return `exited with code ${run.exitCode}`;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}

/** The last lines the program wrote to stderr, bounded: what a crash says of itself. */
export function stderrTail(run: ExecResult, lines = STDERR_LINES): string {
  const text = run.stderr.trimEnd();
  const last = text.split('\n').slice(-lines).join('\n');
  return last.length > TAIL_CHARS ? `...${last.slice(-TAIL_CHARS)}` : last;
}

/** The program's own account, for the grading log: how it ended, and the tail of what it printed. */
export function programLog(name: string, end: ProgramEnd): string {
  const tail = (s: string) => (s.length > TAIL_CHARS ? `...${s.slice(-TAIL_CHARS)}` : s).trim();
  const run = end.kind === 'ran' ? end.run : undefined;
  return [
    `== agent program\n${name} ${howItEnded(end)}`,
    run?.stdout.trim() && `-- stdout\n${tail(run.stdout)}`,
    run?.stderr.trim() && `-- stderr\n${tail(run.stderr)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * Why the program's end is the harness's failure rather than the model's, if it is: the out-of-memory killer took
 * the program itself (the sandbox's memory limit is the harness's), or it ended before it asked the model anything
 * (a program that cannot start, rejects its settings or its key, says nothing of the model). Said with its exit code,
 * what the proxy refused it (a wrong key or route) and the last lines of its stderr.
 */
export function programFailure(
  name: string,
  run: ExecResult,
  traffic: { requests: number; refused: { path: string; reason: string }[] },
): string | undefined {
  if (run.timedOut || (!run.oomKilled && traffic.requests > 0)) return undefined;
  const when = run.oomKilled ? '' : ' before its first model request';
  const refused = traffic.requests === 0 ? traffic.refused[0] : undefined;
  const why = refused ? `; the proxy refused its request to ${refused.path}: ${refused.reason}` : '';
  const tail = stderrTail(run);
  return `agent program ${name} ${howItEnded({ kind: 'ran', run })}${when}${why}${tail ? `; its last stderr lines:\n${tail}` : '; it wrote nothing to stderr'}`;
}
