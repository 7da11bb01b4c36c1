import { UserError } from '../../core/errors.js';
import type { Task } from '../task.js';
import { LCB_KIND } from './lcb.js';
import { SWE_KIND } from './swe.js';
import { NamedRegistry } from './named-registry.js';
import type { ContractBase, TaskBase, TaskKindDefinition } from './types.js';

/**
 * The kinds of task the program knows, by name: the built-in ones, and any a caller adds. Every question whose answer
 * depends on a task's kind is put to its definition here, so adding a kind touches no other file.
 */
const kinds = new NamedRegistry<TaskKindDefinition>('a task kind named', [
  LCB_KIND as unknown as TaskKindDefinition,
  SWE_KIND as unknown as TaskKindDefinition,
]);

/** Adds a kind of task; returns what takes it out again. */
export function registerTaskKind<T extends TaskBase, C extends ContractBase>(kind: TaskKindDefinition<T, C>): () => void {
  return kinds.register(kind as unknown as TaskKindDefinition);
}

/** The names of the kinds known, built-in ones first. */
export function taskKindNames(): string[] {
  return kinds.names();
}

/** A kind's name, given as the name or as a task of the kind: every room's registry is asked either way. */
export function kindName(of: string | { kind: string }): string {
  return typeof of === 'string' ? of : of.kind;
}

/** The definition of a task's kind (or of a kind by name). */
export function taskKind<T extends TaskBase = TaskBase>(of: string | { kind: string }): TaskKindDefinition<T> {
  const name = kindName(of);
  const kind = kinds.get(name);
  if (!kind) throw new UserError(`unknown task kind "${name}"`, `known kinds: ${taskKindNames().join(', ')}`);
  return kind as unknown as TaskKindDefinition<T>;
}

/** The kind whose row format this row is in, by its identifying fields; undefined when none claims it. */
export function kindOfRow(row: unknown): TaskKindDefinition | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
  // Kinds added later first, then SWE before LCB: the more specific format wins.
  return kinds
    .values()
    .reverse()
    .find((k) => k.recognizes(row));
}

/** How a row of each kind is known, built-in kinds first: `a SWE-bench row (instance_id)`. */
export function rowFormats(): string[] {
  return kinds.values().map((k) => k.rowFormat);
}

/** Whether each task of this kind gets a reference run before its samples: for those, the task is a SWE task. */
export function hasReferenceRun(task: { kind: string }): task is Extract<Task, { kind: 'swe' }> {
  return taskKind(task).referenceRun;
}

/** Tasks grouped by kind, each group in input order. */
export function byKind<T extends { kind: string }>(tasks: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of tasks) out.set(t.kind, [...(out.get(t.kind) ?? []), t]);
  return out;
}
