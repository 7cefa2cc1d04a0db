import { makeScore, type Score } from '../../score.js'
import type { SignatureValue } from '../../signature.js'
import type { JudgeTemplate } from '../templates/template.js'
import type { Judge } from '../types.js'
import { CallRecorder, judgeSignature, repeated, type JudgeDetailsBase, type RunResult } from './shared.js'

/**
 * The frame every judge metric runs in: one {@link CallRecorder} for all runs, `once` repeated for the
 * self-consistency seeds, then the Score with the first run's details followed by the judge settings,
 * the call stats and (when `repeat > 1`) the consistency. The signature is built after the runs, from
 * `judgeSignature(template, judge, repeat, signatureExtras)`.
 */
export async function judgedScore<D extends object>(
  metric: string,
  template: JudgeTemplate,
  judge: Judge,
  repeat: number,
  signatureExtras: ReadonlyArray<readonly [string, SignatureValue]>,
  once: (recorder: CallRecorder, seed: number) => Promise<RunResult<D>>,
): Promise<Score<D & JudgeDetailsBase>> {
  const recorder = new CallRecorder(judge)
  const result = await repeated(judge, repeat, (seed) => once(recorder, seed))
  return makeScore(metric, result.value, judgeSignature(template, judge, repeat, signatureExtras), {
    ...result.details,
    model: judge.model,
    temperature: judge.temperature,
    seed: judge.seed,
    calls: recorder.stats(),
    ...(result.consistency === undefined ? {} : { consistency: result.consistency }),
  })
}
