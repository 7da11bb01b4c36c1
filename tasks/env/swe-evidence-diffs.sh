# The evidence as the sample ends, kept as a grading keeps it (see keep_evidence in swe-lib.sh), when no grading just
# took it. After swe-lib.sh.
set -e
tree_now
keep_evidence
