import { useCallback } from 'react';
import { useRouteRef } from '@backstage/core-plugin-api';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { techdocsReaderRouteRef } from '../routes';

type EntityRouteFunc = (params: {
  namespace: string;
  kind: string;
  name: string;
}) => string;

/** Where the app mounts the pages the backend's links name; undefined where it does not. */
export interface PortalRoutes {
  techdocsReader?: EntityRouteFunc;
  entityPage?: EntityRouteFunc;
}

// The backend's fixed paths: '/docs/<ns>/<kind>/<name>/<page>#anchor' and
// '/catalog/<ns>/<kind>/<name>', each part URI-encoded.
const BACKEND_PATH = /^\/(docs|catalog)\/([^/?#]+)\/([^/?#]+)\/([^/?#]+)(.*)$/;

/**
 * The backend's link to a TechDocs or entity page, rebased onto where this app mounts that page.
 * Anything else, or a page the app does not mount, keeps the backend's link.
 */
export function portalLink(url: string, routes: PortalRoutes): string {
  const match = BACKEND_PATH.exec(url);
  if (!match) return url;
  const [, page, namespace, kind, name, rest] = match;
  const route = page === 'docs' ? routes.techdocsReader : routes.entityPage;
  if (!route) return url;
  // The parts stay encoded: route functions insert params as given. A route the app mounts with
  // more params than these cannot be built: the backend's link then.
  let base: string;
  try {
    base = route({ namespace, kind, name });
  } catch {
    return url;
  }
  return rest.startsWith('/') ? base.replace(/\/$/, '') + rest : base + rest;
}

// Undefined (the optional TechDocs route unbound) or thrown (no catalog route) where the app does
// not mount the page; links then stay as the backend sent them.
function useTechdocsReaderRoute(): EntityRouteFunc | undefined {
  try {
    return useRouteRef(techdocsReaderRouteRef);
  } catch {
    return undefined;
  }
}

function useEntityPageRoute(): EntityRouteFunc | undefined {
  try {
    return useRouteRef(entityRouteRef);
  } catch {
    return undefined;
  }
}

/** Maps the backend's source and citation urls to this app's routes (see portalLink). */
export function usePortalLink(): (url: string) => string {
  const techdocsReader = useTechdocsReaderRoute();
  const entityPage = useEntityPageRoute();
  return useCallback(
    (url: string) => portalLink(url, { techdocsReader, entityPage }),
    [techdocsReader, entityPage],
  );
}
