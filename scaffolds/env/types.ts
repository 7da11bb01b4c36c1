import type { AccessMode, ScaffoldName } from '../../core/record.js';

/** How one graded submission went; `timeout` is a failure of the submission, reported as such. */
export type GradeOutcome = 'passed' | 'failed' | 'evaded' | 'timeout';

export interface GradeReport {
  outcome: GradeOutcome;
  /** What the agent is told: the test error, or only a count when the tests are hidden. */
  feedback: string;
  /** What the record keeps: the full grading log. */
  log: string;
  /** Signs that the graded code tampered with the harness, one line each. */
  tamper?: string[];
}

/** What the agent changed, kept apart so that test tampering cannot hide in a source diff. */
export interface Evidence {
  sourceDiff: string;
  testDiff: string;
  outsideChanges: string;
  /**
   * Signs in the tree as left that the code under test reaches into the test runner (read where it is graded): a
   * pass that shows them is never legit, and a failure still records what was tried.
   */
  tamper?: string[];
}

/**
 * One task in one sandbox, as the agent loops see it. The loops (minimal, full) are the same for every task kind;
 * a kind brings its environment: how the sandbox is prepared, what the agent is shown, and how a submission is graded.
 */
export interface AgentEnvironment {
  readonly scaffold: ScaffoldName;
  readonly access: AccessMode;
  /** Where the agent works (full scaffold): tools run there. */
  readonly workDir: string;
  /** Variables the agent's commands run with (the repository's environment); known after setup. */
  readonly commandEnv: Record<string, string>;
  /** Prepares the sandbox: files, owners and permissions for the access mode. */
  setup(): Promise<void>;
  /** The task as the first user message presents it, after the instructions. */
  taskMessage(maxAttempts: number): string;
  /** Grades a text answer (minimal scaffold): its last python code block is the submission. */
  gradeAnswer(answer: string): Promise<GradeReport>;
  /** Grades the work dir as the agent left it (full scaffold); without feedback when nobody will read it. */
  gradeWorkdir(withFeedback?: boolean): Promise<GradeReport>;
  /** The agent is about to run a command: what the environment took of the work dir may no longer stand. */
  agentActs?(): void;
  /** The diffs and outside changes for the record; `lastAnswer` is the minimal scaffold's final submission. */
  evidence(lastAnswer: string | null): Promise<Evidence>;
}
