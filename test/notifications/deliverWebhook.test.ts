import { expect } from 'chai';
import { defer, map, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { deliverWebhook, type DeliverWebhookDeps } from '../../src/notifications/deliverWebhook';
import type { DeliveryWatch } from '../../src/notifications/deliveryWatch';
import type { PendingNotification } from '../../src/notifications/describeMoments';
import { signatureOf, type WebhookRequest } from '../../src/notifications/webhookRequest';
import type { WebhookNotification } from '../../src/notifications/webhookNotification';
import { testScheduler } from '../helpers/pipeline/marbles';

const notification = (seq: number): WebhookNotification => ({
  event: 'turn.completed',
  threadId: 'thr_1',
  title: 'demo',
  projectId: 'proj_1',
  seq,
  status: 'completed',
  summary: 'done',
  text: 'demo: turn completed: done http://page/#/threads/thr_1',
  url: 'http://page/#/threads/thr_1',
  createdAt: '2026-11-27T08:00:00.000Z',
});
const pending = (seq: number, queuedAt = 0): PendingNotification => ({ notification: notification(seq), queuedAt });

/** The watch's calls as short words, in order: what the log hears. */
function recordingWatch(calls: string[]): DeliveryWatch {
  return {
    attemptFailed: (failure) => calls.push(`failed ${failure.message}`),
    delivered: (n) => calls.push(`delivered ${n.seq}`),
    gaveUp: (n, failure) => calls.push(`gave up ${n.seq}: ${failure.message}`),
    dropped: (n) => calls.push(`dropped ${n.seq}`),
    idle: () => calls.push('idle'),
  };
}

/** A receiver that answers each POST with the next status of `answers` after `frames` (then 200s). */
function receiver(scheduler: TestScheduler, answers: string, requests: WebhookRequest[]): DeliverWebhookDeps['post'] {
  let next = 0;
  return (request) =>
    defer((): Observable<number> => {
      requests.push(request);
      const marble = answers.split(' ').filter(Boolean)[next++] ?? '-(2|)';
      return scheduler.createColdObservable(marble, { 2: 200, 5: 500, 4: 400, 9: 429 });
    }).pipe(map(Number));
}

const deps = (scheduler: TestScheduler, post: DeliverWebhookDeps['post'], calls: string[], more: Partial<DeliverWebhookDeps> = {}) => ({
  url: 'http://receiver/hook',
  secret: 'a-secret-of-16-chars',
  post,
  retryInitialMs: 2,
  retryMaxMs: 8,
  giveUpMs: 100,
  timeoutMs: 50,
  queueMax: 10,
  watch: recordingWatch(calls),
  scheduler,
  ...more,
});

describe('deliverWebhook() (issue 31: one signed POST per event, retried, in order)', () => {
  it('POSTs each notification once, signed, with its delivery id', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    const requests: WebhookRequest[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b--|', { a: pending(1), b: pending(2) });
      const out = source.pipe(
        deliverWebhook(deps(scheduler, receiver(scheduler, '-(2|) -(2|)', requests), calls)),
        map((o) => o.attempts),
      );
      expectObservable(out).toBe('--a-b-|', { a: 1, b: 1 });
    });
    expect(requests.map((r) => r.headers['x-ats-delivery'])).to.deep.equal(['thr_1:1', 'thr_1:2']);
    for (const request of requests)
      expect(request.headers['x-ats-signature-256']).to.equal(signatureOf(request.body, 'a-secret-of-16-chars'));
    expect(JSON.parse(requests[0]!.body)).to.deep.equal(notification(1));
    expect(calls).to.deep.equal(['delivered 1', 'idle', 'delivered 2', 'idle']);
  });

  it('retries a 500 after the backoff and holds the next event behind it, so a receiver sees them in order', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    const requests: WebhookRequest[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-ab----------|', { a: pending(1), b: pending(2) });
      // a: 500 at frame 2, retried 2 frames later (4), 200 at 5; b then goes at 5, 200 at 6.
      const out = source.pipe(deliverWebhook(deps(scheduler, receiver(scheduler, '-(5|) -(2|) -(2|)', requests), calls)));
      expectObservable(out.pipe(map((o) => `${o.notification.seq}:${o.attempts}`))).toBe('-----ab------|', { a: '1:2', b: '2:1' });
    });
    expect(requests.map((r) => r.headers['x-ats-delivery'])).to.deep.equal(['thr_1:1', 'thr_1:1', 'thr_1:2']);
    expect(calls).to.deep.equal(['failed HTTP 500', 'delivered 1', 'delivered 2', 'idle']);
  });

  it('gives a 400 up at once (the receiver refuses it; trying again will not help) and goes on', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-ab---|', { a: pending(1), b: pending(2) });
      const out = source.pipe(
        deliverWebhook(deps(scheduler, receiver(scheduler, '-(4|) -(2|)', []), calls)),
        map((o) => o.delivered),
      );
      expectObservable(out).toBe('--ab--|', { a: false, b: true });
    });
    expect(calls).to.deep.equal(['failed HTTP 400, not retried', 'gave up 1: HTTP 400, not retried', 'delivered 2', 'idle']);
  });

  it('a POST with no answer within the timeout fails and is retried', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('a', { a: pending(1) });
      const out = source.pipe(
        deliverWebhook(deps(scheduler, receiver(scheduler, '- -(2|)', []), calls, { timeoutMs: 5 })),
        map((o) => o.attempts),
      );
      // No answer: fails at 5, retried at 7, answered at 8.
      expectObservable(out).toBe('--------a', { a: 2 });
    });
    expect(calls).to.deep.equal(['failed no answer in 5 ms', 'delivered 1', 'idle']);
  });

  it('gives up once its time is up, and drops what waited past it without a POST', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    const requests: WebhookRequest[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('(ab)', { a: pending(1), b: pending(2) });
      const post = receiver(scheduler, Array.from({ length: 50 }, () => '-(5|)').join(' '), requests);
      const out = source.pipe(
        deliverWebhook(deps(scheduler, post, calls, { giveUpMs: 17 })),
        map((o) => o.delivered),
      );
      // Tries of a at 0, 3, 8, 17 (waits 2, 4, 8); the next would start at 26 > 17: given up at 18, b is stale.
      expectObservable(out).toBe('------------------(ab)', { a: false, b: false });
    });
    expect(requests).to.have.length(4);
    expect(calls).to.deep.equal([
      'failed HTTP 500',
      'failed HTTP 500',
      'failed HTTP 500',
      'failed HTTP 500',
      'gave up 1: HTTP 500',
      'gave up 2: older than 17 ms',
      'idle',
    ]);
  });

  it('drops the oldest waiting event when more than queueMax wait', () => {
    const scheduler = testScheduler();
    const calls: string[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('(abcd)', { a: pending(1), b: pending(2), c: pending(3), d: pending(4) });
      const out = source.pipe(
        deliverWebhook(deps(scheduler, receiver(scheduler, '', []), calls, { queueMax: 2 })),
        map((o) => o.notification.seq),
      );
      expectObservable(out).toBe('-abc', { a: 1, b: 3, c: 4 });
    });
    expect(calls).to.deep.equal(['dropped 2', 'delivered 1', 'delivered 3', 'delivered 4', 'idle']);
  });
});
