import { UserError } from '../../core/errors.js';
import { parseModelSpec, type ModelSpec } from '../../models/index.js';
import { SCRIPTED_INTERVIEW_JUDGES } from '../../simulated/policies/interview-judge.js';
import type { Experiment } from '../settings/config.js';

const JUDGE_NAMES = Object.keys(SCRIPTED_INTERVIEW_JUDGES).map((n) => `scripted/${n}`);

/**
 * The run's `--interview-judge`, checked before anything runs: it reads interview answers, so it needs --interview,
 * and a scripted judge must be one (an agent's policy does not judge).
 */
export function interviewJudgeSpec(experiment: Pick<Experiment, 'interview' | 'interviewJudge'>): ModelSpec | undefined {
  const judge = experiment.interviewJudge;
  if (judge === undefined) return undefined;
  if (!experiment.interview) {
    throw new UserError(`--interview-judge ${judge} reads interview answers, and this run asks none`, 'add --interview (or drop --interview-judge)');
  }
  const spec = parseModelSpec(judge);
  if (spec.provider === 'scripted' && !Object.hasOwn(SCRIPTED_INTERVIEW_JUDGES, spec.name)) {
    throw new UserError(
      `--interview-judge ${judge}: scripted/${spec.name} is not an interview judge`,
      `use ${JUDGE_NAMES.join(', ')}, or a real model`,
    );
  }
  return spec;
}
