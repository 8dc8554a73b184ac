/** Largest request body accepted (decisions.md §9); larger ones answer 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Most parameters one form or query string may carry, as PHP's max_input_vars. */
export const MAX_FORM_PARAMETERS = 1000;
/** Deepest bracket nesting in a form key (`a[b][c]` is depth 3). */
export const MAX_FORM_DEPTH = 5;
