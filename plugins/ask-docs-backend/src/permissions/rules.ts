import { PermissionRuleParams } from '@backstage/plugin-permission-common';
import {
  createConditionExports,
  createPermissionResourceRef,
  createPermissionRule,
} from '@backstage/plugin-permission-node';
import { ASK_DOCS_CHUNK_RESOURCE_TYPE } from '@askdocs/plugin-ask-docs-common';
import {
  AskDocsEntityAttributes,
  EntityCriteria,
  EntityFilter,
  matchesEntityCriteria,
} from './entityFilter';
import { objectParams, ParamsSchema } from './paramsSchema';

/**
 * The `ask-docs-chunk` resource. Its rules are all about the chunk's source entity, so the
 * resource is the entity's visibility attributes; resource refs are entity refs (a chunk id
 * is accepted too and resolves to its entity).
 */
export const askDocsChunkResourceRef = createPermissionResourceRef<
  AskDocsEntityAttributes,
  EntityCriteria
>().with({ pluginId: 'ask-docs', resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE });

/**
 * A rule's parameters and its translation to the filter AST. `apply` is derived from the
 * same translation, so in-memory checks and SQL can never disagree. Schemas are strict: a
 * misspelt parameter (e.g. `valeu`) is rejected instead of silently widening the rule.
 */
export interface EntityRuleDefinition<TParams> {
  name: string;
  description: string;
  paramsSchema: ParamsSchema<TParams>;
  toFilter(params: TParams): EntityCriteria;
}

type OwnerParams = { claims: string[] };
type KindParams = { kinds: string[] };
type NamespaceParams = { namespaces: string[] };
type TagParams = { tag: string };
type LabelParams = { label: string; value?: string };
type AnnotationParams = { annotation: string; value?: string };

type ValuesFilter = Extract<EntityFilter, { values: string[] }>;
/** Distributes over the union, so each `type` keeps its own `field`s. */
type WithoutValues<F> = F extends unknown ? Omit<F, 'values'> : never;

/**
 * IS_ENTITY_OWNER, IS_ENTITY_KIND and IS_IN_NAMESPACE: one string[] parameter `param`, and
 * the entity's `match.field` has one of its values.
 */
function anyOfRule<P extends string>(
  name: string,
  description: string,
  [param, paramDescription]: [P, string],
  match: WithoutValues<ValuesFilter>,
): EntityRuleDefinition<Record<P, string[]>> {
  return {
    name,
    description,
    paramsSchema: objectParams({
      [param]: { type: 'string[]', description: paramDescription },
    }),
    toFilter: params => ({ ...match, values: params[param] }),
  };
}

const isEntityOwnerDef = anyOfRule(
  'IS_ENTITY_OWNER',
  'Allow chunks whose source entity is owned by one of the given claims',
  [
    'claims',
    "Entity refs (e.g. the user's ownership claims), one of which must own the entity",
  ],
  { type: 'overlaps', field: 'owners' },
);
const isEntityKindDef = anyOfRule(
  'IS_ENTITY_KIND',
  'Allow chunks whose source entity has one of the given kinds',
  ['kinds', 'Kinds to match at least one of'],
  { type: 'oneOf', field: 'kind' },
);
const isInNamespaceDef = anyOfRule(
  'IS_IN_NAMESPACE',
  'Allow chunks whose source entity is in one of the given namespaces',
  ['namespaces', 'Namespaces to match at least one of'],
  { type: 'oneOf', field: 'namespace' },
);

const hasTagDef: EntityRuleDefinition<TagParams> = {
  name: 'HAS_TAG',
  description: 'Allow chunks whose source entity has the given tag',
  paramsSchema: objectParams({
    tag: { type: 'string', nonEmpty: true, description: 'Tag to match' },
  }),
  toFilter: ({ tag }) => ({ type: 'overlaps', field: 'tags', values: [tag] }),
};

/**
 * HAS_LABEL and HAS_ANNOTATION: the entity has the key `params[param]` in `field`, with the
 * given value when one is given.
 */
function hasKeyRule<P extends 'label' | 'annotation'>(
  name: string,
  param: P,
  field: 'labels' | 'annotations',
): EntityRuleDefinition<Record<P, string> & { value?: string }> {
  const noun = param[0].toUpperCase() + param.slice(1);
  return {
    name,
    description:
      `Allow chunks whose source entity has the given ${param} ` +
      '(optionally with a value)',
    paramsSchema: objectParams({
      [param]: { type: 'string', nonEmpty: true, description: `${noun} key` },
      value: {
        type: 'string',
        optional: true,
        description: `${noun} value; any value when omitted`,
      },
    }),
    toFilter: params => {
      const key = params[param];
      const value = params.value;
      return value === undefined
        ? { type: 'hasKey', field, key }
        : { type: 'hasKey', field, key, value };
    },
  };
}

const hasLabelDef = hasKeyRule('HAS_LABEL', 'label', 'labels');
const hasAnnotationDef = hasKeyRule(
  'HAS_ANNOTATION',
  'annotation',
  'annotations',
);

/** The definitions by rule name: what the visibility resolver validates conditions against. */
export const askDocsChunkRuleDefinitions: ReadonlyMap<
  string,
  EntityRuleDefinition<any>
> = new Map<string, EntityRuleDefinition<any>>([
  [isEntityOwnerDef.name, isEntityOwnerDef],
  [isEntityKindDef.name, isEntityKindDef],
  [isInNamespaceDef.name, isInNamespaceDef],
  [hasTagDef.name, hasTagDef],
  [hasLabelDef.name, hasLabelDef],
  [hasAnnotationDef.name, hasAnnotationDef],
]);

function toPermissionRule<TParams extends PermissionRuleParams>(
  def: EntityRuleDefinition<TParams>,
) {
  return createPermissionRule<typeof askDocsChunkResourceRef, TParams>({
    name: def.name,
    description: def.description,
    resourceRef: askDocsChunkResourceRef,
    paramsSchema: def.paramsSchema,
    // NoInfer<TParams> is TParams; the cast only helps the compiler through the generic.
    apply: (resource, params) =>
      matchesEntityCriteria(resource, def.toFilter(params as TParams)),
    toQuery: params => def.toFilter(params as TParams),
  });
}

export const isEntityOwner = toPermissionRule<OwnerParams>(isEntityOwnerDef);
export const isEntityKind = toPermissionRule<KindParams>(isEntityKindDef);
export const isInNamespace =
  toPermissionRule<NamespaceParams>(isInNamespaceDef);
export const hasTag = toPermissionRule<TagParams>(hasTagDef);
export const hasLabel = toPermissionRule<LabelParams>(hasLabelDef);
export const hasAnnotation =
  toPermissionRule<AnnotationParams>(hasAnnotationDef);

export const askDocsChunkPermissionRules = {
  isEntityOwner,
  isEntityKind,
  isInNamespace,
  hasTag,
  hasLabel,
  hasAnnotation,
};

/** For `permissionsRegistry.addResourceType({ resourceRef, rules, getResources })`. */
export const askDocsChunkRules = Object.values(askDocsChunkPermissionRules);

/**
 * Condition factories for permission policies, e.g.
 * `askDocsChunkConditions.hasTag({ tag: 'public' })`.
 */
export const {
  conditions: askDocsChunkConditions,
  createConditionalDecision: createAskDocsChunkConditionalDecision,
} = createConditionExports({
  resourceRef: askDocsChunkResourceRef,
  rules: askDocsChunkPermissionRules,
});
