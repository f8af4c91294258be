import type { Config } from '@backstage/config';
import type { AnswerOptions } from './answerQuestion';

/**
 * Reads `askDocs.answer` (all optional):
 * `{ maxContextChars, maxBlocks, maxEvidence, verifyClaims, minClaimOverlap }`.
 * Unset keys stay unset so answerQuestion's defaults apply.
 */
export function readAnswerOptions(
  config: Config,
): Pick<
  AnswerOptions,
  | 'maxContextChars'
  | 'maxBlocks'
  | 'maxEvidence'
  | 'verifyClaims'
  | 'minClaimOverlap'
> {
  const answer = config.getOptionalConfig('askDocs.answer');
  if (!answer) return {};
  const positive = (key: string) => {
    const value = answer.getOptionalNumber(key);
    if (value !== undefined && !(value > 0)) {
      throw new Error(`askDocs.answer.${key} must be positive, got ${value}`);
    }
    return value;
  };
  const minClaimOverlap = answer.getOptionalNumber('minClaimOverlap');
  if (
    minClaimOverlap !== undefined &&
    !(minClaimOverlap >= 0 && minClaimOverlap <= 1)
  ) {
    throw new Error(
      `askDocs.answer.minClaimOverlap must be between 0 and 1, got ${minClaimOverlap}`,
    );
  }
  const options = {
    maxContextChars: positive('maxContextChars'),
    maxBlocks: positive('maxBlocks'),
    maxEvidence: positive('maxEvidence'),
    verifyClaims: answer.getOptionalBoolean('verifyClaims'),
    minClaimOverlap,
  };
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as ReturnType<typeof readAnswerOptions>;
}
