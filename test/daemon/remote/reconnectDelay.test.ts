import { expect } from 'chai';
import { reconnectDelay } from '../../../src/daemon/remote/reconnectDelay';

describe('link: reconnect backoff with jitter', () => {
  const policy = { initialMs: 100, maxMs: 1000 };
  const cases: [attempt: number, random: number, delay: number][] = [
    [0, 0, 50],
    [0, 1, 100],
    [1, 0.5, 150],
    [3, 1, 800],
    [4, 0, 500],
    [4, 1, 1000],
    [40, 1, 1000],
  ];
  for (const [attempt, random, delay] of cases) {
    it(`waits ${delay} ms on attempt ${attempt} when the jitter draws ${random}`, () => {
      expect(reconnectDelay(attempt, policy, () => random)).to.equal(delay);
    });
  }
});
