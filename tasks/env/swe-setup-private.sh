# Setup, after the repository is in place: the pristine copy, the python link and the base tree; for grading in fresh
# copies ($1 = fresh) also the writable roots (the file `roots`) and the environment's pytest plugins, unless $2 = known
# (the same image and repository were set up before: the harness wrote `roots` and keeps the plugins). Runs with the
# repository's environment, after swe-lib.sh. Prints `tree SHA`, `linked` when it made the python link, and for a fresh
# copy not known before `plugins MODULES` (`none` when they cannot be listed) and a `root PATH` line for each root.
set -e
mkdir -p "$P"; chmod 0700 "$P"; [ ! -e "$P/pristine" ] || rm -rf "$P/pristine"
# The agent's git works on with the shared object files read-only; it may only unlink its own names for them. Grading
# in place needs only the pristine .git; fresh copies are made from a whole pristine repository.
share_objects /testbed
if [ "$1" = fresh ]; then copy_repo /testbed "$P/pristine"; else copy_repo /testbed "$P/pristine" git; fi
if ! command -v python >/dev/null; then ln -s "$(command -v python3)" /usr/local/bin/python; echo linked; fi
tree_first
echo "$now" >"$P/base"; echo "tree $now"
chmod 0600 "$P/base"
[ "$1" = fresh ] && [ "$2" != known ] || exit 0
# Folders anyone may write to, where a graded run's leftovers could wait for the agent (tmpfs ones by name).
{ find / -xdev \( -path /proc -o -path /sys -o -path "$ib_harness" \) -prune -o -type d -perm -0002 -print -prune 2>/dev/null; printf '%s\n' /dev/shm /dev/mqueue /run/lock; } | sort -u >"$P/roots"
chmod 0600 "$P/roots"
# The pytest plugins the pristine environment loads by entry point.
printf 'plugins '
python - 2>/dev/null <<'PY' || echo none
mods = None
try:
    from importlib import metadata
    eps = metadata.entry_points()
    group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])
    mods = [e.value for e in group]
except Exception:
    try:
        import pkg_resources
        mods = [e.module_name for e in pkg_resources.iter_entry_points("pytest11")]
    except Exception:
        pass
print("none" if mods is None else ",".join(sorted(set(m.split(":")[0].strip() for m in mods))))
PY
sed 's/^/root /' "$P/roots"
