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

# Every grading runs these steps, so they start few processes: lists are read by the shell's own `read`.
g() { git -c safe.directory=* --git-dir="$P/pristine/.git" "$@"; }
# `gspecs FILE ARGS...`: root's git with ARGS, then `--` and the pathspecs of FILE (one a line).
gspecs() {
  gspecs_file=$1; shift; set -- "$@" --
  while IFS= read -r gspecs_spec; do set -- "$@" "$gspecs_spec"; done <"$gspecs_file"
  g "$@"
}
# `in_roots FIND_ARGS...`: find over the folders anyone may write to (the file roots), then FIND_ARGS (more starting
# points and the expression). A folder the image lacks, or an entry gone during the walk, is no failure.
in_roots() {
  while IFS= read -r in_roots_dir; do set -- "$in_roots_dir" "$@"; done <"$P/roots"
  find "$@" 2>/dev/null || true
}

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
  read -r base <"$P/base"
  export GIT_INDEX_FILE="$P/index"; big="$P/big-$$"
  trap 'rm -f "$big"' EXIT
  find "$ib_testbed" -xdev -type f -size +@BIG_FILE_MB@M -newer "$P/base" -printf '%P\n' 2>/dev/null >"$big" || true
  set -- --work-tree="$ib_testbed" add -A -f -- . @NOISE_EXCLUDES@
  while IFS= read -r tree_big; do set -- "$@" ":(exclude,top,literal)$tree_big"; done <"$big"
  g "$@"
  now=$(g write-tree)
}

# Prints `tamper WHAT` for each change between $base and $now that reaches into the test runner: runner files, and
# pytest's sections of a setup.cfg or pyproject.toml (compared as pytest would read them).
tamper_signs() {
  gspecs "$ib_runner_specs" diff --name-only --no-renames "$base" "$now" | while IFS= read -r f; do echo "tamper changed the test runner's file $f"; done
  g diff --name-only --no-renames "$base" "$now" -- ':(glob)**/setup.cfg' ':(glob)**/pyproject.toml' | while IFS= read -r f; do
    py=$(command -v python3 || command -v python) || return 0
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
  { echo "$1 $2 $3"; head -q -c @EVIDENCE_MAX_BYTES@ "$ib_evidence.source" "$ib_evidence.tests" "$big"; } >"$ib_evidence"
  rm -f "$ib_evidence.source" "$ib_evidence.tests" "$big"; trap - EXIT
}

# `seal USER`: nothing of the user's stays writable by others (a graded run must not write into it).
seal() {
  in_roots "$ib_testbed" "/home/$1" -xdev -user "$1" -perm -0002 ! -type l -exec chmod o-w {} +
}
