import { screen, within } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { groundedResponse } from '../../testUtils/fixtures';
import { AnswerText } from './AnswerText';

describe('AnswerText', () => {
  it('sets inline code in monospace and keeps markers inside code literal', async () => {
    await renderInTestApp(
      <AnswerText
        text="Run `deployctl rollback [Release process]` then see [Release process]."
        sources={groundedResponse.sources}
      />,
    );
    const text = screen.getByTestId('ask-docs-answer-text');
    const code = text.querySelector('code');
    expect(code).toHaveTextContent('deployctl rollback [Release process]');
    expect(within(code as HTMLElement).queryByRole('link')).toBeNull();
    expect(within(text).getAllByRole('link')).toHaveLength(1);
    expect(text).toHaveTextContent(
      'Run deployctl rollback [Release process] then see [Release process].',
    );
  });

  it('links two sections of one source to their own anchors', async () => {
    const [source] = groundedResponse.sources;
    const page = source.url.split('#')[0];
    await renderInTestApp(
      <AnswerText
        text="Roll back [Release process › Rollback]. Canary first [Release process › Canary]."
        sources={[
          {
            ...source,
            citations: [
              { label: 'Release process › Rollback', url: source.url },
              { label: 'Release process › Canary', url: `${page}#canary` },
            ],
          },
        ]}
      />,
    );
    const canary = screen.getByRole('link', {
      name: 'Release process › Canary',
    });
    expect(canary).toHaveAttribute('href', `${page}#canary`);
    // Its tooltip must not name the section the source shows (Rollback).
    expect(canary).toHaveAttribute('title', 'Release process');
    expect(
      screen.getByRole('link', { name: 'Release process › Rollback' }),
    ).toHaveAttribute('href', source.url);
  });

  it('names the source and section in the tooltip without repeating the title', async () => {
    const [source] = groundedResponse.sources;
    await renderInTestApp(
      <AnswerText
        text="Roll back [Release process › Rollback]. Or [Overview]."
        sources={[
          source,
          { ...source, title: 'Overview', sectionPath: 'Overview', url: '/o' },
        ]}
      />,
    );
    // sectionPath is 'Release process › Rollback': it already starts with the title.
    expect(
      screen.getByRole('link', { name: 'Release process › Rollback' }),
    ).toHaveAttribute('title', 'Release process › Rollback');
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'title',
      'Overview',
    );
  });

  it('renders text without markers unchanged', async () => {
    await renderInTestApp(
      <AnswerText text={'Line one\nline two'} sources={[]} />,
    );
    expect(screen.getByTestId('ask-docs-answer-text').textContent).toBe(
      'Line one\nline two',
    );
  });
});
