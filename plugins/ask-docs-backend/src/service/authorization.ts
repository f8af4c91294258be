import {
  BackstageCredentials,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  AuthorizeResult,
  BasicPermission,
} from '@backstage/plugin-permission-common';
import { askDocsAdministrativePermissions } from '@askdocs/plugin-ask-docs-common';

/** The permissions a service needs an explicit `askDocs.permissions.services` grant for. */
export const ADMINISTRATIVE_PERMISSION_NAMES: ReadonlySet<string> = new Set(
  askDocsAdministrativePermissions.map(p => p.name),
);

/** Administrative permissions per service subject (`askDocs.permissions.services`). */
export type ServiceGrants = ReadonlyMap<string, ReadonlySet<string>>;

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
      if (ADMINISTRATIVE_PERMISSION_NAMES.has(permission.name) && !granted)
        return false;
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
