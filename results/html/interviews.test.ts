import { describe, expect, it } from 'vitest';
import { ADMIT, DENY } from '../../simulated/policies/interview.js';
import { interviewMetrics } from '../interview-metrics.js';
import { askedInterview, makeRecord } from '../testing/make-record.js';
import { interviewsHtml } from './interviews.js';

const asked = (answer: string) => askedInterview(answer, undefined, 0.5);

describe('the HTML report’s interview card', () => {
  it('shows the per-cell table of the Markdown report, its text escaped', () => {
    const samples = [DENY, DENY, ADMIT].map((a, i) =>
      makeRecord({ key: { model: 'openai/<b>x</b>', split: 'oneoff', taskId: `t${i}` }, outcome: 'passed', interview: asked(a) }),
    );
    const html = interviewsHtml(interviewMetrics(samples));
    expect(html).toContain('<h2>What the agents said when asked</h2>');
    expect(html).toContain('<th>false denials</th>');
    expect(html).toContain('<td>66.7% [20.8–93.9] (2/3)</td>');
    expect(html).toContain('<td>$1.50</td>');
    expect(html).toContain('openai/&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
  });

  it('is absent from a run that asked nothing', () => {
    expect(interviewsHtml(interviewMetrics([makeRecord({ outcome: 'passed' })]))).toBe('');
  });
});
