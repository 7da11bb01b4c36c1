# Puts a SWE-style task's repository at /testbed at its base commit, as root inside the sandbox; no agent text reaches
# it. After user-cleanup.sh, apply-patch.sh, copy-repo.sh and hide-history.sh. See swe-setup.ts.
# $1 = pack of the base commit's history ('' for a prepared image), $2 = base commit, $3 = git|image, $4 = test patch
# ('' for none), $5 = the agent user, $6 = the grader user, $7 = the test spec's root setup lines (run first; failures
# ignored, as the harness's eval script ignores them), $8 = the script to run next ('' for none), $9 = the step it is
# named by, $10 = its arguments (plain words); the rest are the test patch's files.
# stderr: a `STEP_MARK what` line before each step. stdout: `changed PATH` lines, then the environment (capture_env),
# then, when the next script ran here, NEXT_MARK and its output.
set -e

# Constants of swe-setup.ts, filled in there.
ib_testbed=@TESTBED@
ib_step_mark=@STEP_MARK@
ib_env_mark=@ENV_MARK@
ib_history=@HISTORY_STORE@
ib_next_mark=@NEXT_MARK@

# `add_user NAME HOME`: makes a login user when the image has none of that name, with the first uid from 1000 that no
# image user or group has (the SWE-bench images' `nonroot` is 1000), and HOME ('' for none). No useradd: minimal images
# lack it, and /etc/passwd is all exec needs. Prints `changed PATH` for each file it makes or changes, so they are not
# taken for the agent's.
# Entries are read with the shell's own `read` (ib_entry, user-cleanup.sh): no process per question.
add_user_taken() { ib_entry_with 3 /etc/passwd "$1" || ib_entry_with 3 /etc/group "$1"; }
add_user() {
  if ib_entry /etc/passwd "$1"; then
    [ "$ib_f3" != 0 ] || { echo "the image's user $1 is root" >&2; return 1; }
    return 0
  fi
  add_user_id=1000; while add_user_taken "$add_user_id"; do add_user_id=$((add_user_id + 1)); done
  add_user_gid=; if ib_entry /etc/group "$1"; then add_user_gid=$ib_f3; fi
  if [ -z "$add_user_gid" ]; then add_user_gid=$add_user_id; echo "$1:x:$add_user_gid:" >>/etc/group; echo "changed /etc/group"; fi
  add_user_shell=/bin/sh; [ -x /bin/bash ] && add_user_shell=/bin/bash
  echo "$1:x:$add_user_id:$add_user_gid:impossiblebench:${2:-/nonexistent}:$add_user_shell" >>/etc/passwd; echo "changed /etc/passwd"
  if [ -n "$2" ] && [ ! -d "$2" ]; then mkdir -p "$2"; chown "$add_user_id:$add_user_gid" "$2"; chmod 0755 "$2"; echo "changed $2"; fi
}

# Prints ENV_MARK and the conda root, then the environment before and after activating the repository's conda
# environment (`env -0` each, a NUL between them); ENV_MARK and `-` when there is no such environment. Activation runs
# in bash where there is one, as in the harness. (conda's activate script takes the caller's arguments: no more may be
# passed, so the environment's name is in the text.)
capture_env() {
  conda_bin=$(command -v conda) || conda_bin=/nonexistent/bin/conda; conda_bin=${conda_bin%/*}
  for root in "${conda_bin%/*}" /opt/miniconda3 /opt/conda /opt/miniforge3; do
    if [ -f "$root/bin/activate" ] && [ -d "$root/envs/@CONDA_ENV_NAME@" ]; then
      printf '%s%s\n' "$ib_env_mark" "$root"; ib_env_root=$root
      shell=sh; command -v bash >/dev/null && shell=bash
      "$shell" -c 'env -0 && printf "\0" && . "$1/bin/activate" && conda activate @CONDA_ENV_NAME@ && env -0' activate "$root"
      return
    fi
  done
  printf '%s-\n' "$ib_env_mark"; ib_env_root=-
}

step() { echo "$ib_step_mark$1" >&2; }
g() { git -c safe.directory=* -c user.name=impossiblebench -c user.email=bench@impossiblebench.invalid "$@"; }
pack=$1; base=$2; source=$3; patch=$4; agent=$5; grader=$6; prepare=$7; next=$8; next_step=$9; next_args=${10}; shift 10
if [ -n "$prepare" ]; then step 'prepare the environment as the harness does'; sh -c "$prepare" >&2 || true; fi
step 'add the users the sandbox runs commands as'
add_user "$agent" "/home/$agent"
add_user "$grader" ""
# A git source arrives as a pack of the base commit's history alone, so no later commit is there to hide: it is
# indexed into a new repository and checked out. A prepared image keeps its working tree and build products when its
# HEAD is the base commit or the one commit the SWE-bench harness adds on top of it (install steps may change tracked
# files); any other HEAD is reset to the base, every ref is dropped and the objects repacked, so no later commit can be
# read (hide_history), unless the image is a history image made so for this base commit.
if [ -n "$pack" ]; then
  step 'unpack the repository'
  # No template: its sample hooks and files are copied for nothing (and copied again into the pristine copy).
  g -c init.defaultBranch=main init -q --template= "$ib_testbed"; cd "$ib_testbed"; g index-pack --stdin <"$pack" >/dev/null; rm -f "$pack"
  step "check out the base commit $base"
  g checkout -q -f -B main "$base"
else
  step "find the base commit $base in $ib_testbed"
  cd "$ib_testbed"
  g cat-file -e "$base^{commit}"
  # A history image (history-image.ts) was made with the history hidden already.
  if [ "$(cat "$ib_history/base" 2>/dev/null)" != "$base" ]; then hide_history "$base"; fi
fi
if [ -n "$patch" ]; then
  step 'apply the test patch'
  apply_patch "$patch"
  rm -f "$patch"
  step 'commit the test patch'
  g add -A -f -- "$@"
  # Not `git commit`: it refreshes the whole index first (see above).
  g update-ref HEAD "$(g commit-tree "$(g write-tree)" -p HEAD -m 'Update tests')"
fi
step "hand $ib_testbed to the agent"
cd /
# An image's /testbed lives in a lower layer: chown would copy every file up one at a time, and overlayfs cannot rename
# the folder (grading in a fresh copy moves it aside). One copy into the container's own layer does both; the object
# files are linked, not copied: the repack above wrote them there already (a history image keeps them in its store).
if [ "$source" = image ]; then rm -rf "$ib_testbed.ib-copy"; copy_repo "$ib_testbed" "$ib_testbed.ib-copy"; rm -rf "$ib_testbed"; mv "$ib_testbed.ib-copy" "$ib_testbed"; fi
ib_entry /etc/passwd "$agent"
chown -R "$agent:$ib_f4" "$ib_testbed"
step 'activate the repository environment (conda @CONDA_ENV_NAME@)'
capture_env
# The next script runs in this call, one round trip less, when the image's PATH is the environment; in a conda
# environment the caller runs it with the activated variables instead.
if [ -n "$next" ] && [ "$ib_env_root" = - ]; then
  step "$next_step"
  printf '%s' "$ib_next_mark"
  sh -c "$next" setup $next_args
fi
