/**
 * Client ids appear in URLs and logs: a short, plain alphabet. Here, beside the clock and the config,
 * rather than with the client (clients/client.ts): the request log (http/logging.ts), below the clients'
 * code, keeps a `client=` value only when it has this form.
 */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
