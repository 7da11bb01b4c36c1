# A graded run in /testbed as the agent left it (full access), in one call: as root, no process of the agent's survives
# and the tamper signs go to stderr behind the marker; then the test command runs as the agent. After swe-lib.sh and
# user-cleanup.sh. $1 = the agent user, $2 = a marker, $3 = the test command.
# Exit 97 behind a `MARKER failed` line: the checks broke.
# The checks' status is read after them: on the left of `||`, a subshell's `set -e` would be ignored.
(
  set -e
  ib_clean_user "$1"
  tree_now
  tamper_signs
  keep_evidence
) >"/tmp/ib-pre-$2" 2>&1
if [ $? -ne 0 ]; then echo "$2 failed $(tail -n 3 "/tmp/ib-pre-$2" | tr '\n' ' ')" >&2; rm -f "/tmp/ib-pre-$2"; exit 97; fi
sed -n "s/^tamper /$2 tamper /p" "/tmp/ib-pre-$2" >&2; rm -f "/tmp/ib-pre-$2"
cd "$ib_testbed"
exec setpriv --reuid="$1" --regid="$(id -g "$1")" --init-groups -- sh -c "$3"
