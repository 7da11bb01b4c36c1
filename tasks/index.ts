/** The tasks room: the task model, dataset loading, the built-in suites and each kind's environment. */
export * from './task.js';
export {
  loadDataset,
  readDataset,
  parseDatasetSpec,
  BUILTIN_DATASETS,
  type DatasetReport,
  type DatasetSpec,
  type LoadOptions,
  type SplitSummary,
} from './load.js';
export { formatProblem, type RowProblem } from './rows.js';
export { loadBuiltinLcb } from './suites/lcb.js';
export { loadBuiltinSwe } from './suites/swe.js';
export { cacheDir } from './paths.js';
