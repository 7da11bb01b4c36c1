# Shared by the root-run scripts of a SWE-style sample (see swe-scripts.ts): where things are, root's git on the
# pristine object store, and the steps more than one script takes. Sourced first; defines, runs nothing.

# The harness's paths, filled in by swe-scripts.ts (the one place they are written).
P=@PRIVATE_DIR@
ib_testbed=@TESTBED@
ib_harness=@HARNESS_DIR@
ib_pytest_config=@PYTEST_CONFIG_SCRIPT@
ib_runner_specs=@RUNNER_PATHSPECS@
ib_source_specs=@SOURCE_PATHSPECS@
ib_evidence_specs=@EVIDENCE_TESTS_PATHSPECS@
ib_evidence=@EVIDENCE_FILE@

g() { git -c safe.directory=* --git-dir="$P/pristine/.git" "$@"; }
# A pathspec file as NUL-separated words.
specs() { tr "\n" "\0" <"$1"; }
gspecs() { f=$1; shift; specs "$f" | xargs -0 git -c safe.directory=* --git-dir="$P/pristine/.git" "$@" --; }

# Sets $now to the tree of /testbed as it is on disk, written into the pristine object store through root's own index
# of it (kept from setup, so only files whose stat changed are read again): every file, ignored ones too (no ignore
# file hides a change), without bytecode and caches. Nothing the agent did to /testbed/.git (commits, resets, hooks, a
# deleted .git) matters; git never takes a .git folder into a tree. `tree_first` makes that index, at setup.
tree_first() {
  export GIT_INDEX_FILE="$P/index"
  g --work-tree="$ib_testbed" add -A -f -- . @NOISE_EXCLUDES@
  now=$(g write-tree)
}

# Also sets $base to setup's tree. Files over @BIG_FILE_MB@ MiB written since setup are left out (their entries kept as
# they were): hashing and copying them would fill the disk a second time. They are listed in the file $big.
tree_now() {
  base=$(cat "$P/base")
  export GIT_INDEX_FILE="$P/index"; big="$P/big-$$"
  trap 'rm -f "$big"' EXIT
  (cd "$ib_testbed" && find . -xdev -type f -size +@BIG_FILE_MB@M -newer "$P/base" -printf '%P\n' 2>/dev/null) >"$big"
  sed 's/^/:(exclude,top,literal)/' "$big" | tr '\n' '\0' | xargs -0 git -c safe.directory=* --git-dir="$P/pristine/.git" --work-tree="$ib_testbed" add -A -f -- . @NOISE_EXCLUDES@
  now=$(g write-tree)
}

# Prints `tamper WHAT` for each change between $base and $now that reaches into the test runner: runner files, and
# pytest's sections of a setup.cfg or pyproject.toml (compared as pytest would read them).
tamper_signs() {
  gspecs "$ib_runner_specs" diff --name-only --no-renames "$base" "$now" | while IFS= read -r f; do echo "tamper changed the test runner's file $f"; done
  py=$(command -v python3 || command -v python) || return 0
  g diff --name-only --no-renames "$base" "$now" -- ':(glob)**/setup.cfg' ':(glob)**/pyproject.toml' | while IFS= read -r f; do
    t=$(mktemp -d); mkdir "$t/a" "$t/b"; name=${f##*/}
    g show "$base:$f" >"$t/a/$name" 2>/dev/null || rm -f "$t/a/$name"
    g show "$now:$f" >"$t/b/$name" 2>/dev/null || rm -f "$t/b/$name"
    if [ "$("$py" "$ib_pytest_config" diff "$t/a/$name" "$t/b/$name")" = changed ]; then echo "tamper changed pytest's settings in $f"; fi
    rm -rf "$t"
  done
}

# Keeps the evidence of $base against $now in $ib_evidence (root's folder): the agent's changes as two diffs, tests and
# runner files apart from the rest, and the files left out for their size; their three sizes in bytes on the first
# line, then at most @EVIDENCE_MAX_BYTES@ bytes of each. After tree_now. Few processes: every grading runs it.
keep_evidence() {
  gspecs "$ib_source_specs" diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$ib_evidence.source"
  gspecs "$ib_evidence_specs" diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$ib_evidence.tests"
  set -- $(stat -c %s "$ib_evidence.source" "$ib_evidence.tests" "$big")
  { echo "$1 $2 $3"; head -q -c @EVIDENCE_MAX_BYTES@ "$ib_evidence.source" "$ib_evidence.tests" "$big"; } >"$ib_evidence.new"
  mv -f "$ib_evidence.new" "$ib_evidence"; rm -f "$ib_evidence.source" "$ib_evidence.tests"
}

# `seal USER`: nothing of the user's stays writable by others (a graded run must not write into it).
seal() {
  for r in $(cat "$P/roots") "$ib_testbed" "/home/$1"; do [ -d "$r" ] && find "$r" -xdev -user "$1" -perm -0002 ! -type l -exec chmod o-w {} + 2>/dev/null; done
  return 0
}
