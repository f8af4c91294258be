import { parseEntityRef } from '@backstage/catalog-model';

/**
 * A scope's entity ref in full, as the catalog reads it: "component:payments" is
 * "component:default/payments"; case stays as typed (retrieval compares refs without case).
 * Undefined when it names no entity: a ref without a kind, or not a ref at all.
 *
 * @public
 */
export function normalizeScopeRef(ref: string): string | undefined {
  try {
    const { kind, namespace, name } = parseEntityRef(ref, {
      defaultNamespace: 'default',
    });
    return `${kind}:${namespace}/${name}`;
  } catch {
    return undefined;
  }
}
