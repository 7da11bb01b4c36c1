import type { Logger } from 'pino';
import type { Policy, PolicyContext } from '../policy.js';
import type { FaultConfig, FaultKind } from './faults.js';

export interface ModelServerOptions {
  /** Default 127.0.0.1; the server is for this machine only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /**
   * A path the server is mounted under (`/proxy/anthropic`), as a gateway serves a provider: every route is answered
   * only below it, and the base URLs given back carry it. Default: none.
   */
  pathPrefix?: string;
  /** Compresses JSON answers with gzip when the client accepts it, as the providers' front ends do. Default: off. */
  gzip?: boolean;
  /** How long a batch (OpenAI Batch API, Message Batches) waits before its requests are answered. Default 0. */
  batchDelayMs?: number;
  /** Seeds fault injection. Default 0. */
  seed?: number;
  /** Fault rates for every session that does not bring its own. Default: no faults. */
  faults?: FaultConfig;
  logger?: Logger;
}

export interface SessionOptions {
  /** Names the session in fault draws, so the same key sees the same faults on every run. Default: the opening order. */
  key?: string;
  /** Replaces the server's fault config for this session. */
  faults?: FaultConfig;
}

export interface SessionStats {
  key: string;
  /** Requests that reached the session, retries included. */
  requests: number;
  /** Answers the policy gave. */
  answered: number;
  /** Faults injected, by request number (0-based). */
  faults: { request: number; kind: Exclude<FaultKind, 'none'> }[];
  /** Responses requests that carried the reasoning item of the session's previous answer back (see responses-wire.ts). */
  reasoningCarried: number;
  /** The generation settings of the latest request as they arrived on the wire (model, sampling, budgets). */
  lastParams?: Record<string, unknown>;
  /** The `cache_control` breakpoints of the latest Messages request, by where they fall (see cache.ts). */
  lastCacheBreakpoints?: number[];
  /**
   * Set when an agent CLI (Codex CLI, Claude Code) drives the session (see cli-dialect.ts). `answered` then counts the
   * policy's turns only: not the side requests answered, nor the calls that only prepare a policy's call.
   */
  cli?: {
    dialect: 'codex' | 'claude-code';
    sideAnswers: number;
    preparatoryCalls: number;
    /** Why the server ended the conversation itself (a policy asking again for a tool the CLI does not have). */
    stopped?: string;
  };
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, and the path prefix when mounted under one. */
  readonly url: string;
  /** Base URL for the OpenAI SDK (`…/v1`). */
  readonly openaiBaseUrl: string;
  /** Base URL for the Anthropic SDK (it appends `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** Opens a conversation driven by `policy`; the returned token is the client's API key. */
  openSession(policy: Policy, context: PolicyContext, options?: SessionOptions): string;
  closeSession(token: string): void;
  sessionStats(token: string): SessionStats | undefined;
  /** Requests served so far, the most that were ever in flight at once, and those answered gzip'd (`gzip`). */
  stats(): { requests: number; inFlight: number; maxInFlight: number; gzipped: number };
  /** The batches a session made, and the requests they held, retries of expired ones included. */
  batchStats(token: string): { created: number; requests: number };
  /** Stops listening, drops open connections and pending slow answers. Idempotent. */
  close(): Promise<void>;
}
