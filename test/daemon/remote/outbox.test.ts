import { expect } from 'chai';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { openOutbox, OUTBOX_FILE_NAME } from '../../../src/daemon/remote/outbox';
import type { AppendBatch } from '../../../src/protocol/daemonLink';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const batch = (batchId: string): AppendBatch => ({
  batchId,
  firstSeqs: { thr_a: 1 },
  events: [
    {
      threadId: 'thr_a',
      type: 'turn/started',
      turnId: 't',
      scope: { kind: 'turn', turnId: 't' },
      data: { providerThreadId: 'p', origin: 'client' },
    },
  ],
});

describe('link: the daemon outbox of unacked batches', () => {
  const tempDir = suiteTempDirs();

  it('keeps unacked batches across a reopen (a daemon restart), oldest first, and forgets acked ones', async () => {
    const dir = await tempDir('ats-outbox-');
    const outbox = await openOutbox(dir);
    outbox.add(batch('b1'));
    outbox.add(batch('b2'));
    outbox.add(batch('b3'));
    outbox.ack('b2');
    expect((await openOutbox(dir)).pending().map((b) => b.batchId)).to.deep.equal(['b1', 'b3']);
  });

  it('ignores a line torn by a crash mid-write and empties the file once nothing is pending', async () => {
    const dir = await tempDir('ats-outbox-');
    const outbox = await openOutbox(dir);
    outbox.add(batch('b1'));
    await appendFile(path.join(dir, OUTBOX_FILE_NAME), '{"add": {"batchId": "b2", "eve');
    const reopened = await openOutbox(dir);
    expect(reopened.pending().map((b) => b.batchId)).to.deep.equal(['b1']);
    reopened.ack('b1');
    expect(await readFile(path.join(dir, OUTBOX_FILE_NAME), 'utf8')).to.equal('');
  });
});
