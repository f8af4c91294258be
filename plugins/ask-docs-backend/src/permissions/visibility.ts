import {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  QueryPermissionResponse,
} from '@backstage/plugin-permission-common';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import {
  askDocsChunkReadPermission,
  ASK_DOCS_CHUNK_RESOURCE_TYPE,
} from '@askdocs/plugin-ask-docs-common';
import { Knex } from 'knex';
import {
  CATALOG_RESOURCE_TYPE,
  translateCatalogConditions,
} from './catalogConditions';
import {
  compileEntityCriteria,
  SqlPredicate,
  VISIBLE_ENTITY_ALIAS,
} from './compileEntityCriteria';
import { EntityCriteria } from './entityFilter';
import { FRESH_VISIBILITY_ATTRIBUTES_SQL, liveEntitySql } from './freshness';
import { askDocsChunkRuleDefinitions } from './rules';
import { translateConditions } from './translateConditions';

/** What the audit log records about the permission decisions behind one retrieval. */
export interface VisibilitySummary {
  /** The effective outcome: everything, nothing, or a predicate over source entities. */
  decision: 'allow' | 'deny' | 'conditional';
  /** Why everything was denied, when it was for a reason other than a DENY decision. */
  reason?: string;
  userEntityRef?: string;
  decisions: Array<{
    permission: string;
    result: 'ALLOW' | 'DENY' | 'CONDITIONAL' | 'INVALID';
    pluginId?: string;
    resourceType?: string;
    conditions?: unknown;
  }>;
}

const CONSTRUCT = Symbol('Visibility');
const COLUMN_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * The asker's visibility: the single permission predicate every chunk-reading query applies
 * (decision record 0001). It cannot be inspected or built from SQL by callers; it is only
 * applied to a query or summarised for the audit log.
 */
export class Visibility {
  readonly #predicate: SqlPredicate | undefined;
  readonly #summary: VisibilitySummary;

  private constructor(
    token: symbol,
    predicate: SqlPredicate | undefined,
    summary: VisibilitySummary,
  ) {
    if (token !== CONSTRUCT) {
      throw new Error('Visibility is created by resolveVisibility() only');
    }
    this.#predicate = predicate;
    this.#summary = summary;
  }

  /** @internal Used by resolveVisibility; the token keeps other modules from minting one. */
  static create(
    token: symbol,
    predicate: SqlPredicate | undefined,
    summary: VisibilitySummary,
  ) {
    return new Visibility(token, predicate, summary);
  }

  /** A visibility that sees nothing; safe to create anywhere (e.g. when there is no user). */
  static denyAll(reason: string): Visibility {
    return new Visibility(CONSTRUCT, undefined, {
      decision: 'deny',
      reason,
      decisions: [],
    });
  }

  /**
   * Restricts `queryBuilder` to rows whose `entityRefColumn` is a visible source entity:
   * `WHERE <col> IN (SELECT entity_ref FROM ask_docs_entities WHERE <predicate>)`, or
   * `WHERE false` when nothing is visible. Entities no longer in the catalog, and all of them
   * while the attributes are staler than the plugin allows, match no predicate. Apply it to a
   * fresh builder; a builder that already has OR-ed conditions is refused because
   * `a OR b AND <visibility>` would not restrict `a`.
   */
  apply<TQueryBuilder extends Knex.QueryBuilder>(
    queryBuilder: TQueryBuilder,
    entityRefColumn: string,
    /**
     * 'array' compares with `= ANY(ARRAY(<visible entities>))`: the same rows, but the planner
     * then seeks an index by entity instead of reading every row and hashing. Callers pick it
     * when they know few chunks are visible (the planner cannot estimate the predicate).
     */
    shape: 'subquery' | 'array' = 'subquery',
    /** What the column holds: the entity's ref, or its number (posting lists, migration 0006). */
    key: 'entity_ref' | 'entity_no' = 'entity_ref',
  ): TQueryBuilder {
    if (!COLUMN_PATTERN.test(entityRefColumn)) {
      throw new Error(
        `Visibility.apply: invalid column ${JSON.stringify(entityRefColumn)}`,
      );
    }
    const statements: Array<{ grouping?: string; bool?: string }> =
      (queryBuilder as any)._statements ?? [];
    if (statements.some(s => s.grouping === 'where' && s.bool === 'or')) {
      throw new Error(
        'Visibility.apply: the query already has OR conditions; apply visibility to a fresh query',
      );
    }
    const predicate = this.#predicate;
    if (!predicate) {
      return queryBuilder.whereRaw('false') as TQueryBuilder;
    }
    const visible = (sub: Knex.QueryBuilder) =>
      sub
        .select(
          `${VISIBLE_ENTITY_ALIAS}.${
            key === 'entity_no' ? 'entity_no' : 'entity_ref'
          }`,
        )
        .from({ [VISIBLE_ENTITY_ALIAS]: 'ask_docs_entities' })
        .whereRaw(liveEntitySql(VISIBLE_ENTITY_ALIAS))
        .whereRaw(FRESH_VISIBILITY_ATTRIBUTES_SQL)
        .whereRaw(predicate.sql, predicate.bindings as Knex.RawBinding[]);
    if (shape === 'array') {
      const client = (queryBuilder as any).client;
      return queryBuilder.whereRaw('?? = ANY(ARRAY(?))', [
        entityRefColumn,
        visible(client.queryBuilder()),
      ]) as TQueryBuilder;
    }
    return queryBuilder.whereIn(entityRefColumn, visible) as TQueryBuilder;
  }

  /** JSON for the audit log. */
  summary(): VisibilitySummary {
    return JSON.parse(JSON.stringify(this.#summary));
  }
}

type DecisionOutcome =
  | { kind: 'allow' }
  | { kind: 'deny' }
  | { kind: 'conditional'; criteria: EntityCriteria };

function interpret(
  response: QueryPermissionResponse | undefined,
  expected: {
    pluginId: string;
    resourceType: string;
    translate: (criteria: unknown) => EntityCriteria;
  },
): DecisionOutcome {
  switch (response?.result) {
    case AuthorizeResult.ALLOW:
      return { kind: 'allow' };
    case AuthorizeResult.DENY:
      return { kind: 'deny' };
    case AuthorizeResult.CONDITIONAL:
      if (
        response.resourceType !== expected.resourceType ||
        response.pluginId !== expected.pluginId
      ) {
        throw new Error(
          `conditional decision for ${response.pluginId}/${response.resourceType}, expected ` +
            `${expected.pluginId}/${expected.resourceType}`,
        );
      }
      return {
        kind: 'conditional',
        criteria: expected.translate(response.conditions),
      };
    default:
      throw new Error(
        `unexpected permission result ${JSON.stringify(
          (response as any)?.result,
        )}`,
      );
  }
}

function describe(
  permission: string,
  response: QueryPermissionResponse | undefined,
) {
  const result = response?.result;
  if (result === AuthorizeResult.CONDITIONAL) {
    let conditions: unknown;
    try {
      conditions = JSON.parse(JSON.stringify(response!.conditions));
    } catch {
      conditions = '<unserialisable>';
    }
    return {
      permission,
      result: 'CONDITIONAL' as const,
      pluginId: response!.pluginId,
      resourceType: response!.resourceType,
      conditions,
    };
  }
  if (result === AuthorizeResult.ALLOW || result === AuthorizeResult.DENY) {
    return { permission, result };
  }
  return { permission, result: 'INVALID' as const };
}

const errorMessage = (e: unknown) =>
  e instanceof Error ? e.message : String(e);

/**
 * THE function that turns the asker's permission decisions into their visibility. Both the
 * Ask the docs chunk permission and the catalog's entity read permission must allow a source
 * entity. Fails closed: non-user principals (services would be allowed unconditionally by the
 * permission client, which would be a bypass), permission service errors, unknown rules and
 * malformed criteria all yield a visibility that sees nothing.
 */
export async function resolveVisibility(options: {
  permissions: PermissionsService;
  credentials: BackstageCredentials;
}): Promise<Visibility> {
  const { permissions, credentials } = options;
  const principal = (
    credentials as
      | BackstageCredentials<{ type?: string; userEntityRef?: string }>
      | undefined
  )?.principal;
  if (
    !principal ||
    principal.type !== 'user' ||
    typeof principal.userEntityRef !== 'string'
  ) {
    return Visibility.denyAll(
      `principal is not a user (${principal?.type ?? 'none'})`,
    );
  }
  const userEntityRef = principal.userEntityRef;
  const deny = (
    reason: string | undefined,
    decisions: VisibilitySummary['decisions'] = [],
  ) =>
    Visibility.create(CONSTRUCT, undefined, {
      decision: 'deny',
      reason,
      userEntityRef,
      decisions,
    });

  let responses: QueryPermissionResponse[];
  try {
    responses = await permissions.authorizeConditional(
      [
        { permission: askDocsChunkReadPermission },
        { permission: catalogEntityReadPermission },
      ],
      { credentials },
    );
  } catch (e) {
    return deny(`permission check failed: ${errorMessage(e)}`);
  }
  if (!Array.isArray(responses) || responses.length !== 2) {
    return deny('permission service returned an unexpected response');
  }
  const [chunkResponse, catalogResponse] = responses;
  const decisions = [
    describe(askDocsChunkReadPermission.name, chunkResponse),
    describe(catalogEntityReadPermission.name, catalogResponse),
  ];

  try {
    const outcomes = [
      interpret(chunkResponse, {
        pluginId: 'ask-docs',
        resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
        translate: c =>
          translateConditions(c, {
            resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
            rules: askDocsChunkRuleDefinitions,
          }),
      }),
      interpret(catalogResponse, {
        pluginId: 'catalog',
        resourceType: CATALOG_RESOURCE_TYPE,
        translate: translateCatalogConditions,
      }),
    ];
    if (outcomes.some(o => o.kind === 'deny')) {
      return deny(undefined, decisions);
    }
    const criteria = outcomes.flatMap(o =>
      o.kind === 'conditional' ? [o.criteria] : [],
    );
    const predicate: SqlPredicate =
      criteria.length === 0
        ? { sql: 'true', bindings: [] }
        : compileEntityCriteria({
            allOf: criteria as [EntityCriteria, ...EntityCriteria[]],
          });
    return Visibility.create(CONSTRUCT, predicate, {
      decision: criteria.length === 0 ? 'allow' : 'conditional',
      userEntityRef,
      decisions,
    });
  } catch (e) {
    return deny(`invalid permission criteria: ${errorMessage(e)}`, decisions);
  }
}
