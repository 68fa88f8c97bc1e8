import { expect } from 'chai';
import { failureOfStatus } from '../../src/notifications/deliveryFailure';

describe('failureOfStatus() (issue 31: which answers of a webhook receiver are retried)', () => {
  const cases: [number, 'delivered' | 'retried' | 'given up'][] = [
    [200, 'delivered'],
    [204, 'delivered'],
    [301, 'given up'],
    [400, 'given up'],
    [401, 'given up'],
    [404, 'given up'],
    [408, 'retried'],
    [429, 'retried'],
    [500, 'retried'],
    [503, 'retried'],
  ];
  for (const [status, fate] of cases)
    it(`HTTP ${status}: ${fate}`, () => {
      const failure = failureOfStatus(status);
      expect(failure === undefined ? 'delivered' : failure.retryable ? 'retried' : 'given up').to.equal(fate);
    });
});
