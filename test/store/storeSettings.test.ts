import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

describe('embedded store settings: ATS_FSYNC, ATS_STORE_OPEN_THREADS, ATS_STORE_OPEN_MB', () => {
  it('fsyncs in batches and holds 64 threads / 64 MiB in memory by default', () => {
    expect(loadConfig([], {})).to.deep.include({ fsync: 'batch', storeOpenThreads: 64, storeOpenMb: 64 });
  });

  it('reads them from env vars and flags', () => {
    const config = loadConfig(['--fsync', 'always', '--store-open-mb=8'], { ATS_FSYNC: 'off', ATS_STORE_OPEN_THREADS: '3' });
    expect(config).to.deep.include({ fsync: 'always', storeOpenThreads: 3, storeOpenMb: 8 });
  });

  it('refuses a durability it does not know, naming the setting', () => {
    expect(() => loadConfig([], { ATS_FSYNC: 'sometimes' })).to.throw(ConfigError, /--fsync \/ ATS_FSYNC/);
    expect(() => loadConfig(['--store-open-threads', '0'], {})).to.throw(ConfigError, /--store-open-threads/);
  });
});
