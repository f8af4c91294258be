import { ConfigReader } from '@backstage/config';
import { Config } from '@backstage/config';
import { readAskDocsConfig } from '../settings';

const readAnswerOptions = (config: Config) =>
  readAskDocsConfig(config).answer.options;

describe('readAnswerOptions', () => {
  it('is empty without askDocs.answer, so defaults apply', () => {
    expect(readAnswerOptions(new ConfigReader({}))).toEqual({});
  });

  it('reads the configured values only', () => {
    expect(
      readAnswerOptions(
        new ConfigReader({
          askDocs: { answer: { maxContextChars: 8000, verifyClaims: true } },
        }),
      ),
    ).toEqual({ maxContextChars: 8000, verifyClaims: true });
  });

  it('rejects nonsensical values', () => {
    expect(() =>
      readAnswerOptions(
        new ConfigReader({ askDocs: { answer: { maxBlocks: 0 } } }),
      ),
    ).toThrow(/maxBlocks/);
    expect(() =>
      readAnswerOptions(
        new ConfigReader({ askDocs: { answer: { minClaimOverlap: 2 } } }),
      ),
    ).toThrow(/minClaimOverlap/);
  });
});
