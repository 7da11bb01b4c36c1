import type { Task } from '../tasks/task.js';
import type { ChatMessage, ToolSpec } from '../core/model.js';
import type { ScaffoldName } from '../core/record.js';

/** What a scripted policy knows: the task (with its reference solution) and the conversation so far. */
export interface PolicyContext {
  task: Task;
  /** An agent program's scaffold (codex, claude-code, ...) shows the policy the full scaffold's conversation. */
  scaffold: ScaffoldName;
  /** The sample's repeat (`run --epochs`), for a policy that plays each repeat differently; absent outside a run. */
  epoch?: number;
}

/** One model turn: text, and tool calls whose `arguments` are JSON text (the server may corrupt them on purpose). */
export interface PolicyTurn {
  text: string;
  toolCalls?: { name: string; arguments: string }[];
}

/** A deterministic stand-in for a model, served through the local model server over the real wire formats. */
export interface Policy {
  readonly name: string;
  next(messages: ChatMessage[], tools: ToolSpec[], context: PolicyContext): PolicyTurn;
}
