import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { AskDocsService } from './AskDocsService';
import { DefaultAskDocsService } from './DefaultAskDocsService';

/** Inject this into a backend plugin to ask the docs on behalf of a user. */
export const askDocsServiceRef = createServiceRef<AskDocsService>({
  id: 'ask-docs.service',
  scope: 'plugin',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: { discovery: coreServices.discovery, auth: coreServices.auth },
      factory: ({ discovery, auth }) =>
        new DefaultAskDocsService(discovery, auth),
    }),
});
