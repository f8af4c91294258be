/** The README steps the adopter test runs, per README, in the order an adopter follows them. */
export const ADOPTER_STEPS: Record<string, string[]> = {
  'plugins/ask-docs-backend/README.md': [
    'backend-add',
    'backend-register',
    'embedded-db-add',
    'embedded-db-start',
    'embedded-db-config',
  ],
  'plugins/ask-docs/README.md': ['frontend-add', 'frontend-languages'],
};
