import {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { NotAllowedError } from '@backstage/errors';
import {
  AuthorizeResult,
  BasicPermission,
} from '@backstage/plugin-permission-common';
import { askDocsAdministrativePermissions } from '@askdocs/plugin-ask-docs-common';

const ADMINISTRATIVE = new Set(
  askDocsAdministrativePermissions.map(p => p.name),
);

/** Administrative permissions granted to service subjects (`askDocs.permissions.services`). */
export type ServiceGrants = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Reads `askDocs.permissions.services`: a list of `{ subject, permissions }`. A list rather than a
 * map keyed by subject because subjects (`external:ci-bot`, JWKS subjects) may contain dots.
 * Unknown permission names are a startup error, not a silent no-op.
 */
export function readServiceGrants(config: Config): ServiceGrants {
  const grants = new Map<string, Set<string>>();
  const entries =
    config.getOptionalConfigArray('askDocs.permissions.services') ?? [];
  for (const entry of entries) {
    const subject = entry.getString('subject').trim();
    if (!subject)
      throw new Error(
        'askDocs.permissions.services: subject must not be empty',
      );
    const names = entry.getStringArray('permissions');
    for (const name of names) {
      if (!ADMINISTRATIVE.has(name)) {
        throw new Error(
          `askDocs.permissions.services: ${JSON.stringify(
            name,
          )} for ${subject} is not one of ` +
            `${[...ADMINISTRATIVE].join(', ')}`,
        );
      }
    }
    grants.set(subject, new Set([...(grants.get(subject) ?? []), ...names]));
  }
  return grants;
}

/**
 * Every ask-docs permission decision. Users are decided by the permission framework. Service
 * principals are ALLOWed by Backstage's permission service unless externalAccess
 * accessRestrictions say otherwise, so an administrative permission additionally needs an
 * explicit grant for the service's subject in ask-docs config. A plugin calling on behalf of a
 * user arrives as that user and is decided as that user. A failing check denies.
 */
export class AskDocsAuthorizer {
  constructor(
    private readonly permissions: PermissionsService,
    private readonly serviceGrants: ServiceGrants = new Map(),
  ) {}

  async isAllowed(
    permission: BasicPermission,
    credentials: BackstageCredentials,
  ): Promise<boolean> {
    const principal = credentials.principal as {
      type?: string;
      subject?: string;
    };
    if (principal.type === 'service') {
      const granted =
        this.serviceGrants.get(principal.subject ?? '')?.has(permission.name) ??
        false;
      if (ADMINISTRATIVE.has(permission.name) && !granted) return false;
    } else if (principal.type !== 'user') {
      return false;
    }
    try {
      const [decision] = await this.permissions.authorize([{ permission }], {
        credentials,
      });
      return decision?.result === AuthorizeResult.ALLOW;
    } catch {
      return false;
    }
  }

  async require(
    permission: BasicPermission,
    credentials: BackstageCredentials,
    message: string,
  ) {
    if (!(await this.isAllowed(permission, credentials)))
      throw new NotAllowedError(message);
  }
}
