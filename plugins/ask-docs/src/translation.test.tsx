import { PropsWithChildren } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, renderTestApp } from '@backstage/frontend-test-utils';
import { MockErrorApi, mockApis } from '@backstage/test-utils';
import { AppRouter, createSpecializedApp } from '@backstage/core-app-api';
import type { AppIcons, AppOptions } from '@backstage/core-app-api';
import { createApiFactory, errorApiRef } from '@backstage/core-plugin-api';
import {
  createTranslationMessages,
  coreApis,
} from '@backstage/frontend-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  MODEL_FOUND_NO_ANSWER_NOTICE,
  UNCITED_ANSWER_NOTICE,
  REDACTED_ANSWER_TEXT,
  REDACTED_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import type {
  AnswerRecord,
  AskStreamEvent,
  IngestionProgress,
} from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from './api/AskDocsApi';
import {
  IncompleteStreamError,
  InvalidAnswerIdError,
  MalformedStreamError,
} from './api/errors';
import type { AskDocsApi } from './api/AskDocsApi';
import askDocsPlugin from './alpha';
import { AnswerView } from './components/AnswerView';
import { AskDocsPanel } from './components/AskDocsPanel';
import { HistoryList } from './components/HistoryList';
import { IngestionProgressPanel } from './components/IngestionProgressPanel';
import {
  evidenceOnlyResponse,
  groundedResponse,
  notInKbResponse,
  recordOf,
} from './testUtils/fixtures';
import { controllableStream, mockAskDocsApi } from './testUtils/mockApi';
import { askDocsTranslationRef } from './translation';
import cs from './translations/cs';

/** The new frontend system's app config that offers Czech and starts in it. */
const czechConfig = {
  app: {
    baseUrl: 'http://localhost:3000',
    extensions: [
      {
        'api:app/app-language': {
          config: { availableLanguages: ['en', 'cs'], defaultLanguage: 'cs' },
        },
      },
    ],
  },
  backend: { baseUrl: 'http://localhost:7007' },
};

/** Renders in a new-frontend-system test app whose language is Czech. */
function renderInCzech(element: JSX.Element, api: AskDocsApi) {
  return renderInTestApp(element, {
    config: czechConfig,
    apis: [[askDocsApiRef, api]],
  });
}

/** English and Czech texts that are the same; a Czech UI may show these. */
const IDENTICAL_IN_BOTH: string[] = [];

/** The English default of every message: the Czech file has every key (the ref checks it). */
function englishMessages(): Array<[key: string, text: string]> {
  const { t } = mockApis.translation().getTranslation(askDocsTranslationRef);
  // The keys include Czech-only plural forms, which English lacks (t answers with the key).
  const lookUp = t as unknown as (key: string) => string;
  return Object.keys(cs)
    .map((key): [string, string] => [key, lookUp(key)])
    .filter(([key, text]) => text !== key);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English texts' words as they would show: the parts between placeholders, as phrases. */
const ENGLISH = englishMessages()
  .filter(([key]) => !IDENTICAL_IN_BOTH.includes(key))
  .flatMap(([, text]) => text.split(/{{[^}]*}}/))
  .map(part => part.trim())
  .filter(part => /\p{L}{2}/u.test(part))
  .map(part => ({
    part,
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}])${escape(part)}(?![\\p{L}\\p{N}])`,
      'u',
    ),
  }));

/** What a user reads or hears: every text node, and the labels of controls. */
function visibleTexts(): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
  for (const attribute of ['aria-label', 'title', 'placeholder']) {
    document.body.querySelectorAll(`[${attribute}]`).forEach(element => {
      texts.push(element.getAttribute(attribute) ?? '');
    });
  }
  return texts;
}

function expectNoEnglish() {
  const shown = visibleTexts();
  const found = ENGLISH.filter(({ pattern }) =>
    shown.some(text => pattern.test(text)),
  ).map(({ part }) => part);
  expect(found).toEqual([]);
}

/** An error response whose body is a proxy's page, not a Backstage error. */
function badGateway() {
  return ResponseError.fromResponse(
    new Response('<html>Bad Gateway</html>', {
      status: 502,
      statusText: 'Bad Gateway',
    }),
  );
}

/** Documents in Czech, as the product's adopters have them. */
const czechSource = {
  ...groundedResponse.sources[0],
  title: 'Proces vydání',
  sectionPath: 'Proces vydání › Návrat zpět',
  snippet: 'Příkaz release rollback <verze> obnoví předchozí sestavení.',
};

function outdated(title: string) {
  return {
    documentId: `doc-${title}`,
    title,
    answeredRevision: 'r1',
    currentRevision: 'r2',
  };
}

function czechAnswer(extra: Partial<AnswerRecord> = {}): AnswerRecord {
  return recordOf(
    {
      ...groundedResponse,
      answer: 'Vydání vrátíte nástrojem release [Proces vydání › Návrat zpět].',
      sources: [czechSource],
    },
    extra,
  );
}

afterEach(() => {
  // The app's language selector remembers the language here.
  localStorage.clear();
});

describe('ask-docs translations', () => {
  it('has a Czech text for every English message, different from the English one', () => {
    const identical = englishMessages()
      .filter(([key, text]) => cs[key as keyof typeof cs] === text)
      .map(([key]) => key);
    expect(identical).toEqual(IDENTICAL_IN_BOTH);
    expect(ENGLISH.length).toBeGreaterThan(60);
  });

  it('shows the ask panel in Czech: question box, progress, errors', async () => {
    const stream = controllableStream();
    const failed = await badGateway();
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockReturnValueOnce(stream.iterable)
        .mockImplementationOnce(
          async function* fails(): AsyncGenerator<AskStreamEvent> {
            throw failed;
          },
        )
        .mockImplementationOnce(
          async function* endsEarly(): AsyncGenerator<AskStreamEvent> {
            yield { type: 'status', phase: 'generating' };
            throw new IncompleteStreamError();
          },
        ),
    });
    renderInCzech(<AskDocsPanel />, api);

    const input = await screen.findByLabelText('Položte otázku k dokumentaci');
    expect(input).toHaveAttribute(
      'placeholder',
      'Jak vrátit vydání na předchozí verzi?',
    );
    expectNoEnglish();

    await userEvent.type(input, 'Jak vrátit vydání?');
    await userEvent.click(screen.getByRole('button', { name: 'Zeptat se' }));
    expect(await screen.findByTestId('ask-docs-streaming')).toHaveTextContent(
      'Prohledává se dokumentace…',
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute(
      'aria-label',
      'Prohledává se dokumentace…',
    );
    expectNoEnglish();

    act(() =>
      stream.push({
        type: 'error',
        message: 'Interní chyba serveru',
        requestId: 'req-42',
      }),
    );
    const alert = await screen.findByTestId('ask-docs-state-error');
    expect(alert).toHaveTextContent('Na otázku se nepodařilo odpovědět');
    expect(alert).toHaveTextContent('ID požadavku req-42');
    expectNoEnglish();

    await userEvent.click(
      within(alert).getByRole('button', { name: 'Zkusit znovu' }),
    );
    expect(await screen.findByTestId('ask-docs-state-error')).toHaveTextContent(
      'Požadavek selhal (502 Bad Gateway)',
    );
    expectNoEnglish();

    await userEvent.click(screen.getByRole('button', { name: 'Zkusit znovu' }));
    expect(await screen.findByTestId('ask-docs-state-error')).toHaveTextContent(
      'Přenos odpovědi skončil předčasně; odpověď není úplná',
    );
    expectNoEnglish();
  });

  it('shows an answer with its sources, corrections and outdated documents in Czech', async () => {
    const answer = czechAnswer({
      corrections: [{ from: 'vydaní', to: 'vydání' }],
      outdatedSources: [outdated('Proces vydání'), outdated('Nasazení')],
    });
    renderInCzech(<AnswerView response={answer} />, mockAskDocsApi());

    const sources = await screen.findByTestId('ask-docs-sources');
    expect(within(sources).getByRole('heading')).toHaveTextContent('Zdroje');
    expect(screen.getByTestId('ask-docs-corrections')).toHaveTextContent(
      'Hledal se výraz vydání místo vydaní',
    );
    expect(screen.getByTestId('ask-docs-outdated')).toHaveTextContent(
      '2 citované dokumenty mají novější revizi: Proces vydání, Nasazení. ' +
        'Odpověď proto může být zastaralá; pro aktuální odpověď se zeptejte znovu.',
    );
    expectNoEnglish();
  });

  it('shows the feedback buttons, their thanks and their error in Czech', async () => {
    const failed = await badGateway();
    const api = mockAskDocsApi({
      sendFeedback: jest
        .fn()
        .mockRejectedValueOnce(failed)
        .mockResolvedValueOnce(undefined),
    });
    renderInCzech(<AnswerView response={czechAnswer()} />, api);

    const feedback = await screen.findByTestId('ask-docs-feedback');
    expect(feedback).toHaveTextContent('Pomohla vám tato odpověď?');
    expectNoEnglish();

    await userEvent.click(screen.getByRole('button', { name: 'Pomohla' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Zpětnou vazbu se nepodařilo uložit: Požadavek selhal (502 Bad Gateway)',
    );
    expectNoEnglish();

    await userEvent.click(screen.getByRole('button', { name: 'Nepomohla' }));
    expect(
      await screen.findByText('Děkujeme za zpětnou vazbu.'),
    ).toBeInTheDocument();
    expect(feedback).toHaveTextContent(
      'Podle vašeho hodnocení odpověď nepomohla.',
    );
    expectNoEnglish();
  });

  it("shows the client's own errors in Czech, without what the stream sent", async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(
        async function* garbled(): AsyncGenerator<AskStreamEvent> {
          throw new MalformedStreamError();
        },
      ),
      listAnswers: jest.fn(async () => [
        recordOf(notInKbResponse, {
          id: '..',
          question: 'Kdo vlastní platby?',
        }),
      ]),
      getAnswer: jest.fn(async (id: string) => {
        throw new InvalidAnswerIdError(id);
      }),
    });
    renderInCzech(<AskDocsPanel showHistory />, api);

    await userEvent.type(
      await screen.findByLabelText('Položte otázku k dokumentaci'),
      'Jak vrátit vydání?',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Zeptat se' }));
    expect(await screen.findByTestId('ask-docs-state-error')).toHaveTextContent(
      cs['errors.malformedStream'],
    );
    expectNoEnglish();

    await userEvent.click(await screen.findByText('Kdo vlastní platby?'));
    const history = screen.getByTestId('ask-docs-history');
    expect(await within(history).findByRole('alert')).toHaveTextContent(
      cs['errors.invalidAnswerId'],
    );
    expectNoEnglish();
  });

  it("shows the UI's Czech text for the backend's fixed not-in-knowledge-base reply", async () => {
    renderInCzech(<AnswerView response={notInKbResponse} />, mockAskDocsApi());

    const state = await screen.findByTestId('ask-docs-state-not-in-kb');
    expect(state).toHaveTextContent('Není ve znalostní bázi');
    expect(state).toHaveTextContent(
      'Tato informace ve znalostní bázi není. Na otázku neodpovídá žádný dokument, ' +
        'ke kterému máte přístup.',
    );
    expectNoEnglish();
  });

  it('shows evidence-only and redacted answers in Czech', async () => {
    const evidence = {
      ...evidenceOnlyResponse,
      notice: undefined,
      evidence: [{ ...evidenceOnlyResponse.evidence[0], title: 'Nasazení' }],
    };
    const { unmount } = renderInCzech(
      <AnswerView response={evidence} hideFeedback />,
      mockAskDocsApi(),
    );
    const state = await screen.findByTestId('ask-docs-state-evidence-only');
    expect(state).toHaveTextContent(
      'Nejde o odpověď: jazykový model není dostupný.',
    );
    expect(state).toHaveTextContent('Relevantní pasáže');
    expectNoEnglish();
    unmount();

    const redacted = czechAnswer({
      grounded: false,
      answer: REDACTED_ANSWER_TEXT,
      notice: REDACTED_NOTICE,
      redacted: { sources: 0, evidence: 0, corrections: 0, answerText: true },
    });
    renderInCzech(
      <AnswerView response={redacted} hideFeedback />,
      mockAskDocsApi(),
    );
    expect(await screen.findByTestId('ask-docs-redacted')).toHaveTextContent(
      'Části této odpovědi jsou skryté',
    );
    const redactedState = screen.getByTestId('ask-docs-state-evidence-only');
    expect(
      within(redactedState).getByText('Odpověď je skrytá'),
    ).toBeInTheDocument();
    expect(redactedState).toHaveTextContent(
      'Tato odpověď je skrytá: vycházela z dokumentů',
    );
    expectNoEnglish();
  });

  it.each([
    ['no_model', 'answerView.evidenceOnly.message'],
    ['model_failed', 'answerView.evidenceOnly.message'],
    ['context_too_large', 'answerView.reasons.contextTooLarge'],
    ['uncited_answer', 'answerView.reasons.uncitedAnswer'],
    ['unsupported_answer', 'answerView.reasons.unsupportedAnswer'],
  ] as const)(
    'says in Czech why there is no model answer (%s), never in the English notice',
    async (reason, key) => {
      const englishNotice =
        'Not an answer: you have had 20 language model answers in the last hour.';
      const response = {
        ...evidenceOnlyResponse,
        answer: englishNotice,
        notice: englishNotice,
        reason,
        evidence: [{ ...evidenceOnlyResponse.evidence[0], title: 'Nasazení' }],
      };
      renderInCzech(
        <AnswerView response={response} hideFeedback />,
        mockAskDocsApi(),
      );
      const state = await screen.findByTestId('ask-docs-state-evidence-only');
      expect(state).toHaveTextContent(cs[key]);
      expect(state).not.toHaveTextContent('Not an answer');
      expectNoEnglish();
    },
  );

  it('says in Czech that the quota is used up, with its limit and window', async () => {
    const englishNotice =
      'Not an answer: you have had 20 language model answers in the last 24 hours.';
    const response = {
      ...evidenceOnlyResponse,
      answer: englishNotice,
      notice: englishNotice,
      reason: 'quota_exceeded' as const,
      quota: { calls: 20, windowSeconds: 86_400 },
      evidence: [{ ...evidenceOnlyResponse.evidence[0], title: 'Nasazení' }],
    };
    renderInCzech(
      <AnswerView response={response} hideFeedback />,
      mockAskDocsApi(),
    );
    const state = await screen.findByTestId('ask-docs-state-evidence-only');
    expect(state).toHaveTextContent(
      'váš limit odpovědí jazykového modelu na tomto portálu (20 / 24 hodin) je vyčerpán',
    );
    expect(state).not.toHaveTextContent('Not an answer');
    expectNoEnglish();
  });

  it('words an answer recorded before `reason` existed by its fixed notice', async () => {
    const response = {
      ...evidenceOnlyResponse,
      answer: UNCITED_ANSWER_NOTICE,
      notice: UNCITED_ANSWER_NOTICE,
      evidence: [{ ...evidenceOnlyResponse.evidence[0], title: 'Nasazení' }],
    };
    renderInCzech(
      <AnswerView response={response} hideFeedback />,
      mockAskDocsApi(),
    );
    const state = await screen.findByTestId('ask-docs-state-evidence-only');
    expect(state).toHaveTextContent(cs['answerView.reasons.uncitedAnswer']);
    expectNoEnglish();
  });

  it('says in Czech that the passages the model read hold no answer', async () => {
    const response = {
      ...notInKbResponse,
      notice: MODEL_FOUND_NO_ANSWER_NOTICE,
      reason: 'model_found_no_answer' as const,
    };
    renderInCzech(<AnswerView response={response} />, mockAskDocsApi());
    const state = await screen.findByTestId('ask-docs-state-not-in-kb');
    expect(state).toHaveTextContent(
      cs['answerView.reasons.modelFoundNoAnswer'],
    );
    expectNoEnglish();
  });

  it('shows the history in Czech, its dates as Czech dates', async () => {
    const items = [
      czechAnswer({ id: 'a-1', question: 'Jak vrátit vydání?' }),
      recordOf(notInKbResponse, { id: 'a-2', question: 'Kdo vlastní platby?' }),
      recordOf(
        { ...evidenceOnlyResponse, notice: undefined },
        { id: 'a-3', question: 'Jak nasadit?', askedVia: 'plugin:chat-bot' },
      ),
    ];
    const api = mockAskDocsApi({ listAnswers: jest.fn(async () => items) });
    renderInCzech(<HistoryList limit={3} />, api);

    const history = await screen.findByTestId('ask-docs-history');
    expect(
      await within(history).findByRole('heading', {
        name: 'Vaše předchozí otázky',
      }),
    ).toBeInTheDocument();
    const [answered, notInKb, evidenceOnly] = await screen.findAllByTestId(
      'ask-docs-history-item',
    );
    const date = new Date(items[0].createdAt).toLocaleString('cs');
    expect(answered).toHaveTextContent(`Zodpovězeno · ${date}`);
    expect(notInKb).toHaveTextContent('Není ve znalostní bázi');
    expect(evidenceOnly).toHaveTextContent(
      'Jen relevantní pasáže · ' +
        `${new Date(items[2].createdAt).toLocaleString('cs')} · ` +
        'položena prostřednictvím plugin:chat-bot',
    );
    expect(
      screen.getByRole('button', { name: 'Zobrazit starší otázky' }),
    ).toBeInTheDocument();
    expectNoEnglish();
  });

  it('shows an empty history in Czech', async () => {
    renderInCzech(<HistoryList />, mockAskDocsApi());
    expect(await screen.findByText('Zatím žádné otázky.')).toBeInTheDocument();
    expectNoEnglish();
  });

  it('shows the ingestion progress in Czech, its numbers and dates as Czech ones', async () => {
    const progress: IngestionProgress = {
      runId: 3,
      status: 'running',
      trigger: 'schedule',
      startedAt: '2026-12-03T10:00:00.000Z',
      entitiesDone: 4,
      pagesDone: 1234,
      pagesSkipped: 2,
      chunksWritten: 5,
      chunksEmbedded: 5,
      chunksDeleted: 0,
      chunksReanalysed: 0,
      errors: [
        { entityRef: 'component:default/rozbita', message: 'chybí mkdocs.yml' },
      ],
    };
    const failed = await badGateway();
    const api = mockAskDocsApi({
      getIngestionProgress: jest
        .fn()
        .mockResolvedValueOnce(progress)
        .mockRejectedValueOnce(failed),
    });
    renderInCzech(<IngestionProgressPanel pollIntervalMs={60_000} />, api);

    const panel = await screen.findByTestId('ask-docs-ingestion');
    const started = new Date(progress.startedAt!).toLocaleString('cs');
    expect(panel).toHaveTextContent(
      `Běh 3: probíhá (plánovaný) zahájen ${started}`,
    );
    expect(screen.getByText('Indexování znalostní báze')).toBeInTheDocument();
    expect(
      screen.getByText('Viditelné pouze pro administrátory'),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute(
      'aria-label',
      'Probíhá indexování',
    );
    const pages = screen.getByTestId('ask-docs-ingestion-pages-done');
    expect(pages).toHaveTextContent('Zpracované stránky');
    // Czech groups thousands with a (no-break) space.
    expect(pages.textContent).toContain((1234).toLocaleString('cs'));
    expect(pages.textContent).not.toContain('1,234');
    expect(screen.getByTestId('ask-docs-ingestion-errors')).toHaveTextContent(
      'Chyby1',
    );
    expect(
      screen.getByRole('button', { name: 'Spustit indexování' }),
    ).toBeDisabled();
    expectNoEnglish();

    await userEvent.click(screen.getByRole('button', { name: 'Obnovit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Požadavek selhal (502 Bad Gateway)',
    );
    expectNoEnglish();
  });

  it("titles the new frontend system's page in Czech", async () => {
    renderTestApp({
      features: [askDocsPlugin],
      config: czechConfig,
      apis: [
        [
          askDocsApiRef,
          mockAskDocsApi({
            getIngestionProgress: jest.fn(() => new Promise(() => {})),
          }),
        ],
      ],
      initialRouteEntries: ['/ask-docs'],
    });
    // The title is first resolved with the messages loaded then, and re-rendered once Czech is.
    await waitFor(() =>
      expect(
        screen.getByRole('heading', { name: 'Zeptejte se dokumentace' }),
      ).toBeInTheDocument(),
    );
    expect(screen.queryByRole('heading', { name: 'Ask the docs' })).toBeNull();
  });

  it.each([
    [1, 'Citovaný dokument má novější revizi: D1.'],
    [2, '2 citované dokumenty mají novější revizi: D1, D2.'],
    [5, '5 citovaných dokumentů má novější revizi: D1, D2, D3, D4, D5.'],
  ])(
    'names %i outdated documents with the Czech plural form',
    async (n, text) => {
      const documents = Array.from({ length: n }, (_, i) =>
        outdated(`D${i + 1}`),
      );
      renderInCzech(
        <AnswerView response={czechAnswer({ outdatedSources: documents })} />,
        mockAskDocsApi(),
      );
      expect(await screen.findByTestId('ask-docs-outdated')).toHaveTextContent(
        text,
      );
    },
  );

  it('has the Czech plural form for decimals too', async () => {
    // The UI counts only whole documents, but i18next asks for this form for a decimal count.
    const { apis } = renderInCzech(<HistoryList />, mockAskDocsApi());
    await screen.findByText('Zatím žádné otázky.');
    const { t } = apis
      .get(coreApis.translation)!
      .getTranslation(askDocsTranslationRef);
    expect(t('answerView.outdated', { count: 1.5, titles: 'D1' })).toBe(
      '1.5 citovaného dokumentu má novější revizi: D1.',
    );
  });
});

/** A legacy-frontend-system app (core-app-api's, which `createApp` wraps). */
function renderInLegacyApp(
  element: JSX.Element,
  translations: AppOptions['__experimentalTranslations'],
) {
  const fail = (page: string) => () => {
    throw new Error(`The app showed its ${page}`);
  };
  const app = createSpecializedApp({
    apis: [
      createApiFactory(askDocsApiRef, mockAskDocsApi()),
      // Where useTranslationRef reports a translation that failed to load.
      createApiFactory(errorApiRef, new MockErrorApi()),
    ],
    configLoader: async () => [],
    components: {
      Progress: () => null,
      Router: ({ children }: PropsWithChildren<{}>) => (
        <MemoryRouter>{children}</MemoryRouter>
      ),
      NotFoundErrorPage: fail('not-found page'),
      BootErrorPage: fail('boot error page'),
      ErrorBoundaryFallback: fail('error boundary'),
    },
    // Nothing rendered here looks an icon up.
    icons: {} as AppIcons,
    themes: [
      {
        id: 'light',
        title: 'Light',
        variant: 'light',
        Provider: ({ children }) => <>{children}</>,
      },
    ],
    __experimentalTranslations: translations,
  });
  const Root = app.createRoot(<AppRouter>{element}</AppRouter>);
  return render(<Root />);
}

describe('ask-docs translations in a legacy frontend system app', () => {
  it('shows Czech when the app offers it and it is chosen', async () => {
    renderInLegacyApp(<AskDocsPanel />, {
      availableLanguages: ['en', 'cs'],
      defaultLanguage: 'cs',
    });
    expect(
      await screen.findByLabelText('Položte otázku k dokumentaci'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Zeptat se' }),
    ).toBeInTheDocument();
  });

  it("shows an adopter's English override of one message, and the defaults elsewhere", async () => {
    renderInLegacyApp(<AskDocsPanel />, {
      resources: [
        createTranslationMessages({
          ref: askDocsTranslationRef,
          messages: { 'askPanel.submit': 'Send question' },
        }),
      ],
    });
    expect(
      await screen.findByRole('button', { name: 'Send question' }),
    ).toBeInTheDocument();
    expect(
      screen.getByLabelText('Ask a question about the documentation'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask' })).toBeNull();
  });
});
