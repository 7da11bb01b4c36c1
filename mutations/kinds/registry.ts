import { taskKind } from '../../tasks/kinds/registry.js';
import type { TaskBase } from '../../tasks/kinds/types.js';
import { LCB_MUTATION } from './lcb.js';
import { SWE_MUTATION } from './swe.js';
import type { MutationKindParts } from './types.js';

/** Each task kind's mutation parts, by the kind's name (`tasks/kinds/registry.ts` holds the kinds themselves). */
const parts = new Map<string, MutationKindParts>([
  [LCB_MUTATION.name, LCB_MUTATION as unknown as MutationKindParts],
  [SWE_MUTATION.name, SWE_MUTATION as unknown as MutationKindParts],
]);

/** Adds a kind's mutation parts; returns what takes them out again. */
export function registerMutationKind<T extends TaskBase>(kind: MutationKindParts<T>): () => void {
  if (parts.has(kind.name)) throw new Error(`mutation parts for the task kind "${kind.name}" are registered already`);
  const entry = kind as unknown as MutationKindParts;
  parts.set(kind.name, entry);
  return () => {
    if (parts.get(kind.name) === entry) parts.delete(kind.name);
  };
}

/** The mutation parts of a task's kind; a kind known without them makes no variants. */
export function mutationKind(of: string | { kind: string }): MutationKindParts {
  const name = typeof of === 'string' ? of : of.kind;
  const found = parts.get(name);
  if (found) return found;
  taskKind(name); // an unknown kind is said as such
  throw new Error(`the task kind "${name}" has no mutation engine`);
}
