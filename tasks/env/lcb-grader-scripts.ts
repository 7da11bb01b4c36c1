import { readShipped } from '../../core/shipped.js';

/**
 * The two Python programs that grade a LiveCodeBench-style submission inside the sandbox.
 *
 * The submission runs in the same process as the tests (as in the published harness: `check` calls it), so nothing
 * in that process can be trusted to say "check returned". What the design relies on:
 * - The supervisor (root) keeps the per-run token; the graded program never has it. It starts the program as the
 *   unprivileged user and hands it, on its stdin, the sources to run and a per-run nonce; no file, argument or
 *   variable holds either.
 * - Before any graded code runs, the program installs an audit hook (which cannot be removed) holding the nonce and a
 *   private report pipe in its closure, and drops every other reference to them. Only the hook writes to the pipe.
 * - The program says "check returned" (or "failed at line N") by raising an audit event from its own `main` frame,
 *   after check() came back; the hook writes the report only when that event comes from that frame, once.
 * - The hook also reports, the moment they happen, signs of reaching into the harness: opening /proc/self or the
 *   harness's files, listing file descriptors, importing ctypes, walking the garbage collector, tracing, a second
 *   audit hook, a frame of the harness itself. Lines on the pipe that the hook did not write, a replaced or closed
 *   pipe, a second or a contradicting report: all are tampering, which the supervisor names in its verdict.
 * - Every function the harness calls after graded code ran was captured before it ran (`exit`, `exec`, `os.write`):
 *   patching `sys.exit` or `builtins.exec` changes nothing.
 */

/**
 * Runs as root, written to the grading folder as supervisor.py: `python3 -I -S -B supervisor.py SPEC_JSON`, token on stdin; the spec carries the shell functions it
 * ends a user's processes and IPC objects with (`userCleanupShell`, docker/user-cleanup.sh).
 */
export const SUPERVISOR_PY = readShipped(import.meta.url, 'lcb-supervisor.py');

/**
 * Runs as the agent: reads its spec from stdin, installs the reporting audit hook, executes the sources in one
 * module namespace, then `check(entry_point)`.
 */
export const CHILD_PY = readShipped(import.meta.url, 'lcb-child.py');
