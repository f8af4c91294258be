import { LoggerService, SchedulerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import type { VisibilitySyncSettings } from '../settings';
import { AskDocsStore, EntityRow } from '../database/AskDocsStore';
import { entityColumns } from '../database/entityColumns';
import { entityRow } from './entityRow';
import { EntitySource } from './sources';

/** The entity fields visibility needs (entityRow reads nothing else); no description, links. */
export const VISIBILITY_FIELDS = [
  'kind',
  'metadata.name',
  'metadata.namespace',
  'metadata.title',
  'metadata.tags',
  'metadata.labels',
  'metadata.annotations',
  'metadata.etag',
  'metadata.uid',
  'spec',
  'relations',
];

const BATCH = 200;

export interface AttributeSyncResult {
  listed: number;
  updated: number;
  hidden: number;
}

const errorMessage = (e: unknown) =>
  e instanceof Error ? e.message : String(e);

/**
 * Keeps the visibility attributes of indexed entities in step with the catalog, apart from
 * content ingestion: a complete listing rewrites the rows whose attributes changed, hides the
 * ones no longer listed and records its start as the attributes' age. It never writes documents,
 * chunks or vectors. A failed listing changes nothing and records nothing, so the freshness
 * guard hides everything once the last complete one is too old (docs/architecture.md).
 */
export class EntityAttributeSync {
  constructor(
    private readonly o: {
      store: AskDocsStore;
      entities: EntitySource;
      logger: LoggerService;
      /** The freshness guard's bound, to warn when a listing takes most of it. */
      maxStalenessSeconds?: number;
    },
  ) {}

  /** `signal`: the scheduler's, aborted at the task's timeout; the listing stops there. */
  async run(signal?: AbortSignal): Promise<AttributeSyncResult | undefined> {
    const { store, entities, logger } = this.o;
    let asOf: Date | undefined;
    const started = Date.now();
    try {
      asOf = await store.databaseNow();
      const listed = new Set<string>();
      let batch: EntityRow[] = [];
      let updated = 0;
      for await (const entity of entities.listEntities()) {
        // A partial listing records nothing; one past the bound would be stale on arrival.
        if (signal?.aborted)
          throw new Error(
            'the listing was stopped at the task timeout (askDocs.visibilitySync.maxStaleness)',
          );
        const row = this.rowOf(entity);
        if (!row) continue; // not listed: hidden below
        listed.add(row.entityRef);
        batch.push(row);
        if (batch.length >= BATCH) {
          updated += await store.syncEntityAttributes(batch, asOf);
          batch = [];
        }
      }
      updated += await store.syncEntityAttributes(batch, asOf);
      const hidden = await store.hideEntitiesNotListed([...listed], asOf);
      await store.recordVisibilitySync(asOf);
      this.warnIfSlow((Date.now() - started) / 1000);
      if (updated + hidden > 0) {
        logger.info(
          `ask-docs: visibility sync: ${updated} entities updated, ` +
            `${hidden} hidden (no longer in the catalog)`,
        );
      }
      return { listed: listed.size, updated, hidden };
    } catch (e) {
      await this.reportFailure(e);
      return undefined;
    }
  }

  /**
   * The entity's row, or undefined when its attributes cannot be stored (the store would throw
   * on them): that entity is then left out of the listing, so it is hidden (fail closed) while
   * the others sync, instead of one malformed entity failing every sync until nothing shows.
   */
  private rowOf(entity: Entity): EntityRow | undefined {
    try {
      const row = entityRow(entity);
      entityColumns(row); // what syncEntityAttributes computes; a throw there fails the batch
      return row;
    } catch (e) {
      let ref = 'an entity without a valid ref';
      try {
        ref = stringifyEntityRef(entity);
      } catch {
        // keep the placeholder
      }
      this.o.logger.warn(
        `ask-docs: visibility sync: hiding ${ref}, its attributes cannot be ` +
          `stored: ${errorMessage(e)}`,
      );
      return undefined;
    }
  }

  /**
   * The guard counts from a listing's start, so one that takes more than half the bound leaves
   * the next one too little time: nothing is visible between the two.
   */
  private warnIfSlow(seconds: number) {
    const bound = this.o.maxStalenessSeconds;
    if (bound === undefined || seconds <= bound / 2) return;
    this.o.logger.warn(
      `ask-docs: visibility sync: listing the catalog took ${Math.round(
        seconds,
      )} s, more ` +
        `than half of askDocs.visibilitySync.maxStaleness (${bound} s); nothing is visible ` +
        'once the last complete listing started longer ago than that (asks answer 503) and a ' +
        'listing is stopped after it: raise maxStaleness',
    );
  }

  private async reportFailure(e: unknown) {
    const { store, logger } = this.o;
    const state = await store.visibilitySyncState().catch(() => undefined);
    const since = state?.lastSuccessAt?.toISOString() ?? 'never synced';
    let consequence = '';
    if (state?.stale) {
      consequence = '; nothing is visible until a sync succeeds';
    } else if (
      state?.maxStalenessSeconds !== undefined &&
      state.lastSuccessAt
    ) {
      const deadline = new Date(
        state.lastSuccessAt.getTime() + state.maxStalenessSeconds * 1000,
      );
      consequence = `; nothing will be visible after ${deadline.toISOString()}`;
    }
    logger.warn(
      `ask-docs: visibility sync failed: ${errorMessage(
        e,
      )}; visibility attributes are stale since ${since}${consequence}`,
    );
  }
}

/**
 * Turns the freshness guard on (or off) and schedules the sync. The guard is stored with the
 * sync state, so every query and every backend instance applies the same bound.
 */
export async function startEntityAttributeSync(o: {
  store: AskDocsStore;
  entities: EntitySource;
  logger: LoggerService;
  scheduler: SchedulerService;
  settings: VisibilitySyncSettings;
}): Promise<void> {
  const { store, settings } = o;
  await store.configureVisibilityFreshness(
    settings.enabled ? settings.maxStalenessSeconds : undefined,
  );
  if (!settings.enabled) return;
  const sync = new EntityAttributeSync({
    ...o,
    maxStalenessSeconds: settings.maxStalenessSeconds,
  });
  await o.scheduler.scheduleTask({
    id: 'ask-docs-visibility-sync',
    frequency: settings.frequency,
    timeout: { seconds: settings.maxStalenessSeconds },
    fn: async signal => {
      await sync.run(signal);
    },
  });
}
