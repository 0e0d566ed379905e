/** How often a test reads the API while it waits: well under its rate limit of 600 a minute. */
export const apiPollMs = 500;

/**
 * Polls until the condition holds; fails with the given description after the timeout. A condition
 * that reads the API polls every `apiPollMs`: at the default, a wait of over 30 s passes the API's rate limit.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  description: string,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
