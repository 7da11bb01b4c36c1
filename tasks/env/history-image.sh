# In a sandbox of a prepared image, as root, before anything else runs in it: hides the repository's history after the
# base commit and moves what is left into the history store, so the sandbox can be saved as the history image every
# sample of this image and base commit starts from. After hide-history.sh. See history-image.ts.
# $1 = the base commit. stderr: a `STEP_MARK what` line before each step.
set -e
ib_testbed=@TESTBED@
ib_history=@HISTORY_STORE@
ib_step_mark=@STEP_MARK@
step() { echo "$ib_step_mark$1" >&2; }
g() { git -c safe.directory=* "$@"; }
step "find the base commit $1 in $ib_testbed"
cd "$ib_testbed"
g cat-file -e "$1^{commit}"
hide_history "$1"
store_history "$1"
