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
import {
  CATALOG_RESOURCE_TYPE,
  translateCatalogConditions,
} from './catalogConditions';
import { assertEntityCriteria, EntityCriteria } from './entityFilter';
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

/**
 * The asker's visibility: the single permission predicate every chunk-reading query applies
 * (decision record 0001). It holds the decision as typed criteria over source entities (their
 * conjunction; none: everything is visible; undefined: nothing is). Callers cannot build or
 * change one; the database layer (database/visibilityPredicate.ts) turns it into SQL, and the
 * audit log gets its summary.
 */
export class Visibility {
  readonly #criteria: readonly EntityCriteria[] | undefined;
  readonly #summary: VisibilitySummary;

  private constructor(
    token: symbol,
    criteria: readonly EntityCriteria[] | undefined,
    summary: VisibilitySummary,
  ) {
    if (token !== CONSTRUCT) {
      throw new Error('Visibility is created by resolveVisibility() only');
    }
    this.#criteria = criteria && Object.freeze([...criteria]);
    this.#summary = summary;
  }

  /** @internal Used by resolveVisibility; the token keeps other modules from minting one. */
  static create(
    token: symbol,
    criteria: readonly EntityCriteria[] | undefined,
    summary: VisibilitySummary,
  ) {
    return new Visibility(token, criteria, summary);
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
   * @internal For the database layer's predicate compiler only: the validated criteria that
   * must all hold (empty: everything is visible), or undefined when nothing is visible.
   * Refuses look-alike objects, which could otherwise hand over criteria of their own.
   */
  static criteriaOf(
    visibility: Visibility,
  ): readonly EntityCriteria[] | undefined {
    if (!(visibility instanceof Visibility)) {
      throw new Error(
        'retrieval requires a Visibility from resolveVisibility()',
      );
    }
    return visibility.#criteria;
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
    // Malformed criteria deny here, at the decision, exactly as the compiler would refuse
    // them (the same tree: their conjunction), never later in some query.
    if (criteria.length > 0) assertEntityCriteria({ allOf: criteria });
    return Visibility.create(CONSTRUCT, criteria, {
      decision: criteria.length === 0 ? 'allow' : 'conditional',
      userEntityRef,
      decisions,
    });
  } catch (e) {
    return deny(`invalid permission criteria: ${errorMessage(e)}`, decisions);
  }
}
