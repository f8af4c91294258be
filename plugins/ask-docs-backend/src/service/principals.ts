import type { BackstageCredentials } from '@backstage/backend-plugin-api';

/**
 * Who a caller is, as answer records and audit events name them: a user's entity ref,
 * `service:<subject>` for a service, else the principal's type ('none').
 */
export function principalRef(credentials: BackstageCredentials): string {
  const p = credentials.principal as {
    type: string;
    userEntityRef?: string;
    subject?: string;
  };
  if (p.type === 'user' && p.userEntityRef) return p.userEntityRef;
  if (p.type === 'service' && p.subject) return `service:${p.subject}`;
  return p.type;
}

/** The plugin that made the call on the user's behalf (an on-behalf-of token's actor). */
export function actorRef(
  credentials: BackstageCredentials,
): string | undefined {
  const p = credentials.principal as {
    type: string;
    actor?: { subject?: string };
  };
  return p.type === 'user' ? p.actor?.subject : undefined;
}
