/** Runs `work` over `items`, `limit` at a time; rejects with the first error once every task has settled. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  const errors: unknown[] = [];
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      try {
        results[index] = await work(item);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  if (errors.length > 0) throw errors[0];
  return results;
}
