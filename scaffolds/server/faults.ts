import { createHash } from 'node:crypto';
import { z } from 'zod';

/** A fault the server can inject into one response. */
export const FaultKindSchema = z.enum(['none', 'rate_limit', 'server_error', 'slow', 'malformed_tool_call']);
export type FaultKind = z.infer<typeof FaultKindSchema>;

const rate = z.number().min(0).max(1);

/**
 * How often each fault happens. Rates are probabilities per request, drawn from a hash of
 * (server seed, session key, request number), so a run with the same seed sees the same faults
 * whatever the order in which concurrent sessions reach the server.
 */
export const FaultConfigSchema = z.strictObject({
  /** 429 with a Retry-After header. */
  rateLimit: rate.default(0),
  /** 500 with an error body. */
  serverError: rate.default(0),
  /** The answer (or error) comes after `slowMs`. */
  slow: rate.default(0),
  /** Each tool call's arguments lose their closing brace. */
  malformedToolCall: rate.default(0),
  /** The Retry-After a 429 carries, in seconds. */
  retryAfterSeconds: z.number().min(0).default(1),
  slowMs: z.number().int().min(0).default(2000),
  /** Faults for a session's first requests, in order, before the rates apply. */
  sequence: z.array(FaultKindSchema).default([]),
});
export type FaultConfig = z.input<typeof FaultConfigSchema>;
export type ResolvedFaultConfig = z.output<typeof FaultConfigSchema>;

/** What happens to one request. */
export interface FaultDecision {
  /** The error status sent instead of an answer, if any. */
  error?: 'rate_limit' | 'server_error';
  slow: boolean;
  malformedToolCall: boolean;
}

export const NO_FAULT: FaultDecision = { slow: false, malformedToolCall: false };

/** Three uniform numbers in [0, 1) determined by the seed, the session key and the request number. */
function draws(seed: number, key: string, request: number): [number, number, number] {
  const digest = createHash('sha256').update(`${seed}\0${key}\0${request}`).digest();
  const u = (offset: number) => digest.readUInt32BE(offset) / 2 ** 32;
  return [u(0), u(4), u(8)];
}

export function decideFault(config: ResolvedFaultConfig, seed: number, key: string, request: number): FaultDecision {
  const scripted = config.sequence[request];
  if (scripted !== undefined) {
    switch (scripted) {
      case 'none':
        return NO_FAULT;
      case 'rate_limit':
      case 'server_error':
        return { error: scripted, slow: false, malformedToolCall: false };
      case 'slow':
        return { slow: true, malformedToolCall: false };
      case 'malformed_tool_call':
        return { slow: false, malformedToolCall: true };
    }
  }
  const [status, slow, malformed] = draws(seed, key, request);
  const decision: FaultDecision = {
    slow: slow < config.slow,
    malformedToolCall: malformed < config.malformedToolCall,
  };
  if (status < config.rateLimit) decision.error = 'rate_limit';
  else if (status < config.rateLimit + config.serverError) decision.error = 'server_error';
  return decision;
}

/** Breaks a tool call's JSON the way a truncated generation does: the closing brace goes missing. */
export function corruptArguments(json: string): string {
  const trimmed = json.trimEnd();
  return trimmed.length > 1 ? trimmed.slice(0, -1) : '{';
}
