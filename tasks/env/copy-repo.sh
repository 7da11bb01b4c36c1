# `copy_repo FROM TO [git]`: a copy of the repository FROM at TO (only its .git with `git`) whose git object files are
# hard links to FROM's: git never writes into an object file, so no copy holds a repository's history (hundreds of MB in
# SWE-bench images) a second time. Where both copies live on, `share_objects REPO` first makes REPO's object files
# root's and read-only, so that no user of one copy can change the other's.
share_objects() { find "$1/.git/objects" -type f -exec chown 0:0 {} + -exec chmod 0444 {} +; }
copy_repo() {
  mkdir -p "$2/.git"; chmod --reference="$1" "$2"; chmod --reference="$1/.git" "$2/.git"
  [ "${3:-}" = git ] || find "$1" -mindepth 1 -maxdepth 1 ! -name .git -exec cp -a -t "$2" {} +
  find "$1/.git" -mindepth 1 -maxdepth 1 ! -name objects -exec cp -a -t "$2/.git" {} +
  cp -al "$1/.git/objects" "$2/.git/objects"
}
