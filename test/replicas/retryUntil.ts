/** Runs `check` until it stops throwing (an assertion about effects spread over processes), or rethrows at the deadline. */
export async function retryUntil<T>(check: () => Promise<T>, timeoutMs = 5_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
