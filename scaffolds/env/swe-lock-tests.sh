# Read-only tests: `sh -c LOCK lock TESTBED N FILE... DIR...`. The N files are made root's with mode 0444, the
# directories root's with the sticky bit (1777); what a test patch deleted is not there and is skipped. Then git may
# work in the root-owned TESTBED, system-wide (no home file needed).
set -e
testbed=$1; n=$2; shift 2
i=0; for p in "$@"; do i=$((i+1)); if [ "$i" -le "$n" ]; then [ -f "$p" ] && chown 0:0 "$p" && chmod 0444 "$p"; else [ -d "$p" ] && chown 0:0 "$p" && chmod 1777 "$p"; fi; done; true
git config --system --add safe.directory "$testbed"
