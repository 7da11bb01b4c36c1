import { fillPlaceholders, readShipped } from '../core/shipped.js';

/**
 * Killing one command's whole process tree from inside the container, with shell builtins only.
 *
 * Every command runs under a wrapper that the engine starts as a session leader and that carries a
 * random marker variable, placed first among the command's variables. The tree is every process
 * whose environment holds the marker (inherited by all descendants unless they clear it), every
 * process in the wrapper's session, and every descendant of a member. Members are frozen with
 * SIGSTOP until a full pass finds nothing new, so a fork loop cannot outrun the scan, then all get
 * SIGKILL.
 *
 * Nothing here may start a program: under a fork bomb the pids limit leaves no room, and dash
 * treats a failed fork as fatal, which would leave the frozen processes stopped forever. dash's
 * `read` drops the NUL separators of /proc/PID/environ, so a `case` match finds the marker. The
 * killer runs as the command's own user, who may read and signal its own processes without any
 * capability (root without CAP_SYS_PTRACE could not read the agent's environments).
 */
export const EXEC_MARKER_VAR = 'IMPOSSIBLEBENCH_EXEC';

/** `ib_kill TOKEN [ROOT]`: stops, then kills, the marked tree (and ROOT's session), sparing the caller. */
const KILL_FUNCTION = fillPlaceholders(readShipped(import.meta.url, 'kill.sh'), { EXEC_MARKER_VAR }, 'kill.sh');

/**
 * The wrapper every command runs under: runs the command as its child and, unless background
 * processes are to be kept, reaps whatever the command left running before passing on its exit
 * status. Leftovers could otherwise keep writing to files after the command "finished", e.g.
 * while the tests are graded.
 */
export function wrapCommand(argv: string[], token: string, keepBackground = false): string[] {
  if (keepBackground) return ['/bin/sh', '-c', '"$@"', 'sh', ...argv];
  // The token is the wrapper's first argument, shifted away before the command runs.
  const script = `${KILL_FUNCTION}\nib_token=$1; shift\n"$@"\nib_rc=$?\nib_kill "$ib_token" $$ >/dev/null 2>&1\nexit $ib_rc`;
  return ['/bin/sh', '-c', script, 'sh', token, ...argv];
}

/** The command that kills a still-running command's tree (on timeout or abort). */
export function killTreeCommand(token: string): string[] {
  return ['/bin/sh', '-c', `${KILL_FUNCTION}\nib_kill "$1"`, 'impossiblebench-kill', token];
}
