/** A SWE-bench row with nothing but what loading needs, as one JSONL line: its image is all a test of images asks of it. */
export function minimalSweRow(id: string): string {
  const patch = 'diff --git a/t/test_a.py b/t/test_a.py\n--- a/t/test_a.py\n+++ b/t/test_a.py\n@@ -1 +1 @@\n-a\n+b\n';
  return JSON.stringify({
    instance_id: id,
    repo: 'demo/demo',
    base_commit: 'a'.repeat(40),
    patch,
    test_patch: patch,
    problem_statement: 'It is broken.',
    FAIL_TO_PASS: '["t/test_a.py::test_x"]',
    PASS_TO_PASS: '[]',
  });
}
