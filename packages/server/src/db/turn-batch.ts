interface Waiting<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * Lookups by key that arrive in the same turn of the event loop, asked together: under load, dozens of
 * them share one query (or one message to a database thread) instead of paying one each. Alone, a
 * lookup waits for nothing but the end of the turn it came in. The same key asked twice is asked once.
 */
export class TurnBatch<V> {
  private waiting = new Map<string, Waiting<V>[]>();
  private scheduled = false;

  /**
   * @param find answers the values of the keys it knows (a key missing from the map has none)
   * @param maxKeys most keys one `find` takes; more go into the next
   */
  constructor(
    private readonly find: (keys: string[]) => Promise<ReadonlyMap<string, V>>,
    private readonly maxKeys: number,
  ) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.send());
      }
    });
  }

  private send(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = new Map();
    const keys = [...all.keys()];
    for (let start = 0; start < keys.length; start += this.maxKeys) {
      const batch = keys.slice(start, start + this.maxKeys);
      this.find(batch).then(
        (found) => {
          for (const key of batch) for (const lookup of all.get(key) ?? []) lookup.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of batch) for (const lookup of all.get(key) ?? []) lookup.reject(error);
        },
      );
    }
  }
}
