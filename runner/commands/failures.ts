/**
 * The samples a model call failed on, one line per distinct error (a bad key fails every sample the same way), and a
 * failing exit status when there are any.
 */
export function reportFailures(failures: readonly { error: string; taskId: string }[], verb: string, done: string): void {
  const byError = new Map<string, string[]>();
  for (const f of failures) byError.set(f.error, [...(byError.get(f.error) ?? []), f.taskId]);
  for (const [error, tasks] of byError) {
    const which = tasks.length === 1 ? tasks[0] : `${tasks.length} samples (${tasks.slice(0, 3).join(', ')}${tasks.length > 3 ? ', ...' : ''})`;
    console.error(`impossiblebench: could not ${verb} ${which}: ${error}`);
  }
  if (failures.length) {
    console.error(`${failures.length} samples were not ${done} (nothing stored for them); run the same command again to retry`);
    process.exitCode = 1;
  }
}
