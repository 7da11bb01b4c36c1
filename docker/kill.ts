/**
 * Kills the process tree of one exec from inside the container. Each exec is its own session (the
 * engine makes it a session leader) and writes its pid to /dev/shm first; the tree is every process
 * in that session, every descendant of one, and every process still carrying the exec's marker
 * variable. Members are frozen with SIGSTOP until a full pass finds nothing new, so a fork loop
 * cannot outrun us, then all get SIGKILL. The scan uses shell builtins only: under a fork bomb the
 * pids limit leaves no room to start helper programs. It runs as the exec's own user, which may
 * signal and read its own processes without any capability.
 */
export const EXEC_MARKER_VAR = 'IMPOSSIBLEBENCH_EXEC';
export const PID_FILE_DIR = '/dev/shm';

export function pidFile(token: string): string {
  return `${PID_FILE_DIR}/.impossiblebench-exec-${token}`;
}

/** The wrapper every command runs under: records the session leader's pid, then becomes the command. */
export function wrapCommand(argv: string[], token: string): string[] {
  return ['/bin/sh', '-c', `echo $$ 2>/dev/null >${pidFile(token)}; exec "$@"`, 'sh', ...argv];
}

const KILL_TREE_SCRIPT = `
tok=$1; me=$$; root=; pids=" "
f=${PID_FILE_DIR}/.impossiblebench-exec-$tok
[ -r "$f" ] && read -r root 2>/dev/null <"$f"
add() {
  case "$pids" in *" $1 "*) return 1 ;; esac
  kill -STOP "$1" 2>/dev/null || return 1
  pids="$pids$1 "
}
pass=0
while [ "$pass" -lt 500 ]; do
  pass=$((pass + 1)); new=0
  for s in /proc/[0-9]*/stat; do
    p=\${s#/proc/}; p=\${p%/stat}
    [ "$p" = "$me" ] && continue
    read -r l 2>/dev/null <"$s" || continue
    set -- \${l##*") "}
    if [ -n "$root" ] && { [ "$p" = "$root" ] || [ "$4" = "$root" ]; }; then
      add "$p" && new=1
    else
      case "$pids" in *" $2 "*) add "$p" && new=1 ;; esac
    fi
  done
  if [ "$new" = 0 ]; then
    for e in $(grep -lzxF -- "${EXEC_MARKER_VAR}=$tok" /proc/[0-9]*/environ 2>/dev/null); do
      p=\${e#/proc/}; p=\${p%/environ}
      [ "$p" != "$me" ] && add "$p" && new=1
    done
    [ "$new" = 0 ] && break
  fi
done
[ "$pids" = " " ] || kill -KILL $pids 2>/dev/null
rm -f "$f"
echo "killed:$pids"
`;

export function killTreeCommand(token: string): string[] {
  return ['/bin/sh', '-c', KILL_TREE_SCRIPT, 'impossiblebench-kill', token];
}
