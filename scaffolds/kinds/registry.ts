import { NamedRegistry } from '../../tasks/kinds/named-registry.js';
import { kindName, taskKind } from '../../tasks/kinds/registry.js';
import type { TaskBase } from '../../tasks/kinds/types.js';
import { LCB_SCAFFOLD } from './lcb.js';
import { SWE_SCAFFOLD } from './swe.js';
import type { ScaffoldKindParts } from './types.js';

/** Each task kind's scaffold parts, by the kind's name (`tasks/kinds/registry.ts` holds the kinds themselves). */
const parts = new NamedRegistry<ScaffoldKindParts>('scaffold parts for the task kind', [
  LCB_SCAFFOLD as unknown as ScaffoldKindParts,
  SWE_SCAFFOLD as unknown as ScaffoldKindParts,
]);

/** Adds a kind's scaffold parts; returns what takes them out again. */
export function registerScaffoldKind<T extends TaskBase>(kind: ScaffoldKindParts<T>): () => void {
  return parts.register(kind as unknown as ScaffoldKindParts);
}

/** The scaffold parts of a task's kind; an unknown kind, or one agents cannot run, is an error. */
export function scaffoldKind(of: string | { kind: string }): ScaffoldKindParts {
  const name = kindName(of);
  const found = parts.get(name);
  if (found) return found;
  throw new Error(`the agent loops cannot run tasks of the kind "${taskKind(name).name}"`);
}
