# `ib_kill TOKEN [ROOT]`: stops, then kills, the tree of processes marked with TOKEN (and ROOT's session), sparing the
# caller. See kill.ts for how the tree is found. Builtins only: under a fork bomb no program can start.
# The marker variable's name is a placeholder that kill.ts fills.
ib_kill() {
  ib_tok=$1; ib_root=$2; ib_me=$$; ib_pids=" "; ib_pass=0
  while [ "$ib_pass" -lt 500 ]; do
    ib_pass=$((ib_pass + 1)); ib_new=0
    for ib_s in /proc/[0-9]*/stat; do
      ib_p=${ib_s#/proc/}; ib_p=${ib_p%/stat}
      [ "$ib_p" = "$ib_me" ] && continue
      case "$ib_pids" in *" $ib_p "*) continue ;; esac
      read -r ib_l 2>/dev/null <"$ib_s" || continue
      set -- ${ib_l##*") "}
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
          *"@EXEC_MARKER_VAR@=$ib_tok"*)
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

