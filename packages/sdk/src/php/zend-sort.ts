/**
 * PHP's `zend_sort` (Zend/zend_sort.c), step for step: insertion sort up to 16 elements (with its
 * hand-written networks for 2 to 5), a hybrid quicksort above. PHP's key comparison is not transitive
 * for some mixes of numeric and other keys, so only the very same sequence of comparisons and swaps
 * gives PHP's order; a different correct sort algorithm would not.
 */
export type Compare<T> = (a: T, b: T) => number;

export function zendSort<T>(items: T[], cmp: Compare<T>): void {
  sortRange(items, 0, items.length, cmp);
}

function swap<T>(items: T[], i: number, j: number): void {
  const held = items[i] as T;
  items[i] = items[j] as T;
  items[j] = held;
}

/** `cmp(items[i], items[j]) > 0` */
function greater<T>(items: T[], i: number, j: number, cmp: Compare<T>): boolean {
  return cmp(items[i] as T, items[j] as T) > 0;
}

function sort2<T>(items: T[], a: number, b: number, cmp: Compare<T>): void {
  if (greater(items, a, b, cmp)) swap(items, a, b);
}

function sort3<T>(items: T[], a: number, b: number, c: number, cmp: Compare<T>): void {
  if (!greater(items, a, b, cmp)) {
    if (!greater(items, b, c, cmp)) return;
    swap(items, b, c);
    if (greater(items, a, b, cmp)) swap(items, a, b);
    return;
  }
  if (!greater(items, c, b, cmp)) {
    swap(items, a, c);
    return;
  }
  swap(items, a, b);
  if (greater(items, b, c, cmp)) swap(items, b, c);
}

function sort4<T>(items: T[], a: number, b: number, c: number, d: number, cmp: Compare<T>): void {
  sort3(items, a, b, c, cmp);
  if (greater(items, c, d, cmp)) {
    swap(items, c, d);
    if (greater(items, b, c, cmp)) {
      swap(items, b, c);
      if (greater(items, a, b, cmp)) swap(items, a, b);
    }
  }
}

function sort5<T>(items: T[], a: number, b: number, c: number, d: number, e: number, cmp: Compare<T>): void {
  sort4(items, a, b, c, d, cmp);
  if (greater(items, d, e, cmp)) {
    swap(items, d, e);
    if (greater(items, c, d, cmp)) {
      swap(items, c, d);
      if (greater(items, b, c, cmp)) {
        swap(items, b, c);
        if (greater(items, a, b, cmp)) swap(items, a, b);
      }
    }
  }
}

/** `zend_insert_sort` over items[start, start + count). */
function insertSort<T>(items: T[], start: number, count: number, cmp: Compare<T>): void {
  switch (count) {
    case 0:
    case 1:
      return;
    case 2:
      sort2(items, start, start + 1, cmp);
      return;
    case 3:
      sort3(items, start, start + 1, start + 2, cmp);
      return;
    case 4:
      sort4(items, start, start + 1, start + 2, start + 3, cmp);
      return;
    case 5:
      sort5(items, start, start + 1, start + 2, start + 3, start + 4, cmp);
      return;
  }
  const end = start + count;
  const sentry = start + 6;
  for (let i = start + 1; i < sentry; i++) {
    let j = i - 1;
    if (!greater(items, j, i, cmp)) continue;
    while (j !== start) {
      j--;
      if (!greater(items, j, i, cmp)) {
        j++;
        break;
      }
    }
    for (let k = i; k > j; k--) swap(items, k, k - 1);
  }
  for (let i = sentry; i < end; i++) {
    let j = i - 1;
    if (!greater(items, j, i, cmp)) continue;
    for (;;) {
      j -= 2;
      if (!greater(items, j, i, cmp)) {
        j++;
        if (!greater(items, j, i, cmp)) j++;
        break;
      }
      if (j === start) break;
      if (j === start + 1) {
        j--;
        if (greater(items, i, j, cmp)) j++;
        break;
      }
    }
    for (let k = i; k > j; k--) swap(items, k, k - 1);
  }
}

/** `zend_sort` over items[start, start + count). */
function sortRange<T>(items: T[], start: number, count: number, cmp: Compare<T>): void {
  for (;;) {
    if (count <= 16) {
      insertSort(items, start, count, cmp);
      return;
    }
    const end = start + count;
    const offset = count >> 1;
    let pivot = start + offset;
    if (count >> 10) {
      const delta = offset >> 1;
      sort5(items, start, start + delta, pivot, pivot + delta, end - 1, cmp);
    } else {
      sort3(items, start, pivot, end - 1, cmp);
    }
    swap(items, start + 1, pivot);
    pivot = start + 1;
    let i = pivot + 1;
    let j = end - 1;
    partition: for (;;) {
      while (greater(items, pivot, i, cmp)) {
        i++;
        if (i === j) break partition;
      }
      j--;
      if (j === i) break;
      while (greater(items, j, pivot, cmp)) {
        j--;
        if (j === i) break partition;
      }
      swap(items, i, j);
      i++;
      if (i === j) break;
    }
    swap(items, pivot, i - 1);
    if (i - 1 - start < end - i) {
      sortRange(items, start, i - start - 1, cmp);
      count = end - i;
      start = i;
    } else {
      sortRange(items, i, end - i, cmp);
      count = i - start - 1;
    }
  }
}
