import { describe, expect, it } from 'vitest';
import { GroupCommit, OperationFailed } from './group-commit.js';

/** A commit the test ends by hand: `finish` answers each operation with its own value. */
function heldCommits() {
  const log: string[] = [];
  const held: (() => void)[] = [];
  const commit = (operations: readonly string[]) => {
    log.push(`commit ${operations.join(',')}`);
    return new Promise<readonly string[]>((resolve) => {
      held.push(() => resolve(operations));
    });
  };
  return { log, held, commit };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('sends what arrived during a commit as the next batch before the finished batch is answered', async () => {
    const { log, held, commit } = heldCommits();
    const writes = new GroupCommit(commit, { maxBatch: 10, maxInFlight: 1 });
    const first = writes.submit('a').then((value) => log.push(`answered ${value}`));
    await turn();
    const later = ['b', 'c'].map((op) => writes.submit(op).then((value) => log.push(`answered ${value}`)));
    await turn();
    expect(log).toEqual(['commit a']);
    held.shift()?.();
    await first;
    // The store has the next batch before a's caller goes on (its answer is built while b,c commit).
    expect(log).toEqual(['commit a', 'commit b,c', 'answered a']);
    held.shift()?.();
    await Promise.all(later);
    expect(log).toEqual(['commit a', 'commit b,c', 'answered a', 'answered b', 'answered c']);
  });

  it('takes at most maxBatch operations a batch and keeps maxInFlight batches committing', async () => {
    const { log, held, commit } = heldCommits();
    const writes = new GroupCommit(commit, { maxBatch: 2, maxInFlight: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((op) => writes.submit(op));
    await turn();
    expect(log).toEqual(['commit a,b', 'commit c,d']);
    held.shift()?.();
    await all[1];
    expect(log).toEqual(['commit a,b', 'commit c,d', 'commit e']);
    for (const finish of held.splice(0)) finish();
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd', 'e']);
    await writes.close();
  });

  it('fails one operation alone, or the whole batch when the commit throws', async () => {
    const writes = new GroupCommit<string, string>(
      async (operations) => {
        if (operations.includes('crash')) throw new Error('the disk is full');
        return operations.map((op) => (op === 'taken' ? new OperationFailed(new Error('nick taken')) : op));
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const alone = await Promise.allSettled(['ok', 'taken'].map((op) => writes.submit(op)));
    expect(alone.map(({ status }) => status)).toEqual(['fulfilled', 'rejected']);
    const together = await Promise.allSettled(['ok', 'crash'].map((op) => writes.submit(op)));
    expect(together.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    await writes.close();
    await expect(writes.submit('late')).rejects.toThrow('closed');
  });
});
