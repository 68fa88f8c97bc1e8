/** Polls `probe` until it returns a value that is not undefined (async effects with no completion signal). */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, what = 'condition', timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
