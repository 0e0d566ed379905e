/** Runs `count` tasks, at most `parallel` at a time, each started in order of its index. */
export async function pooled(
  count: number,
  parallel: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(parallel, count)) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
