# A fresh grading copy put in /testbed's place (read-only and hidden tests): the pristine repository, the hidden tests,
# and the agent's changes to source files only, copied file by file (links, modes and binary files as they are), with
# pytest's sections of changed config files restored. Before it: no process of the agent's survives, and nothing of
# the agent's stays writable by others. After swe-lib.sh, user-cleanup.sh and apply-patch.sh.
# $1 = grading folder, $2 = hidden test patch or '', $3 = the grader user, $4 = the agent user.
# Prints the tamper signs. Exit 3: the test patch does not apply.
set -e
ib_clean_user "$4"
seal "$4"
tree_now
tamper_signs
keep_evidence
repo="$1/testbed"
mkdir -m 0755 "$1"; copy_repo "$P/pristine" "$repo"; mkdir -m 0700 "$1/home"
cd "$repo"
if [ -n "$2" ]; then apply_patch "$2" || exit 3; rm -f "$2"; fi
gspecs "$ib_source_specs" diff -z --name-only --no-renames --diff-filter=D "$base" "$now" | xargs -0 -r rm -rf --
gspecs "$ib_source_specs" diff -z --name-only --no-renames --diff-filter=d "$base" "$now" >"$1/changed"
if [ -s "$1/changed" ]; then tar -C "$ib_testbed" --null -T "$1/changed" -cf - | tar -C "$repo" --recursive-unlink -xf -; fi
# Most gradings change no config file: one look first, the rest only when one changed.
# A grep that fails (2) must not pass for one that found nothing (1): the configs would go unrestored.
config='(^|/)(setup\.cfg|pyproject\.toml)$'
none=0; grep -qzE "$config" "$1/changed" || none=$?
[ "$none" -le 1 ] || exit 1
if [ "$none" = 0 ]; then
  py=$(command -v python3 || command -v python || true)
  tr '\0' '\n' <"$1/changed" | grep -E "$config" | while IFS= read -r f; do
    [ -n "$py" ] && "$py" "$ib_pytest_config" restore "$P/pristine/$f" "$repo/$f"
  done
fi
cd /
# The object files stay root's and read-only: they are the pristine store's too.
ib_entry /etc/passwd "$3"
find "$repo" "$1/home" ! \( -path "$repo/.git/objects/*" -type f \) -exec chown -h "$3:$ib_f4" {} +
mv "$ib_testbed" "$1/agent-testbed"; mv "$repo" "$ib_testbed" || { mv "$1/agent-testbed" "$ib_testbed"; exit 1; }
