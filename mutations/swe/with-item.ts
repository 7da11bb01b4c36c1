import type { AssertionPlan } from '../plan.js';
import { applyEdits } from '../values.js';
import type { Node } from '../../python/parser.js';
import type { Candidate } from './types.js';

/** Context managers that check a raised exception's message: nested, an inner one with another message always fails the outer. */
const MESSAGE_RAISES = new Set(['assertRaisesMessage', 'assertRaisesRegex', 'assertRaisesRegexp']);

/** The call of the `with` item that holds the assertion's expected message. */
function itemCall(c: Candidate): Node | undefined {
  const e = c.assertion.expected;
  if (!e) return undefined;
  return c.node
    .descendantsOfType('call')
    .filter((n): n is Node => !!n && n.startIndex <= e.span.start && n.endIndex >= e.span.end)
    .find((n) => n.parent?.type === 'with_item' || n.parent?.parent?.type === 'with_item');
}

/**
 * `with …, self.assertRaisesMessage(E, msg):` → `with …, self.assertRaisesMessage(E, msg), self.assertRaisesMessage(E, other):`,
 * for a conflicting variant whose duplicate has no visible place after the block (its end lies
 * below the hunk). The inner item swallows the exception only when its message matches, and the
 * outer then sees none: either way one of them fails, whatever the code raises.
 */
export function messageItemPlan(c: Candidate, planned: AssertionPlan): { plan: AssertionPlan; call: Node } | undefined {
  if (c.node.type !== 'with_statement' || !MESSAGE_RAISES.has(c.assertion.method ?? '')) return undefined;
  const call = itemCall(c);
  if (!call || call.text.includes('\n')) return undefined;
  const rel = (base: number) => planned.edits.map((e) => ({ ...e, start: e.start - base, end: e.end - base }));
  let changed: string;
  if (c.via) {
    const { name, value } = c.via;
    if (name.start < call.startIndex || name.end > call.endIndex) return undefined;
    const spelled = `(${applyEdits(value.text, rel(value.startIndex))})`;
    changed = call.text.slice(0, name.start - call.startIndex) + spelled + call.text.slice(name.end - call.startIndex);
  } else {
    if (planned.edits.some((e) => e.start < call.startIndex || e.end > call.endIndex)) return undefined;
    changed = applyEdits(call.text, rel(call.startIndex));
  }
  if (changed === call.text) return undefined;
  return { plan: { edits: [{ start: call.endIndex, end: call.endIndex, text: `, ${changed}` }], strategy: `added-item/${planned.strategy}` }, call };
}
