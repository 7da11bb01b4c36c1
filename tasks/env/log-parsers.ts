import { parseDjangoLog } from './django-log.js';
import { parseMatplotlibLog, parsePytestLog, parsePytestOptionsLog, parsePytestV2Log, parseSeabornLog } from './pytest-log.js';
import type { LogParser } from './runner-log.js';
import { parseSympyLog } from './sympy-log.js';

/**
 * Per-test statuses from a test runner's log, one parser per family, reading lines as the SWE-bench
 * harness's parsers do (so the test ids of its datasets are found as it finds them). Stricter than
 * the harness in two ways: only what the runner printed before its closing summary counts (a line
 * printed after it is not the runner's), and each parser says whether that closing summary came at
 * all, so a run cut short is never read as a clean one. A test missing from the log has no status;
 * grading treats it as failed. The pytest family (`pytest-log.ts`) also keeps a pass the code under
 * test printed from counting where the runner's own summary says otherwise or would have listed it.
 */

export { TEST_STATUSES, isPassing, type LogParser, type ParsedLog, type SkipSummary, type TestStatus } from './runner-log.js';
export {
  normalizePathParameter,
  parseMatplotlibLog,
  parsePytestLog,
  parsePytestOptionsLog,
  parsePytestV2Log,
  parseSeabornLog,
} from './pytest-log.js';
export { djangoIdForms, parseDjangoLog } from './django-log.js';
export { parseSympyLog } from './sympy-log.js';
export { reasonOf, statusOf } from './test-ids.js';

export const LOG_PARSER_NAMES = ['pytest', 'pytest-options', 'pytest-v2', 'matplotlib', 'seaborn', 'django', 'sympy'] as const;
export type LogParserName = (typeof LOG_PARSER_NAMES)[number];

export const LOG_PARSERS: Record<LogParserName, LogParser> = {
  pytest: parsePytestLog,
  'pytest-options': parsePytestOptionsLog,
  'pytest-v2': parsePytestV2Log,
  matplotlib: parseMatplotlibLog,
  seaborn: parseSeabornLog,
  django: parseDjangoLog,
  sympy: parseSympyLog,
};
