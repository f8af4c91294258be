import { RESOURCE_TYPE_CATALOG_ENTITY } from '@backstage/plugin-catalog-common/alpha';
import { EntityCriteria, InvalidVisibilityCriteriaError } from './entityFilter';
import { foldCase } from './matchKeys';
import { objectParams } from './paramsSchema';
import { EntityRuleDefinition } from './rules';
import { translateConditions } from './translateConditions';

/**
 * Translations of the catalog's built-in permission rules (plugin-catalog-backend's
 * `permissionRules`) to the visibility filter on `ask_docs_entities`, so that a user's
 * conditional `catalog.entity.read` decision also limits which documents they can retrieve.
 * Rule names and parameters mirror the catalog's; anything else (custom catalog rules, and
 * metadata keys we do not index) is unknown and makes the whole decision deny.
 */
export const CATALOG_RESOURCE_TYPE = RESOURCE_TYPE_CATALOG_ENTITY;

/**
 * The catalog answers these rules from its search table (buildEntitySearch), which drops keys
 * (`metadata.labels.<key>`, `spec.<path>`, ...) longer than this once lower-cased and stores
 * longer values as null: a condition on such a key, or with such a value, matches no entity
 * there. Our rows keep both, so those conditions are made to match nothing here too.
 */
const MAX_SEARCH_LENGTH = 200;
const searchable = (s: string) => foldCase(s).length <= MAX_SEARCH_LENGTH;
const NOTHING: EntityCriteria = { not: { type: 'always' } };

/** The catalog's search key `key` (with `value`, when given) or, when it cannot match, NOTHING. */
const inSearch = (
  key: string,
  value: string | undefined,
  filter: () => EntityCriteria,
): EntityCriteria =>
  searchable(key) && (value === undefined || searchable(value))
    ? filter()
    : NOTHING;

/** Has the label or annotation `key` (with `value`, when given). */
const keyFilter = (
  field: 'labels' | 'annotations',
  key: string,
  value: string | undefined,
): EntityCriteria =>
  inSearch(`metadata.${field}.${key}`, value, () =>
    value === undefined
      ? { type: 'hasKey', field, key }
      : { type: 'hasKey', field, key, value },
  );

/**
 * `HAS_METADATA` keys we can answer from `ask_docs_entities`. Others (title, description, uid,
 * links, `tags.<tag>`, ...) are not stored, or not stored with catalog semantics (our title
 * column is never empty), so they are refused rather than approximated.
 */
function metadataFilter(
  key: string,
  value: string | undefined,
): EntityCriteria {
  const k = key.toLowerCase();
  if (k === 'name' || k === 'namespace') {
    return inSearch(`metadata.${k}`, value, () =>
      value === undefined
        ? { type: 'always' }
        : { type: 'oneOf', field: k, values: [value] },
    );
  }
  if (k === 'tags') {
    return inSearch(`metadata.${k}`, value, () =>
      value === undefined
        ? { type: 'nonEmpty', field: 'tags' }
        : { type: 'overlaps', field: 'tags', values: [value] },
    );
  }
  for (const field of ['labels', 'annotations'] as const) {
    const prefix = `${field}.`;
    if (k.startsWith(prefix) && k.length > prefix.length) {
      return keyFilter(field, key.slice(prefix.length), value);
    }
  }
  throw new InvalidVisibilityCriteriaError(
    `HAS_METADATA key '${key}' is not supported`,
  );
}

const optionalValue = {
  type: 'string',
  optional: true,
  description: 'Value to match; any value when omitted',
} as const;
type KeyValue = { key: string; value?: string };
const keyValueSchema = () =>
  objectParams<KeyValue>({
    key: {
      type: 'string',
      nonEmpty: true,
      description: 'Property path to match on',
    },
    value: optionalValue,
  });

const definitions: Array<EntityRuleDefinition<any>> = [
  {
    name: 'HAS_ANNOTATION',
    description: 'Catalog: entity has the annotation (optionally with a value)',
    paramsSchema: objectParams({
      annotation: {
        type: 'string',
        nonEmpty: true,
        description: 'Annotation key',
      },
      value: optionalValue,
    }),
    toFilter: ({
      annotation,
      value,
    }: {
      annotation: string;
      value?: string;
    }): EntityCriteria => keyFilter('annotations', annotation, value),
  },
  {
    name: 'HAS_LABEL',
    description: 'Catalog: entity has the label (optionally with a value)',
    paramsSchema: objectParams({
      label: { type: 'string', nonEmpty: true, description: 'Label key' },
      value: optionalValue,
    }),
    toFilter: ({
      label,
      value,
    }: {
      label: string;
      value?: string;
    }): EntityCriteria => keyFilter('labels', label, value),
  },
  {
    name: 'HAS_METADATA',
    description:
      'Catalog: entity metadata field (name, namespace, tags, labels.*, annotations.*)',
    paramsSchema: keyValueSchema(),
    toFilter: ({ key, value }: KeyValue): EntityCriteria =>
      metadataFilter(key, value),
  },
  {
    name: 'HAS_SPEC',
    description:
      'Catalog: entity spec field at a dotted path (optionally with a value)',
    paramsSchema: keyValueSchema(),
    toFilter: ({ key, value }: KeyValue): EntityCriteria =>
      inSearch(`spec.${key}`, value, () =>
        value === undefined
          ? { type: 'hasSpec', path: key }
          : { type: 'hasSpec', path: key, value },
      ),
  },
  {
    name: 'IS_ENTITY_KIND',
    description: 'Catalog: entity kind is one of the given kinds',
    paramsSchema: objectParams({
      kinds: {
        type: 'string[]',
        description: 'Kinds to match at least one of',
      },
    }),
    toFilter: ({ kinds }: { kinds: string[] }): EntityCriteria => ({
      type: 'oneOf',
      field: 'kind',
      values: kinds.filter(searchable),
    }),
  },
  {
    name: 'IS_ENTITY_OWNER',
    // The catalog matches ownedBy relations; ingestion stores those targets in `owners`.
    description: 'Catalog: entity is owned by one of the given claims',
    paramsSchema: objectParams({
      claims: {
        type: 'string[]',
        description: 'Owner entity refs to match at least one of',
      },
    }),
    toFilter: ({ claims }: { claims: string[] }): EntityCriteria => ({
      type: 'overlaps',
      field: 'owners',
      values: claims.filter(searchable),
    }),
  },
];

export const catalogRuleTranslations: ReadonlyMap<
  string,
  EntityRuleDefinition<any>
> = new Map(definitions.map(d => [d.name, d]));

/**
 * The catalog conditions of a `catalog.entity.read` decision as a filter; throws on anything
 * unknown.
 */
export function translateCatalogConditions(criteria: unknown): EntityCriteria {
  return translateConditions(criteria, {
    resourceType: CATALOG_RESOURCE_TYPE,
    rules: catalogRuleTranslations,
  });
}
