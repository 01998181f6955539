/** Wrap `fn` so that at most `perSecond` calls run each second; extra calls return undefined. */
export function rateLimited<A extends unknown[], R>(fn: (...args: A) => R, perSecond: number): (...args: A) => R | undefined {
  let windowStart = Date.now();
  let calls = 0;
  return (...args: A) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      calls = 0;
    }
    if (calls >= perSecond) return undefined;
    calls += 1;
    return fn(...args);
  };
}
