/** Largest request body accepted (docs/design.md §1); larger ones answer 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Most parameters one form or query string may carry, as PHP's max_input_vars. */
export const MAX_FORM_PARAMETERS = 1000;
