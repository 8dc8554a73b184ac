export const PASSWORD_MIN_LENGTH = 12;
/** Argon2 takes any length; a bound keeps one sign-in from costing more than another. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Argon2id (the package's default algorithm) with OWASP's first recommended set: 19 MiB of memory, two
 * passes, one lane. It runs on libuv's thread pool, off the event loop.
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** What is wrong with a new password, in a sentence; `undefined`: nothing. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `a password needs ${PASSWORD_MIN_LENGTH} characters or more`;
  if (length > PASSWORD_MAX_LENGTH) return `a password has at most ${PASSWORD_MAX_LENGTH} characters`;
  if (/\p{Cc}/u.test(password)) return 'a password must not contain control characters';
  return undefined;
}

/**
 * The native module, loaded at the first hash: loaded with this module, it added 0.04 s of CPU to the
 * start of every operator command, and only operator and console passwords need it.
 */
const argon2 = () => import('@node-rs/argon2');

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, ARGON2_OPTIONS);
}

/** Whether the password matches the stored hash; a malformed hash matches nothing. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // Loaded outside the try: a module that cannot load is an error, not a password that does not match.
  const { verify } = await argon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * A hash no password matches, verified when the username is unknown or disabled: the answer then costs
 * what a wrong password costs, so the time taken does not tell which usernames exist.
 */
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(`decoy-${Math.random()}-${Date.now()}`);
  return decoy;
}
