# `hide_history BASE`, run in an image's repository: resets it to BASE unless HEAD is BASE or the one commit the
# SWE-bench harness adds on top of it (install steps may change tracked files), then drops every ref but the branch
# `main` at HEAD, every remote and reflog, and repacks the objects, so no later commit can be read. Needs the caller's
# `g` (git) and `step` (names the step). `store_history BASE` then moves the objects into the history store outside
# the repository, which it reads as its alternates: made once in a history image, shared read-only by every sandbox
# of it, and named by BASE so that setup knows the hiding is done. Sourced into scripts.
hide_history() {
  step "reset to $1"
  hide_history_head=$(g rev-parse -q --verify HEAD || true)
  hide_history_parent=$(g rev-parse -q --verify 'HEAD^' 2>/dev/null || true)
  if [ "$hide_history_head" != "$1" ] && [ "$hide_history_parent" != "$1" ]; then g checkout -q -f --detach "$1"; fi
  step 'hide the history after the base commit'
  # Refs are moved by plumbing: a checkout would first re-read every file, since an image's index holds the stat data
  # of the machine that built it. One transaction: hundreds of tags would rewrite packed-refs once each.
  hide_history_head=$(g rev-parse HEAD)
  g for-each-ref --format='delete %(refname)' | g update-ref --stdin
  g update-ref refs/heads/main "$hide_history_head"; g symbolic-ref HEAD refs/heads/main
  g remote | while read -r r; do g remote remove "$r"; done
  rm -f .git/FETCH_HEAD .git/ORIG_HEAD .git/objects/pack/*.keep
  g reflog expire --expire=now --all
  g gc -q --prune=now
}
store_history() {
  step 'move the history into the store'
  rm -rf "$ib_history"; mkdir -p "$ib_history/objects/pack"
  # The repack left every object in its new pack files (in the container's own layer, so they move without a copy).
  find .git/objects/pack -maxdepth 1 -type f -exec mv -t "$ib_history/objects/pack" {} +
  if find .git/objects -mindepth 2 -path '.git/objects/[0-9a-f][0-9a-f]/*' -type f | grep -q .; then
    echo "loose objects are left after the repack" >&2; return 1
  fi
  # Appended: an image's own alternates, if it has any, still hold objects the repository reads.
  echo "$ib_history/objects" >>.git/objects/info/alternates
  echo "$1" >"$ib_history/base"
  chown -R 0:0 "$ib_history"; chmod -R a+rX,a-w "$ib_history"
}
