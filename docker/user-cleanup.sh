# Shell functions that end everything one user left in a sandbox, for the moments before and after grading: no
# process of the agent may watch a graded run, and nothing of a graded run may survive into the agent's next turn.
# Plain POSIX shell with builtins and util-linux, as every sandbox image has them. Sourced into other scripts, some
# under `set -e`: what may fail because a process or object went away meanwhile ends in `|| true`.

# `ib_entry FILE NAME`: NAME's entry in FILE (/etc/passwd or /etc/group), split into $ib_f1 to $ib_f4 (name,
# password, id, group id); fails when there is none. The shell's own `read`, no process: setup and every grading ask.
ib_entry() { ib_entry_with 1 "$@"; }
# `ib_entry_with 1|3 FILE VALUE`: the first entry whose name (1) or id (3) is VALUE, as ib_entry.
ib_entry_with() {
  while IFS=: read -r ib_f1 ib_f2 ib_f3 ib_f4 ib_frest || [ -n "$ib_f1" ]; do
    case $1 in 1) ib_key=$ib_f1 ;; *) ib_key=$ib_f3 ;; esac
    [ "$ib_key" = "$3" ] && return 0
  done <"$2"
  return 1
}

# `ib_stop_user NAME`: freezes every process of the user (again and again until a pass finds no new one, so a fork
# loop cannot outrun it), then kills them all. Processes are found by owner, so a `setsid env -i` escapee is found too.
ib_stop_user() {
  ib_uid=
  ib_entry /etc/passwd "$1" || return 0
  ib_uid=$ib_f3
  ib_seen=" "; ib_pass=0
  while [ "$ib_pass" -lt 50 ]; do
    ib_pass=$((ib_pass + 1)); ib_new=0
    for ib_status in /proc/[0-9]*/status; do
      ib_pid=${ib_status#/proc/}; ib_pid=${ib_pid%/status}
      [ "$ib_pid" = "$$" ] && continue
      case "$ib_seen" in *" $ib_pid "*) continue ;; esac
      ib_owner=
      # Errors go first: a process that ended since the listing takes its status file with it.
      while read -r ib_key ib_value ib_rest; do [ "$ib_key" = Uid: ] && { ib_owner=$ib_value; break; }; done 2>/dev/null <"$ib_status" || true
      if [ "$ib_owner" = "$ib_uid" ] && kill -STOP "$ib_pid" 2>/dev/null; then ib_seen="$ib_seen$ib_pid "; ib_new=1; fi
    done
    [ "$ib_new" = 0 ] && break
  done
  # A process stopped while it was exiting may be gone by now.
  [ "$ib_seen" = " " ] || kill -KILL $ib_seen 2>/dev/null || true
  ib_await_dead
  return 0
}

# `ib_await_dead`: waits (at most about two seconds) until every process in $ib_seen has ended. A killed process
# runs no more of its own code, but on a busy machine it may not have exited yet when the kill returns; a zombie,
# waiting for init to reap it, has ended.
ib_await_dead() {
  ib_wait=0
  while [ "$ib_wait" -lt 200 ]; do
    ib_alive=
    for ib_pid in $ib_seen; do
      ib_state=
      while read -r ib_key ib_value ib_rest; do [ "$ib_key" = State: ] && { ib_state=$ib_value; break; }; done 2>/dev/null <"/proc/$ib_pid/status" || true
      case $ib_state in '' | Z | X) ;; *) ib_alive=$ib_pid; break ;; esac
    done
    [ -z "$ib_alive" ] && return 0
    ib_wait=$((ib_wait + 1)); sleep 0.01 2>/dev/null || true
  done
  return 0
}

# `ib_ipc_clean UID`: removes the System V shared memory, semaphores and message queues, and the POSIX message
# queues, of one user: a way to carry hidden tests across a grading that files and processes are not. Removal runs as
# the owner (root in the sandbox lacks CAP_SYS_ADMIN, which removing another user's objects takes).
ib_ipc_clean() {
  ib_u=$1
  # Read with the shell's own `read`: a grading runs this twice, and there is almost never anything to remove.
  for ib_kind in shm:m:8 sem:s:5 msg:q:8; do
    ib_file=/proc/sysvipc/${ib_kind%%:*}; ib_rest=${ib_kind#*:}; ib_flag=${ib_rest%%:*}; ib_col=${ib_rest#*:}
    [ -r "$ib_file" ] || continue
    { read -r ib_row; while read -r ib_row; do
      set -f; set -- $ib_row; set +f
      eval "ib_owner=\${$ib_col}"
      [ "$ib_owner" = "$ib_u" ] && { setpriv --reuid="$ib_u" ipcrm -"$ib_flag" "$2" 2>/dev/null || true; }
    done; } <"$ib_file"
  done
  for ib_queue in /dev/mqueue/*; do
    [ -e "$ib_queue" ] && [ "$(stat -c %u "$ib_queue" 2>/dev/null)" = "$ib_u" ] && { rm -f "$ib_queue" || true; }
  done
  return 0
}

# `ib_clean_user NAME`: both of the above (ib_stop_user leaves the user's uid in ib_uid, empty for no such user).
ib_clean_user() { ib_stop_user "$1"; ib_ipc_clean "${ib_uid:--1}"; }
