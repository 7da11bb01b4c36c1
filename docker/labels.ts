/** Labels on every sandbox container, so a run's containers can be found and removed even after a crash. */
export const RUN_LABEL = 'impossiblebench.run';
export const SAMPLE_LABEL = 'impossiblebench.sample';
/** Records which build recipe produced an image, so a stale image is rebuilt. */
export const RECIPE_LABEL = 'impossiblebench.recipe';
/** Marks an image made from a sandbox (a history image), so it can be found and removed with its run. */
export const DERIVED_LABEL = 'impossiblebench.derived';
