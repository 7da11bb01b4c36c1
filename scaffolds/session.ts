import type { Outcome, StopReason, TranscriptMessage } from '../core/record.js';
import { ContextOverflowError, ModelApiError, type ChatMessage, type Generation, type ToolSpec } from '../core/model.js';
import { DISK_CHECK_MS, DiskWatch } from './disk-watch.js';
import type { Evidence, GradeReport } from './env/types.js';
import { sampleTamper } from './error-result.js';
import { render, shippedTemplates, type TemplateName, type Templates, type TemplateVars } from './templates.js';
import type { AgentRunInput, AgentRunResult } from './types.js';

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
  cacheReadTokens = 0;
  cacheWriteTokens = 0;
  /** Model turns the model declined to answer. */
  refusals = 0;
  /** null once any generation's price is unknown: an unknown part makes the total unknown. */
  costUsd: number | null = 0;
  attempts = 0;
  private readonly grades: { label: string; report: GradeReport }[] = [];
  /** Aborted with the StopSample of a limit the sample ran into while something was in flight (time, disk). */
  private readonly stopper: AbortController = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private disk: DiskWatch | undefined;
  /** Aborts on an interrupt of the run or on the sample's time limit. */
  readonly signal: AbortSignal;
  /** The texts this run sends: the shipped templates, or the run's replacements. */
  readonly templates: Templates;

  constructor(readonly input: AgentRunInput) {
    this.templates = input.templates ?? shippedTemplates();
    const { timeMs } = input.limits;
    if (timeMs !== undefined) {
      this.timer = setTimeout(() => this.stop('time_limit'), timeMs);
      this.timer.unref();
    }
    this.signal = AbortSignal.any([input.signal, this.stopper.signal]);
  }

  private disposed = false;

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.disk?.dispose();
  }

  private stop(reason: StopReason): void {
    if (!this.stopper.signal.aborted) this.stopper.abort(new StopSample(reason));
  }

  /** The limit that stopped the sample while something was in flight, if any. */
  get stopped(): StopSample | undefined {
    const reason: unknown = this.stopper.signal.reason;
    return this.stopper.signal.aborted && reason instanceof StopSample ? reason : undefined;
  }

  get timeUp(): boolean {
    return this.stopped?.reason === 'time_limit';
  }

  /** Stops the sample past its disk limit (stop reason disk_limit), whatever is running: see `DiskWatch`. */
  async watchDisk(usage: () => Promise<number>, limitBytes: number, everyMs = DISK_CHECK_MS): Promise<void> {
    if (this.disposed) return;
    this.disk = new DiskWatch(usage, limitBytes, () => this.stop('disk_limit'));
    await this.disk.start(everyMs);
  }

  /** Stops the sample when the sandbox holds more than its disk limit allows; true when it does. */
  async checkDisk(): Promise<boolean> {
    if (this.disk && !this.stopper.signal.aborted) await this.disk.check();
    return this.stopped?.reason === 'disk_limit';
  }

  push(message: ChatMessage): void {
    this.messages.push(message);
  }

  /** A template of this run, filled in. */
  text<N extends TemplateName>(name: N, vars: TemplateVars<N>): string {
    return render(this.templates, name, vars);
  }

  /**
   * A result the agent reads, with what the sample has used of its limits after it when the run asks
   * (`--budget-warning`); counts include the message it goes in.
   */
  withBudget(text: string): string {
    const { limits } = this.input;
    if (!limits.budgetWarning) return text;
    const used = this.messages.length + 1;
    const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
    const tokensUsed = this.inputTokens + this.outputTokens;
    const tokens =
      limits.maxTokens === undefined
        ? ''
        : ` You have used ${tokensUsed} tokens out of ${limits.maxTokens} (${share(tokensUsed, limits.maxTokens)}), ${Math.max(0, limits.maxTokens - tokensUsed)} left.`;
    const cost =
      limits.maxCostUsd === undefined || this.costUsd === null
        ? ''
        : ` You have spent $${this.costUsd.toFixed(4)} out of $${limits.maxCostUsd.toFixed(4)} (${share(this.costUsd, limits.maxCostUsd)}).`;
    const note = this.text('budget.warning', {
      used,
      max: limits.maxMessages,
      left: Math.max(0, limits.maxMessages - used),
      percent: share(used, limits.maxMessages),
      tokens,
      cost,
    });
    return `${text}\n\n${note.trimEnd()}`;
  }

  /** The limit that forbids another model turn, if any. */
  limitReached(): StopReason | null {
    const { limits } = this.input;
    if (this.stopped) return this.stopped.reason;
    if (this.messages.length >= limits.maxMessages) return 'message_limit';
    if (limits.maxTokens !== undefined && this.inputTokens + this.outputTokens >= limits.maxTokens) return 'token_limit';
    if (limits.maxCostUsd !== undefined && this.costUsd !== null && this.costUsd >= limits.maxCostUsd) return 'cost_limit';
    return null;
  }

  /** Settles when the environment's setup has; `generate` returns no answer before. */
  private prepared: Promise<unknown> = Promise.resolve();
  private setupFailure?: { error: unknown };

  /** The environment's setup, running beside the first model call. */
  preparing(setup: Promise<unknown>): void {
    this.prepared = setup;
    setup.catch((error: unknown) => (this.setupFailure = { error }));
  }

  /** One model turn, appended to the conversation; stops the sample when a limit forbids it. */
  async generate(tools: ToolSpec[]): Promise<Generation> {
    const stop = this.limitReached();
    if (stop) throw new StopSample(stop);
    // No request is worth paying for once the sandbox could not be prepared, nor worth waiting for once it fails.
    if (this.setupFailure) throw this.setupFailure.error;
    const unprepared = new AbortController();
    this.prepared.catch(() => unprepared.abort());
    let generation: Generation;
    try {
      generation = await this.input.model.generate(this.messages, tools, {
        signal: AbortSignal.any([this.signal, unprepared.signal]),
        ...(this.input.cacheKey ? { cacheKey: this.input.cacheKey } : {}),
      });
    } catch (err) {
      // A sandbox that could not be prepared is the failure to report, whatever became of the request.
      await this.prepared;
      // The conversation no longer fits: the model's run is over, and what it left is graded.
      if (err instanceof ContextOverflowError) {
        this.input.log.info({ turn: this.messages.length, error: err.message }, 'context window full; the agent stops');
        throw new StopSample('context_limit');
      }
      // A model that has not answered when the sample's time runs out is the infrastructure's failure, not the
      // model's: tried again, never scored.
      if (this.timeUp && !this.input.signal.aborted && !(err instanceof ModelApiError)) {
        throw new ModelApiError(`${this.input.model.name}: no answer before the sample's time limit ran out`, undefined, 1);
      }
      throw err;
    }
    // The sandbox is prepared while the first request is in flight: nothing the answer asks for runs before that.
    await this.prepared;
    this.inputTokens += generation.usage.inputTokens;
    this.outputTokens += generation.usage.outputTokens;
    this.cacheReadTokens += generation.usage.cacheReadTokens;
    this.cacheWriteTokens += generation.usage.cacheWriteTokens;
    if (generation.refusal) this.refusals += 1;
    this.costUsd = this.costUsd === null || generation.costUsd === null ? null : this.costUsd + generation.costUsd;
    // An answer the full context window cut short is kept for the transcript, but nothing it asks for runs.
    const exhausted = generation.contextExhausted === true;
    this.push({
      role: 'assistant',
      content: generation.text,
      ...(generation.toolCalls.length && !exhausted ? { toolCalls: generation.toolCalls } : {}),
      ...(generation.reasoning?.length ? { reasoning: generation.reasoning } : {}),
    });
    this.input.log.debug({ turn: this.messages.length, toolCalls: generation.toolCalls.length, usage: generation.usage }, 'model turn');
    if (exhausted) throw new StopSample('context_limit');
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
          return {
            role: 'assistant',
            content: m.content,
            ...(m.toolCalls?.length ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
          };
        case 'tool':
          return { role: 'tool', content: m.content, toolCallId: m.toolCallId, name: m.name };
        default:
          return { role: m.role, content: m.content };
      }
    });
  }

  /** The record of the run; evidence is gathered by the caller, which may fail on a dead sandbox. */
  result(outcome: Outcome, stopReason: StopReason, evidence: Evidence, error?: string): AgentRunResult {
    return {
      outcome,
      stopReason,
      attempts: this.attempts,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      cacheReadTokens: this.cacheReadTokens,
      cacheWriteTokens: this.cacheWriteTokens,
      refusals: this.refusals,
      costUsd: this.costUsd,
      transcript: this.transcript(),
      ...evidence,
      gradingLog: this.gradingLog(),
      tamper: sampleTamper(this.tamper(), evidence, outcome !== 'error'),
      ...(error !== undefined ? { error } : {}),
    };
  }
}
