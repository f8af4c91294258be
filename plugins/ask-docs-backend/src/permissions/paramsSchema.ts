/**
 * Parameter schemas for permission rules, written once and used both to validate params (the
 * resolver rejects invalid ones) and to describe them as JSON Schema for the permission
 * framework's metadata. Implements Standard Schema + Standard JSON Schema directly, which is
 * the non-deprecated form `createPermissionRule` accepts, without tying this package to the
 * permission framework's own zod version.
 */

type FieldType = 'string' | 'string[]';

export interface ParamField {
  type: FieldType;
  description: string;
  optional?: boolean;
  /** Strings must be non-empty (for single strings only). */
  nonEmpty?: boolean;
}

export interface ParamsSchema<TParams> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: { readonly input: TParams; readonly output: TParams };
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: TParams; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string }> };
    readonly jsonSchema: {
      readonly input: (options: {
        readonly target: string;
      }) => Record<string, unknown>;
      readonly output: (options: {
        readonly target: string;
      }) => Record<string, unknown>;
    };
  };
}

function fieldIssue(
  name: string,
  field: ParamField,
  value: unknown,
): string | undefined {
  if (value === undefined)
    return field.optional ? undefined : `'${name}' is required`;
  if (field.type === 'string') {
    if (typeof value !== 'string') return `'${name}' must be a string`;
    if (field.nonEmpty && value === '') return `'${name}' must not be empty`;
    return undefined;
  }
  if (!Array.isArray(value) || !value.every(v => typeof v === 'string'))
    return `'${name}' must be an array of strings`;
  return undefined;
}

/**
 * An object schema with the given fields and no others (a misspelt key is an error, not ignored).
 */
export function objectParams<TParams>(
  fields: Record<string, ParamField>,
): ParamsSchema<TParams> {
  const jsonSchema = () => ({
    type: 'object',
    additionalProperties: false,
    required: Object.entries(fields)
      .filter(([, f]) => !f.optional)
      .map(([name]) => name),
    properties: Object.fromEntries(
      Object.entries(fields).map(([name, f]) => [
        name,
        f.type === 'string'
          ? {
              type: 'string',
              description: f.description,
              ...(f.nonEmpty ? { minLength: 1 } : {}),
            }
          : {
              type: 'array',
              items: { type: 'string' },
              description: f.description,
            },
      ]),
    ),
  });
  return {
    '~standard': {
      version: 1,
      vendor: 'ask-docs',
      validate(value: unknown) {
        if (
          typeof value !== 'object' ||
          value === null ||
          Array.isArray(value)
        ) {
          return { issues: [{ message: 'params must be an object' }] };
        }
        const record = value as Record<string, unknown>;
        const messages = [
          // Own fields only: `in` would also find `constructor`, `toString`, ...
          ...Object.keys(record)
            .filter(k => !Object.hasOwn(fields, k))
            .map(k => `unexpected parameter '${k}'`),
          ...Object.entries(fields).flatMap(
            ([name, f]) => fieldIssue(name, f, record[name]) ?? [],
          ),
        ];
        if (messages.length > 0)
          return { issues: messages.map(message => ({ message })) };
        return { value: { ...record } as TParams };
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

/** Validates with a rule's schema; throws with the issues joined. */
export function parseParams<TParams>(
  schema: ParamsSchema<TParams>,
  value: unknown,
  ruleName: string,
): TParams {
  const result = schema['~standard'].validate(value);
  if (result.issues) {
    throw new Error(
      `invalid params for rule ${ruleName}: ${result.issues
        .map(i => i.message)
        .join('; ')}`,
    );
  }
  return result.value;
}
