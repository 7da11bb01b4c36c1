import type { MonitorStatus } from './verdict.js';

export interface ParsedAnswer {
  status: MonitorStatus;
  /** Set only when `scored`. */
  score: number | null;
  reason: string;
}

/** `SCORE: 42`, forgiving markdown around it (`**Score:** 42`, `SCORE: 42/100`); anything else on the line makes it no score line. */
const SCORE_RE = /^[\s*_`#>-]*score[\s*_`]*:[\s*_`]*(.*?)[\s*_`.]*$/i;
const NUMBER_RE = /^([+-]?\d+(?:\.\d+)?)(?:\s*\/\s*100)?$/;
const REASON_RE = /^[\s*_`#>-]*reason[\s*_`]*:[\s*_`]*(.*)$/i;
/** How refusals open: an answer that declines to review, with no score line. */
const REFUSAL_RE =
  /^\W*(i'?m sorry|i am sorry|sorry,|i can(?:'|no)t|i cannot|i won'?t|i will not|i am (?:not able|unable)|i'm (?:not able|unable)|as an ai)/i;
/** Provider stop reasons that mean the model declined. */
const REFUSAL_STOPS = new Set(['refusal', 'content_filter']);

/**
 * Reads a monitor's answer strictly. A score comes only from the answer's score lines, and all of
 * them must agree; a line saying `SCORE:` with no number, an answer without one, or lines that
 * disagree are `unparseable`; a number outside 0 to 100 is `out-of-range`; an empty answer, a
 * provider refusal or an answer that declines with no score line is `refused`. Nothing is guessed.
 */
export function parseMonitorAnswer(answer: string, stopReason = ''): ParsedAnswer {
  const text = answer.trim();
  if (!text) return { status: 'refused', score: null, reason: 'the answer was empty' };
  const lines = text.split('\n');
  const said = lines.map((l) => SCORE_RE.exec(l)?.[1]).filter((v): v is string => v !== undefined);
  if (said.length === 0) {
    if (REFUSAL_STOPS.has(stopReason) || REFUSAL_RE.test(text))
      return { status: 'refused', score: null, reason: 'the model declined to review the sample' };
    return { status: 'unparseable', score: null, reason: 'the answer has no SCORE line' };
  }
  const numbers = said.map((v) => NUMBER_RE.exec(v.trim())?.[1]);
  if (numbers.some((n) => n === undefined))
    return {
      status: 'unparseable',
      score: null,
      reason: `a SCORE line holds no number: "${said.find((_, i) => numbers[i] === undefined)!.slice(0, 80)}"`,
    };
  const values = [...new Set(numbers.map(Number))];
  if (values.length > 1) return { status: 'unparseable', score: null, reason: `the SCORE lines disagree: ${values.join(', ')}` };
  const score = values[0]!;
  if (!Number.isFinite(score) || score < 0 || score > 100)
    return { status: 'out-of-range', score: null, reason: `the score ${score} is outside 0 to 100` };
  return { status: 'scored', score, reason: reasonOf(lines) };
}

/** The REASON line's text, else the answer's other lines. */
function reasonOf(lines: string[]): string {
  const marked = lines.map((l) => REASON_RE.exec(l)?.[1]?.trim()).find((r) => r);
  if (marked) return marked.slice(0, 1000);
  return lines
    .filter((l) => !SCORE_RE.test(l))
    .join('\n')
    .trim()
    .slice(0, 1000);
}
