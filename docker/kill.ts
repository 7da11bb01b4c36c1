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
const KILL_FUNCTION = `
ib_kill() {
  ib_tok=$1; ib_root=$2; ib_me=$$; ib_pids=" "; ib_pass=0
  while [ "$ib_pass" -lt 500 ]; do
    ib_pass=$((ib_pass + 1)); ib_new=0
    for ib_s in /proc/[0-9]*/stat; do
      ib_p=\${ib_s#/proc/}; ib_p=\${ib_p%/stat}
      [ "$ib_p" = "$ib_me" ] && continue
      case "$ib_pids" in *" $ib_p "*) continue ;; esac
      read -r ib_l 2>/dev/null <"$ib_s" || continue
      set -- \${ib_l##*") "}
      ib_hit=0
      if [ -n "$ib_root" ] && { [ "$ib_p" = "$ib_root" ] || [ "$4" = "$ib_root" ]; }; then
        ib_hit=1
      else
        case "$ib_pids" in *" $2 "*) ib_hit=1 ;; esac
      fi
      if [ "$ib_hit" = 0 ]; then
        # read reports failure at the end of a file without a newline (always, for environ) but
        # still sets the variable: only its content counts.
        ib_e=
        read -r ib_e 2>/dev/null <"/proc/$ib_p/environ"
        case "$ib_e" in
          *"${EXEC_MARKER_VAR}=$ib_tok"*)
            ib_hit=1
            # The wrapper itself: a session leader carrying the marker. Its session is the tree.
            [ -z "$ib_root" ] && [ "$4" = "$ib_p" ] && ib_root=$ib_p ;;
        esac
      fi
      if [ "$ib_hit" = 1 ] && kill -STOP "$ib_p" 2>/dev/null; then
        ib_pids="$ib_pids$ib_p "; ib_new=1
      fi
    done
    [ "$ib_new" = 0 ] && break
  done
  [ "$ib_pids" = " " ] || kill -KILL $ib_pids 2>/dev/null
  return 0
}
`;

/**
 * The wrapper every command runs under: runs the command as its child and, unless background
 * processes are to be kept, reaps whatever the command left running before passing on its exit
 * status. Leftovers could otherwise keep writing to files after the command "finished", e.g.
 * while the tests are graded.
 */
export function wrapCommand(argv: string[], token: string, keepBackground = false): string[] {
  if (keepBackground) return ['/bin/sh', '-c', '"$@"', 'sh', ...argv];
  const script = `${KILL_FUNCTION}
"$@"
ib_rc=$?
ib_kill ${token} $$ >/dev/null 2>&1
exit $ib_rc`;
  return ['/bin/sh', '-c', script, 'sh', ...argv];
}

/** The command that kills a still-running command's tree (on timeout or abort). */
export function killTreeCommand(token: string): string[] {
  return ['/bin/sh', '-c', `${KILL_FUNCTION}\nib_kill "$1"`, 'impossiblebench-kill', token];
}
