import { NamedRegistry } from '../../tasks/kinds/named-registry.js';
import { kindName, taskKind } from '../../tasks/kinds/registry.js';
import type { TaskBase } from '../../tasks/kinds/types.js';
import { LCB_MUTATION } from './lcb.js';
import { SWE_MUTATION } from './swe.js';
import type { MutationKindParts } from './types.js';

/** Each task kind's mutation parts, by the kind's name (`tasks/kinds/registry.ts` holds the kinds themselves). */
const parts = new NamedRegistry<MutationKindParts>('mutation parts for the task kind', [
  LCB_MUTATION as unknown as MutationKindParts,
  SWE_MUTATION as unknown as MutationKindParts,
]);

/** Adds a kind's mutation parts; returns what takes them out again. */
export function registerMutationKind<T extends TaskBase>(kind: MutationKindParts<T>): () => void {
  return parts.register(kind as unknown as MutationKindParts);
}

/** The mutation parts of a task's kind; a kind known without them makes no variants. */
export function mutationKind(of: string | { kind: string }): MutationKindParts {
  const name = kindName(of);
  const found = parts.get(name);
  if (found) return found;
  taskKind(name); // an unknown kind is said as such
  throw new Error(`the task kind "${name}" has no mutation engine`);
}
