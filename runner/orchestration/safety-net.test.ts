import { describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../settings/config.js';
import { safetyNetMs } from './sample.js';

describe("the time limit's safety net", () => {
  const base = ExperimentSchema.parse({ models: ['scripted/honest'], limits: { timeLimitS: 600, requestTimeoutS: 120 } });

  it('gives a minute past the limit, and a request timeout more for the interview and for its judge', () => {
    expect(safetyNetMs(base, 600_000)).toBe(660_000);
    expect(safetyNetMs({ ...base, interview: true }, 600_000)).toBe(780_000);
    expect(safetyNetMs({ ...base, interview: true, interviewJudge: 'scripted/interview-judge' }, 600_000)).toBe(900_000);
  });
});
