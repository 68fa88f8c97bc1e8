import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

const NTFY = 'https://ntfy.sh/my-ats-7f3k2?tpl=1&t={{.title}}&m={{.summary}}%0A{{.url}}';

describe('server config: webhook notifications (issue 31)', () => {
  it('sends nothing unless ATS_NOTIFY_WEBHOOK is set; retries 1 s doubling to 60 s for up to an hour', () => {
    const config = loadConfig([], {});
    expect([config.notifyWebhook, config.notifyWebhookSecret, config.publicUrl]).to.deep.equal([undefined, undefined, undefined]);
    expect(config).to.deep.include({
      notifyRetryInitialMs: 1_000,
      notifyRetryMaxMs: 60_000,
      notifyGiveUpMs: 3_600_000,
      notifyQueueMax: 1_000,
    });
  });

  it('takes the ntfy recipe of docs/notifications.md as it is written, braces and all', () => {
    const config = loadConfig([], {
      ATS_NOTIFY_WEBHOOK: NTFY,
      ATS_NOTIFY_WEBHOOK_SECRET: 'x'.repeat(32),
      ATS_PUBLIC_URL: 'https://ats.example.org',
    });
    expect(config).to.deep.include({ notifyWebhook: NTFY, notifyWebhookSecret: 'x'.repeat(32), publicUrl: 'https://ats.example.org' });
  });

  it('refuses a secret shorter than 16 characters by its name, without repeating it', () => {
    const secret = 'hunter2-secret';
    expect(() => loadConfig([], { ATS_NOTIFY_WEBHOOK: NTFY, ATS_NOTIFY_WEBHOOK_SECRET: secret }))
      .to.throw(ConfigError, /ATS_NOTIFY_WEBHOOK_SECRET/)
      .and.satisfy((error: Error) => !error.message.includes(secret));
  });

  it('refuses a webhook that is not http(s)', () => {
    expect(() => loadConfig([], { ATS_NOTIFY_WEBHOOK: 'ftp://example.org/hook' })).to.throw(ConfigError, /--notify-webhook/);
  });
});
