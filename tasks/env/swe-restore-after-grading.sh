# After a graded run in a fresh copy: nothing of the grader's survives (processes, IPC objects, files wherever others
# may write), and the agent's tree goes back. After swe-lib.sh and user-cleanup.sh.
# $1 = grading folder, $2 = the grader user.
set -e
ib_clean_user "$2"
rm -rf "$ib_testbed"; mv "$1/agent-testbed" "$ib_testbed"
in_roots -xdev -depth -user "$2" -exec rm -rf {} +
rm -rf "$1"
