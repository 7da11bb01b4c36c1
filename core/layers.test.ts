import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, repoSources } from './testing/sources.js';

/**
 * The floors of the building: every import points down the data flow, never up. A room imports only rooms of a
 * lower rank; rooms of the same rank (python/, docker/ and models/) know nothing of each other. Tests obey the same rule as the
 * code beside them: a test may use the `testing/` helpers of its own room or of a lower one, and a test that drives a
 * higher room lives in that room. Only tests, `testing/` helpers, fixtures and bench/ may import a `testing/` helper.
 */
const RANK: Record<string, number> = {
  core: 0, // what every room shares: errors, the sample record, the model client contract, sandbox paths, atomic writes
  python: 1, // the tree-sitter Python helpers
  docker: 1, // the sandbox
  models: 1, // the model clients (OpenAI Chat and Responses, Anthropic Messages), retries, prices, the factory
  tasks: 2, // the task model, loaders and built-in suites, each kind's grading contract
  mutations: 3, // impossible variants of tasks, and their validation
  scaffolds: 4, // the agent loops, their tools and prompts, each task kind's environment
  simulated: 5, // the local model server and the reference policies that stand in for models in tests and the demo
  results: 6, // the store, metrics, reports, exports, classification and monitors
  runner: 7, // the CLI and the orchestrator
  bench: 8, // benchmarks over the whole program
};

/** The room a repository path belongs to; undefined for files at the top (package.json, vitest.config.ts). */
function roomOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts.length > 1 ? parts[0] : undefined;
}

const isTestSide = (path: string) => /\.test\.ts$/.test(path) || /(^|\/)(testing|fixtures)(\/|\.ts$)/.test(path) || roomOf(path) === 'bench';
const isTestingHelper = (path: string) => /(^|\/)testing(\/|\.js$|\.ts$)/.test(path);

/** What a file (a repository path like `tasks/hub.ts`) imports against the rules, one line each. */
function wrongImports(path: string, source: string): string[] {
  const room = roomOf(path);
  const rank = room === undefined ? Infinity : RANK[room];
  if (rank === undefined) return [`${path}: its folder ${room}/ has no rank; give it one in core/layers.test.ts`];
  const wrong: string[] = [];
  for (const fileName of importSpecifiers(source)) {
    if (!fileName.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(path), fileName));
    const to = roomOf(target);
    if (to === undefined || to === room) {
      if (to === room && isTestingHelper(target) && !isTestSide(path)) wrong.push(`${path} → ${fileName}: only tests may use testing/ helpers`);
      continue;
    }
    const toRank = RANK[to];
    if (toRank === undefined || toRank >= rank) {
      wrong.push(`${path} → ${fileName}: ${room} (rank ${rank}) may not import ${to} (rank ${toRank ?? 'none'})`);
    } else if (isTestingHelper(target) && !isTestSide(path)) {
      wrong.push(`${path} → ${fileName}: only tests may use testing/ helpers`);
    }
  }
  return wrong;
}

describe('the floors', () => {
  it('every relative import of every .ts file points to a lower room, or stays in its own', () => {
    const wrong: string[] = [];
    for (const { path, text } of repoSources()) wrong.push(...wrongImports(path, text));
    expect(wrong, 'move the shared thing down (to core/ if every room needs it), or the test up to the room it drives').toEqual([]);
  });

  it('catches each way of importing upward', () => {
    expect(wrongImports('tasks/x.ts', "import { openStore } from '../results/store.js';")).toEqual([
      'tasks/x.ts → ../results/store.js: tasks (rank 2) may not import results (rank 6)',
    ]);
    expect(wrongImports('docker/a/x.ts', "import type { Task } from '../../tasks/task.js';")).toHaveLength(1);
    expect(wrongImports('scaffolds/x.ts', "export { labelOf } from '../results/labels.js';")).toHaveLength(1);
    expect(wrongImports('tasks/x.test.ts', "const m = await import('../mutations/lcb/mutate.js');")).toHaveLength(1);
    expect(wrongImports('python/x.ts', "import { AGENT_USER } from '../docker/types.js';")).toHaveLength(1);
    expect(wrongImports('models/factory.ts', "import { getPolicy } from '../simulated/policies/index.js';")).toHaveLength(1);
    expect(wrongImports('newroom/x.ts', "import { z } from 'zod';")).toEqual([
      'newroom/x.ts: its folder newroom/ has no rank; give it one in core/layers.test.ts',
    ]);
    expect(wrongImports('runner/x.ts', "import { withSandbox } from '../docker/testing.js';")).toEqual([
      'runner/x.ts → ../docker/testing.js: only tests may use testing/ helpers',
    ]);
  });

  it('lets imports run down, tests use lower testing/ helpers, and top-level files import anything', () => {
    expect(wrongImports('runner/x.ts', "import { UserError } from '../core/errors.js';\nimport { openStore } from '../results/store.js';")).toEqual(
      [],
    );
    expect(wrongImports('results/x.test.ts', "import { runScripted } from '../simulated/testing/harness.js';")).toEqual([]);
    expect(wrongImports('simulated/testing/harness.ts', "import { testRunId } from '../../docker/testing.js';")).toEqual([]);
    expect(wrongImports('vitest.config.ts', "import { x } from './runner/cli.js';")).toEqual([]);
  });
});
