import { PermissionCriteria } from '@backstage/plugin-permission-common';
import {
  assertEntityCriteria,
  EntityCriteria,
  EntityFilter,
  InvalidVisibilityCriteriaError,
  mapCriteria,
} from './entityFilter';
import { parseParams } from './paramsSchema';
import { EntityRuleDefinition } from './rules';

/**
 * Turns the conditions of a CONDITIONAL decision (rule name + params leaves under
 * anyOf/allOf/not) into the filter AST. Any unknown rule, foreign resource type, invalid
 * params or malformed node throws: the caller denies the whole decision. Failing the whole
 * decision, not just the leaf, matters because a leaf compiled to `false` under `not` would
 * grant access.
 */
export function translateConditions(
  criteria: unknown,
  options: {
    resourceType: string;
    rules: ReadonlyMap<string, EntityRuleDefinition<any>>;
  },
): EntityCriteria {
  const translated = mapCriteria<EntityFilter>(criteria, leaf => {
    const condition = leaf as Record<string, unknown>;
    const extra = Object.keys(condition).filter(
      k => !['rule', 'resourceType', 'params'].includes(k),
    );
    if (extra.length > 0) {
      throw new InvalidVisibilityCriteriaError(
        `condition has unexpected keys: ${extra.join(', ')}`,
      );
    }
    if (condition.resourceType !== options.resourceType) {
      throw new InvalidVisibilityCriteriaError(
        `condition for resource type ${JSON.stringify(
          condition.resourceType,
        )}, expected '${options.resourceType}'`,
      );
    }
    const name = condition.rule;
    const rule = typeof name === 'string' ? options.rules.get(name) : undefined;
    if (!rule) {
      throw new InvalidVisibilityCriteriaError(
        `unknown rule ${JSON.stringify(name)} for '${options.resourceType}'`,
      );
    }
    let params: unknown;
    try {
      params = parseParams(rule.paramsSchema, condition.params, rule.name);
    } catch (e) {
      throw new InvalidVisibilityCriteriaError((e as Error).message);
    }
    return rule.toFilter(params) as PermissionCriteria<EntityFilter>;
  });
  assertEntityCriteria(translated);
  return translated;
}
