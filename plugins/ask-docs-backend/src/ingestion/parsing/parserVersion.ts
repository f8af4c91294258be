/** Bump it when parsing changes what chunks contain, so unchanged pages are re-chunked once. */
export const PARSER_VERSION = 1;
