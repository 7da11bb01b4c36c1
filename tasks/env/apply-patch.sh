# `apply_patch FILE`, run in the repository: `git apply` as it is, then with recounted hunks and whitespace ignored;
# each failed try's message goes to stderr, labelled with its flags; returns 1 when neither applies. Its helpers carry
# its name: a shell function defined inside another is global and must not replace a caller's. Sourced into scripts.
apply_patch() {
  apply_patch_say() { [ -z "$2" ] || printf "%s%s\n" "$1" "$2" >&2; }
  apply_patch_git() { git -c safe.directory=* apply --whitespace=nowarn "$@"; }
  if out=$(apply_patch_git "$1" 2>&1); then apply_patch_say "" "$out"; return 0; fi
  apply_patch_say "--whitespace=nowarn: " "$out"
  if out=$(apply_patch_git --recount --ignore-whitespace "$1" 2>&1); then apply_patch_say "" "$out"; return 0; fi
  apply_patch_say "--whitespace=nowarn --recount --ignore-whitespace: " "$out"
  return 1
}
