# A graded run in /testbed as the agent left it (full access), in one call: as root, no process of the agent's survives
# and the tamper signs go to stderr behind the marker; then the test command runs as the agent. After swe-lib.sh and
# user-cleanup.sh. $1 = the agent user, $2 = a marker, $3 = the test command.
# Exit 97 behind a `MARKER failed` line: the checks broke.
# The checks' status is read after them: on the left of `||`, a subshell's `set -e` would be ignored. Their output is
# kept in a variable and read with the shell's own `read`: no file and no process more than the checks.
ib_pre=$(
  {
    set -e
    ib_clean_user "$1"
    tree_now
    tamper_signs
    keep_evidence
  } 2>&1
)
if [ $? -ne 0 ]; then echo "$2 failed $(printf '%s\n' "$ib_pre" | tail -n 3 | tr '\n' ' ')" >&2; exit 97; fi
while IFS= read -r ib_line; do
  case $ib_line in "tamper "*) printf '%s %s\n' "$2" "$ib_line" >&2 ;; esac
done <<ib_pre_end
$ib_pre
ib_pre_end
cd "$ib_testbed"
ib_entry /etc/passwd "$1" || true
exec setpriv --reuid="$1" --regid="$ib_f4" --init-groups -- sh -c "$3"
