# The evidence: the agent's changes as two diffs, tests and runner files apart from the rest, and the files left out
# for their size. Prints the three sizes in bytes on one line, then at most $1 bytes of each. After swe-lib.sh.
set -e
tree_now
t=$(mktemp -d); trap 'rm -rf "$t" "$big"' EXIT
gspecs "$ib_source_specs" diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$t/source"
gspecs "$ib_evidence_specs" diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$t/tests"
echo "$(wc -c <"$t/source") $(wc -c <"$t/tests") $(wc -c <"$big")"
head -c "$1" "$t/source"; head -c "$1" "$t/tests"; head -c "$1" "$big"
