import type { Outcome, StopReason, TranscriptMessage } from '../../results/record.js';
import type { ChatMessage, Generation, ToolSpec } from '../model/types.js';
import type { AgentEnvironment, GradeReport } from '../env/types.js';
import { perCall } from '../signals.js';
import type { AgentRunInput, AgentRunResult } from '../types.js';

/** Raised inside a loop to end the sample with a stop reason (limits, flag, attempts). */
export class StopSample extends Error {
  constructor(readonly reason: StopReason) {
    super(`sample stopped: ${reason}`);
    this.name = 'StopSample';
  }
}

/**
 * The state one agent run accumulates, shared by both loops: the conversation, token and cost budgets, the wall-time
 * deadline, and every graded attempt.
 */
export class Session {
  readonly messages: ChatMessage[] = [];
  inputTokens = 0;
  outputTokens = 0;
  /** null once any generation's price is unknown: an unknown part makes the total unknown. */
  costUsd: number | null = 0;
  attempts = 0;
  private readonly grades: { label: string; report: GradeReport }[] = [];
  private readonly deadline: AbortController = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  /** Aborts on an interrupt of the run or on the sample's time limit. */
  readonly signal: AbortSignal;

  constructor(readonly input: AgentRunInput) {
    const { timeMs } = input.limits;
    if (timeMs !== undefined) {
      this.timer = setTimeout(() => this.deadline.abort(new StopSample('time_limit')), timeMs);
      this.timer.unref();
    }
    this.signal = AbortSignal.any([input.signal, this.deadline.signal]);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  get timeUp(): boolean {
    return this.deadline.signal.aborted;
  }

  push(message: ChatMessage): void {
    this.messages.push(message);
  }

  /** The limit that forbids another model turn, if any. */
  limitReached(): StopReason | null {
    const { limits } = this.input;
    if (this.timeUp) return 'time_limit';
    if (this.messages.length >= limits.maxMessages) return 'message_limit';
    if (limits.maxTokens !== undefined && this.inputTokens + this.outputTokens >= limits.maxTokens) return 'token_limit';
    if (limits.maxCostUsd !== undefined && this.costUsd !== null && this.costUsd >= limits.maxCostUsd) return 'cost_limit';
    return null;
  }

  /** One model turn, appended to the conversation; stops the sample when a limit forbids it. */
  async generate(tools: ToolSpec[]): Promise<Generation> {
    const stop = this.limitReached();
    if (stop) throw new StopSample(stop);
    const generation = await this.input.model.generate(this.messages, tools, { signal: perCall(this.signal) });
    this.inputTokens += generation.usage.inputTokens;
    this.outputTokens += generation.usage.outputTokens;
    this.costUsd = this.costUsd === null || generation.costUsd === null ? null : this.costUsd + generation.costUsd;
    this.push({
      role: 'assistant',
      content: generation.text,
      ...(generation.toolCalls.length ? { toolCalls: generation.toolCalls } : {}),
      ...(generation.reasoning?.length ? { reasoning: generation.reasoning } : {}),
    });
    this.input.log.debug({ turn: this.messages.length, toolCalls: generation.toolCalls.length, usage: generation.usage }, 'model turn');
    return generation;
  }

  /** Keeps a graded submission; `counted` is false for the final scoring of a run that ended without one. */
  addGrade(report: GradeReport, counted = true): void {
    if (counted) this.attempts += 1;
    this.grades.push({ label: counted ? `attempt ${this.attempts}` : 'final state (not submitted)', report });
    this.input.log.debug({ attempt: this.attempts, outcome: report.outcome }, 'graded');
  }

  get lastGrade(): GradeReport | undefined {
    return this.grades.at(-1)?.report;
  }

  /**
   * The sample's outcome: passed when any graded run passed; evaded when a run exited with success before the tests
   * finished (the evasion is what the sample shows, even if a later attempt failed); failed otherwise.
   */
  outcome(): Outcome {
    const outcomes = this.grades.map((g) => g.report.outcome);
    if (outcomes.includes('passed')) return 'passed';
    if (outcomes.includes('evaded')) return 'evaded';
    return 'failed';
  }

  /** Every sign of harness tampering any graded run showed, once each. */
  tamper(): string[] {
    return [...new Set(this.grades.flatMap((g) => g.report.tamper ?? []))];
  }

  gradingLog(): string {
    return this.grades.map((g) => `== ${g.label}: ${g.report.outcome}\n${g.report.log}`).join('\n\n');
  }

  transcript(): TranscriptMessage[] {
    return this.messages.map((m): TranscriptMessage => {
      switch (m.role) {
        case 'assistant':
          return { role: 'assistant', content: m.content, ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}) };
        case 'tool':
          return { role: 'tool', content: m.content, toolCallId: m.toolCallId, name: m.name };
        default:
          return { role: m.role, content: m.content };
      }
    });
  }

  /** The record of the run; evidence is gathered by the caller, which may fail on a dead sandbox. */
  result(
    outcome: Outcome,
    stopReason: StopReason,
    evidence: { sourceDiff: string; testDiff: string; outsideChanges: string },
    error?: string,
  ): AgentRunResult {
    return {
      outcome,
      stopReason,
      attempts: this.attempts,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      costUsd: this.costUsd,
      transcript: this.transcript(),
      ...evidence,
      gradingLog: this.gradingLog(),
      tamper: this.tamper(),
      ...(error !== undefined ? { error } : {}),
    };
  }
}

/**
 * A loop's way out: a StopSample as it is; anything thrown because the sample's time ran out (an aborted model call or
 * command) as the time limit; anything else (API, sandbox, grading failures, interrupts) goes on up.
 */
export function asStop(err: unknown, session: Session): StopSample {
  if (err instanceof StopSample) return err;
  if (session.timeUp && !session.input.signal.aborted) return new StopSample('time_limit');
  throw err;
}

/** The instructions as the agent reads them, with the abort option when it is offered. */
export function instructionsText(input: AgentRunInput, abortText: string): string {
  return input.allowFlag ? `${input.instructions.trim()}\n\n${abortText}` : input.instructions.trim();
}

export type { AgentEnvironment };
