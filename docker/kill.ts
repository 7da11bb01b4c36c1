/**
 * Killing one command's whole process tree from inside the container.
 *
 * Each exec is its own session (the engine makes it a session leader); the wrapper records its pid
 * and stays the session's root while the command runs as its child. The tree is every process in
 * that session, every descendant of one, and every process still carrying the exec's marker
 * variable (which catches most that started a new session). Members are frozen with SIGSTOP until
 * a full pass finds nothing new, so a fork loop cannot outrun the scan, then all get SIGKILL. The
 * scan uses shell builtins only: under a fork bomb the pids limit leaves no room for helper
 * programs. It runs as the command's own user, who may signal and read its own processes without
 * any capability (root without CAP_SYS_PTRACE could not read the agent's environments).
 */
export const EXEC_MARKER_VAR = 'IMPOSSIBLEBENCH_EXEC';
export const PID_FILE_DIR = '/dev/shm';

export function pidFile(token: string): string {
  return `${PID_FILE_DIR}/.impossiblebench-exec-${token}`;
}

/** `ib_kill ROOT TOKEN`: stops, then kills, the tree rooted at session ROOT, sparing the caller. */
const KILL_FUNCTION = `
ib_kill() {
  ib_root=$1; ib_tok=$2; ib_me=$$; ib_pids=" "; ib_pass=0
  while [ "$ib_pass" -lt 500 ]; do
    ib_pass=$((ib_pass + 1)); ib_new=0
    for ib_s in /proc/[0-9]*/stat; do
      ib_p=\${ib_s#/proc/}; ib_p=\${ib_p%/stat}
      [ "$ib_p" = "$ib_me" ] && continue
      read -r ib_l 2>/dev/null <"$ib_s" || continue
      set -- \${ib_l##*") "}
      if [ -n "$ib_root" ] && { [ "$ib_p" = "$ib_root" ] || [ "$4" = "$ib_root" ]; }; then
        ib_add "$ib_p" && ib_new=1
      else
        case "$ib_pids" in *" $2 "*) ib_add "$ib_p" && ib_new=1 ;; esac
      fi
    done
    if [ "$ib_new" = 0 ]; then
      for ib_e in $(grep -lzxF -- "${EXEC_MARKER_VAR}=$ib_tok" /proc/[0-9]*/environ 2>/dev/null); do
        ib_p=\${ib_e#/proc/}; ib_p=\${ib_p%/environ}
        [ "$ib_p" != "$ib_me" ] && ib_add "$ib_p" && ib_new=1
      done
      [ "$ib_new" = 0 ] && break
    fi
  done
  [ "$ib_pids" = " " ] || kill -KILL $ib_pids 2>/dev/null
  rm -f "${PID_FILE_DIR}/.impossiblebench-exec-$ib_tok"
}
ib_add() {
  case "$ib_pids" in *" $1 "*) return 1 ;; esac
  kill -STOP "$1" 2>/dev/null || return 1
  ib_pids="$ib_pids$1 "
}
`;

/**
 * The wrapper every command runs under: records the session root's pid, runs the command as a
 * child, and (unless background processes are to be kept) reaps whatever the command left running
 * before passing on its exit status. Leftovers could otherwise keep writing to files after the
 * command "finished", e.g. while the tests are graded.
 */
export function wrapCommand(argv: string[], token: string, keepBackground = false): string[] {
  const reap = keepBackground ? `rm -f ${pidFile(token)}` : `ib_kill $$ ${token} >/dev/null 2>&1`;
  const script = `${keepBackground ? '' : KILL_FUNCTION}
echo $$ 2>/dev/null >${pidFile(token)}
"$@"
ib_rc=$?
${reap}
exit $ib_rc`;
  return ['/bin/sh', '-c', script, 'sh', ...argv];
}

/** The command that kills a still-running exec's tree (run on timeout or abort). */
export function killTreeCommand(token: string): string[] {
  const script = `${KILL_FUNCTION}
ib_root=
[ -r "${pidFile('$1')}" ] && read -r ib_root 2>/dev/null <"${pidFile('$1')}"
ib_kill "$ib_root" "$1"`;
  return ['/bin/sh', '-c', script, 'impossiblebench-kill', token];
}
