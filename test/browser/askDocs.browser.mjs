#!/usr/bin/env node
/**
 * Browser check of the Ask the docs page in a running portal.
 *
 *   PORTAL_URL=http://localhost:3000 \
 *   FAKE_MODEL_CONTROL_URL=http://localhost:7070/control \
 *   node test/browser/askDocs.browser.mjs
 *
 * Signs in as guest when the sign-in page shows, then checks the three answer states:
 * grounded (with a cited link into TechDocs at a section anchor), not in the knowledge
 * base, and evidence only (after telling the fake model to go down); then "Ask about these
 * docs" inside a TechDocs page (answers cite only that entity's pages) and the answer for
 * the term on the search page. Screenshots go to test-results/browser/. Exit code 0 only
 * when every check passed.
 *
 * Optional environment:
 *   ANSWERABLE_QUESTION, ANSWERABLE_QUESTION_2, UNANSWERABLE_QUESTION  override the questions
 *   FAKE_MODEL_RESTORE_MODE   mode posted to the control URL afterwards (default "up")
 *   SCREENSHOT_DIR            where screenshots go (default <repo>/test-results/browser)
 *   ANSWER_TIMEOUT_MS         how long one answer may take (default 120000)
 *   CHROMIUM_PATH             browser binary (default /usr/bin/chromium)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PORTAL_URL = (process.env.PORTAL_URL ?? '').replace(/\/+$/, '');
const CONTROL_URL = process.env.FAKE_MODEL_CONTROL_URL;
const ANSWER_TIMEOUT = Number(process.env.ANSWER_TIMEOUT_MS ?? 120_000);
const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR ??
  fileURLToPath(new URL('../../test-results/browser/', import.meta.url));

// Answered by examples/docs/payments-service (Release process › Rollback).
const ANSWERABLE =
  process.env.ANSWERABLE_QUESTION ??
  'How do I roll back a release of the payments service?';
const ANSWERABLE_2 =
  process.env.ANSWERABLE_QUESTION_2 ??
  'Which command rolls back the payments service after a bad deploy?';
const UNANSWERABLE =
  process.env.UNANSWERABLE_QUESTION ??
  'What is the recipe for the canteen vegetable lasagne?';

// The sample docs the TechDocs check reads; their entity's ref scopes the question.
const DOCS_PATH = '/docs/default/component/payments-service/';

const STATE_SELECTOR = ['grounded', 'not-in-kb', 'evidence-only', 'error']
  .map(s => `[data-testid="ask-docs-state-${s}"]`)
  .join(', ');

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Opens the page, passing the guest sign-in page when it is shown. */
async function openAskDocs(page) {
  await page.goto(`${PORTAL_URL}/ask-docs`, { waitUntil: 'domcontentloaded' });
  const question = page.getByTestId('ask-docs-question');
  const guestEnter = page.getByRole('button', { name: /^enter$/i });
  await Promise.race([
    question.waitFor({ timeout: 60_000 }),
    guestEnter.waitFor({ timeout: 60_000 }),
  ]);
  if (await guestEnter.isVisible().catch(() => false)) {
    await guestEnter.click();
    await question.waitFor({ timeout: 60_000 });
  }
}

/**
 * Asks and waits for the answer to this question: a state element whose answer id differs
 * from the one shown before (an error state has no id, so it always counts).
 */
async function ask(page, question) {
  const previousId = await page
    .locator(STATE_SELECTOR)
    .first()
    .getAttribute('data-answer-id', { timeout: 1000 })
    .catch(() => null);
  const input = page.getByTestId('ask-docs-question');
  await input.fill(question);
  await page.getByTestId('ask-docs-submit').click();
  await page.waitForFunction(
    ({ selector, previous }) => {
      const el = document.querySelector(selector);
      if (!el) return false;
      if (el.getAttribute('data-testid') === 'ask-docs-state-error')
        return true;
      return el.getAttribute('data-answer-id') !== previous;
    },
    { selector: STATE_SELECTOR, previous: previousId },
    { timeout: ANSWER_TIMEOUT },
  );
  const state = page.locator(STATE_SELECTOR).first();
  const testId = await state.getAttribute('data-testid');
  return { state, kind: testId.replace('ask-docs-state-', '') };
}

async function describeState(state) {
  const text = (await state.innerText().catch(() => '')).replace(/\s+/g, ' ');
  return text.slice(0, 300);
}

async function hrefsIn(locator) {
  return locator.evaluateAll(links =>
    links.map(a => a.getAttribute('href') ?? ''),
  );
}

/** Some source link (under `scope`, a page or a locator) opens a TechDocs section. */
async function assertSourceIntoDocs(scope) {
  const hrefs = await hrefsIn(
    scope.locator('[data-testid="ask-docs-sources"] a'),
  );
  assert(
    hrefs.some(h => h.includes('/docs/') && h.includes('#')),
    `no source link into /docs/ with an anchor; got ${JSON.stringify(hrefs)}`,
  );
}

/** Opens a portal path and waits for an element of the page (the session is signed in). */
async function openPath(page, path, testId) {
  await page.goto(`${PORTAL_URL}${path}`, { waitUntil: 'domcontentloaded' });
  const element = page.getByTestId(testId);
  await element.first().waitFor({ timeout: 60_000 });
  return element;
}

async function assertGrounded(state, kind) {
  assert(
    kind === 'grounded',
    `expected the grounded state, got ${kind}: ${await describeState(state)}`,
  );
}

async function setModelMode(mode) {
  const response = await fetch(CONTROL_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ mode }),
  });
  assert(response.ok, `fake model control answered ${response.status}`);
}

const checks = [
  {
    name: 'grounded answer cites a TechDocs section',
    screenshot: 'grounded',
    async run(page) {
      const { state, kind } = await ask(page, ANSWERABLE);
      await assertGrounded(state, kind);
      await assertSourceIntoDocs(page);
      const markerHrefs = await hrefsIn(
        page.locator('[data-testid="ask-docs-answer-text"] a'),
      );
      assert(
        markerHrefs.length > 0,
        'the answer text has no linked [Title] marker',
      );
    },
  },
  {
    name: 'question outside the docs is reported as not in the knowledge base',
    screenshot: 'not-in-kb',
    async run(page) {
      const { state, kind } = await ask(page, UNANSWERABLE);
      assert(
        kind === 'not-in-kb',
        `expected the not-in-kb state, got ${kind}: ${await describeState(
          state,
        )}`,
      );
      assert(
        (await page.locator('[data-testid="ask-docs-sources"]').count()) === 0,
        'a not-in-kb answer must not list sources',
      );
    },
  },
  {
    name: 'with the model down, evidence is shown and labelled "Not an answer"',
    screenshot: 'evidence-only',
    async run(page) {
      assert(CONTROL_URL, 'FAKE_MODEL_CONTROL_URL is not set');
      await setModelMode('down');
      try {
        const { state, kind } = await ask(page, ANSWERABLE_2);
        assert(
          kind === 'evidence-only',
          `expected the evidence-only state, got ${kind}: ${await describeState(
            state,
          )}`,
        );
        assert(
          await state.getByText('Not an answer', { exact: true }).isVisible(),
          'the evidence is not labelled "Not an answer"',
        );
        const evidenceHrefs = await hrefsIn(
          page.locator('[data-testid="ask-docs-evidence"] a'),
        );
        assert(
          evidenceHrefs.some(h => h.includes('/docs/')),
          `no evidence passage links into /docs/; got ${JSON.stringify(
            evidenceHrefs,
          )}`,
        );
        assert(
          (await page
            .locator('[data-testid="ask-docs-answer-text"]')
            .count()) === 0,
          'evidence-only must not render answer prose',
        );
      } finally {
        await setModelMode(process.env.FAKE_MODEL_RESTORE_MODE ?? 'up').catch(
          error =>
            console.warn(
              `  (could not restore the fake model: ${error.message})`,
            ),
        );
      }
    },
  },
  {
    name: 'Ask about these docs answers inside a TechDocs page from that entity only',
    screenshot: 'techdocs-addon',
    async run(page) {
      const addon = await openPath(page, DOCS_PATH, 'ask-docs-techdocs-addon');
      const { state, kind } = await ask(page, ANSWERABLE);
      await assertGrounded(state, kind);
      const sourceHrefs = await hrefsIn(
        addon.locator('[data-testid="ask-docs-sources"] a'),
      );
      assert(
        sourceHrefs.length > 0 &&
          sourceHrefs.every(h => h.startsWith(DOCS_PATH) && h.includes('#')),
        `sources must link to sections of ${DOCS_PATH} only; got ${JSON.stringify(
          sourceHrefs,
        )}`,
      );
      const markerHrefs = await hrefsIn(
        addon.locator('[data-testid="ask-docs-answer-text"] a'),
      );
      assert(
        markerHrefs.length > 0 &&
          markerHrefs.every(h => h.startsWith(DOCS_PATH)),
        `the answer's [Title] markers must link into ${DOCS_PATH}; got ${JSON.stringify(
          markerHrefs,
        )}`,
      );
    },
  },
  {
    name: 'the search page shows one answer for the search term',
    screenshot: 'search-answer',
    async run(page) {
      const cards = await openPath(
        page,
        `/search?query=${encodeURIComponent(ANSWERABLE)}`,
        'ask-docs-search-answer',
      );
      const state = cards.locator(STATE_SELECTOR).first();
      await state.waitFor({ timeout: ANSWER_TIMEOUT });
      const kind = (await state.getAttribute('data-testid')).replace(
        'ask-docs-state-',
        '',
      );
      await assertGrounded(state, kind);
      // The plugin's filter-column answer is left out where the page shows its own.
      assert(
        (await cards.count()) === 1,
        `expected one answer on the search page, got ${await cards.count()}`,
      );
      await assertSourceIntoDocs(cards);
    },
  },
];

async function main() {
  if (!PORTAL_URL) {
    console.error(
      'PORTAL_URL is required, e.g. PORTAL_URL=http://localhost:3000',
    );
    process.exit(2);
  }
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const userDataDir = await mkdtemp(join(tmpdir(), 'ask-docs-browser-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors = [];
  page.on('pageerror', error => consoleErrors.push(error.message));

  let passed = 0;
  let failed = 0;
  try {
    try {
      await openAskDocs(page);
    } catch (error) {
      await page
        .screenshot({
          path: join(SCREENSHOT_DIR, 'open-failed.png'),
          fullPage: true,
        })
        .catch(() => {});
      throw new Error(
        `could not open ${PORTAL_URL}/ask-docs: ${error.message}`,
      );
    }
    for (const check of checks) {
      const started = Date.now();
      try {
        await check.run(page);
        passed++;
        console.log(`  ✓ ${check.name} (${Date.now() - started} ms)`);
        await page.screenshot({
          path: join(SCREENSHOT_DIR, `${check.screenshot}.png`),
          fullPage: true,
        });
      } catch (error) {
        failed++;
        console.log(`  ✗ ${check.name}\n      ${error.message}`);
        await page
          .screenshot({
            path: join(SCREENSHOT_DIR, `${check.screenshot}-failed.png`),
            fullPage: true,
          })
          .catch(() => {});
      }
    }
  } catch (error) {
    failed = checks.length - passed;
    console.log(`  ✗ ${error.message}`);
  } finally {
    await context.close().catch(() => {});
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  }
  if (consoleErrors.length > 0) {
    console.log(
      `  page errors:\n    ${consoleErrors.slice(0, 5).join('\n    ')}`,
    );
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed === checks.length ? 0 : 1);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
