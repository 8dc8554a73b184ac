/** The time source; injected so that expiry is exact in tests. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
