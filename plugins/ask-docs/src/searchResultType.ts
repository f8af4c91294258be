/** Search result type rendered by the Ask the docs search result list item. */
export const ASK_DOCS_SEARCH_RESULT_TYPE = 'ask-docs';
