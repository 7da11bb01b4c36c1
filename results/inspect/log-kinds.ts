import { genericLogKind } from './generic-kind.js';
import { harnessLogKind } from './harness-kind.js';
import type { LogKind } from './log-kind.js';
import { ourLogKind } from './our-kind.js';

/** The kinds of log the import knows, in the order tried: the first that matches a log's header reads it. */
export const LOG_KINDS: LogKind[] = [ourLogKind, harnessLogKind, genericLogKind];

export const logKindOf = (header: Parameters<LogKind['matches']>[0]): LogKind => LOG_KINDS.find((k) => k.matches(header))!;
