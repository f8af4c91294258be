import { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  AnswerRecord,
  AskRequest,
  AskResponse,
} from '@askdocs/plugin-ask-docs-common';

/**
 * Ask the docs for other backend plugins. Every call is made on behalf of the given credentials:
 * the answer only ever uses documents that principal may read.
 */
export interface AskDocsService {
  ask(
    request: AskRequest,
    options: { credentials: BackstageCredentials },
  ): Promise<AskResponse>;
  getAnswer(
    id: string,
    options: { credentials: BackstageCredentials },
  ): Promise<AnswerRecord | undefined>;
}
