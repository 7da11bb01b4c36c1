import { defineConfig } from 'vitest/config';

/**
 * The unit lane (`npm run test:unit`): tests that need no container engine, no built dist/ and no shared data, and
 * run in seconds. Every other test file belongs to the engine lane. `npm test` runs both.
 */
const UNIT = [
  'core/import-circles.test.ts',
  'core/layers.test.ts',
  'core/size.test.ts',
  'core/shipped.test.ts',
  'python/shipped-scripts.test.ts',
  'docker/boundary.test.ts',
  'docker/build/mirror.test.ts',
  'docker/deadline.test.ts',
  'docker/fs-changes.test.ts',
  'docker/output.test.ts',
  'docker/placement.test.ts',
  'models/anthropic-client.test.ts',
  'models/factory.test.ts',
  'models/prices.test.ts',
  'models/retry.test.ts',
  'mutations/lcb/mutate.test.ts',
  'python/check.test.ts',
  'mutations/swe/data-rows.test.ts',
  'mutations/swe/row-kinds.test.ts',
  'runner/commands/audit-origin.test.ts',
  'mutations/swe/patch.test.ts',
  'mutations/swe/test-id.test.ts',
  'results/classify/classify.test.ts',
  'results/classify/judge.test.ts',
  'results/dataset-card.test.ts',
  'results/export-parquet.test.ts',
  'results/export.test.ts',
  'results/html/client-bundle.test.ts',
  'results/html/page.test.ts',
  'results/html/stream-report.test.ts',
  'results/viewer/index-query.test.ts',
  'results/store-index.test.ts',
  'results/metrics.test.ts',
  'results/monitor/metrics.test.ts',
  'results/monitor/parse.test.ts',
  'results/monitor/prompt.test.ts',
  'results/report-markdown.test.ts',
  'runner/config.test.ts',
  'runner/known-answers.test.ts',
  'runner/matrix.test.ts',
  'runner/presets.test.ts',
  'runner/progress.test.ts',
  'runner/scheduler.test.ts',
  'runner/table.test.ts',
  'scaffolds/evidence.test.ts',
  'scaffolds/prompts.test.ts',
  'scaffolds/templates.test.ts',
  'scaffolds/python.test.ts',
  'simulated/clients/prompt-cache.test.ts',
  'simulated/clients/provider-answers.test.ts',
  'simulated/clients/responses-client.test.ts',
  'simulated/policies/swe-locations.test.ts',
  'simulated/policies/swe-slow-tests.test.ts',
  'simulated/scripted-model.test.ts',
  'simulated/server/cache.test.ts',
  'simulated/server/faults.test.ts',
  'simulated/server/server.test.ts',
  'tasks/env/grading-entry.test.ts',
  'tasks/env/log-parsers.test.ts',
  'tasks/env/swe-specs.test.ts',
  'tasks/hub.test.ts',
  'tasks/load.test.ts',
];

const OUTSIDE = ['node_modules/**', 'dist/**'];

export default defineConfig({
  test: {
    pool: 'forks',
    // Sandbox tests start real containers: give them time, and keep two files in flight on two cores.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, exclude: OUTSIDE } },
      {
        extends: true,
        test: { name: 'engine', include: ['**/*.test.ts'], exclude: [...OUTSIDE, ...UNIT], globalSetup: ['runner/testing/fresh-dist.ts'] },
      },
    ],
  },
});
