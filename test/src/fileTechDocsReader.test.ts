/*
 * The file reader stands in for TechDocs' local publisher in tests and evaluation: like the
 * TechDocs backend reader it only reads files inside the entity's site folder, and a symbolic
 * link that leads out of the folder is refused rather than followed.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { RefusedPagePathError } from '../../plugins/ask-docs-backend/src/ingestion/sitePagePath';
import {
  docsComponent,
  FileTechDocsReader,
  siteFile,
} from './fileTechDocsReader';

const SECRET = 'ZEBRA-HORIZON-4471';

describe('FileTechDocsReader confinement', () => {
  let tmp: string;
  let siteDir: string;
  const entity = docsComponent('handbook');
  const PAGES = [
    'index.html',
    'guide/index.html',
    'inside-link.html',
    'leak.html',
    'linked-dir/runbook.html',
    'guide-link/index.html',
    '../restricted/runbook.html',
  ];

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-file-reader-'));
    siteDir = path.join(tmp, 'handbook');
    const restrictedDir = path.join(tmp, 'restricted');
    fs.mkdirSync(path.join(siteDir, 'guide'), { recursive: true });
    fs.mkdirSync(restrictedDir);
    fs.writeFileSync(
      path.join(restrictedDir, 'runbook.html'),
      `<p>password ${SECRET}</p>`,
    );
    fs.writeFileSync(path.join(siteDir, 'index.html'), '<p>Handbook home</p>');
    fs.writeFileSync(
      path.join(siteDir, 'guide', 'index.html'),
      '<p>Setup guide</p>',
    );
    // Links inside the site are fine; links out of it (to a file or a folder) are not.
    fs.symlinkSync(
      path.join('guide', 'index.html'),
      path.join(siteDir, 'inside-link.html'),
    );
    fs.symlinkSync('guide', path.join(siteDir, 'guide-link'));
    fs.symlinkSync(
      path.join(restrictedDir, 'runbook.html'),
      path.join(siteDir, 'leak.html'),
    );
    fs.symlinkSync(
      path.join('..', 'restricted'),
      path.join(siteDir, 'linked-dir'),
    );
  });

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const reader = () =>
    new FileTechDocsReader({
      'component:default/handbook': {
        dir: siteDir,
        siteName: 'Handbook',
        pages: PAGES,
      },
    });

  it('reads pages and links that stay inside the site', async () => {
    const r = reader();
    await expect(r.getPage(entity, 'index.html')).resolves.toContain(
      'Handbook home',
    );
    await expect(r.getPage(entity, 'inside-link.html')).resolves.toContain(
      'Setup guide',
    );
    await expect(r.getPage(entity, 'guide-link/index.html')).resolves.toContain(
      'Setup guide',
    );
  });

  it.each([
    'leak.html',
    'linked-dir/runbook.html',
    '../restricted/runbook.html',
  ])('refuses %j, which leads out of the site', async pagePath => {
    const read = reader().getPage(entity, pagePath);
    await expect(read).rejects.toBeInstanceOf(RefusedPagePathError);
    await expect(siteFile(siteDir, pagePath)).rejects.toBeInstanceOf(
      RefusedPagePathError,
    );
  });

  it('still lists the site, without reading what lies outside it', async () => {
    const site = await reader().getSite(entity);
    expect(site?.pages).toEqual(PAGES);
    // The etag is over the readable pages only: changing the outside file does not change it.
    fs.writeFileSync(
      path.join(tmp, 'restricted', 'runbook.html'),
      '<p>rotated</p>',
    );
    expect((await reader().getSite(entity))?.etag).toBe(site?.etag);
  });
});
