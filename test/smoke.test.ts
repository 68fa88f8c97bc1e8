import { expect } from 'chai';
import { of, lastValueFrom, toArray } from 'rxjs';

describe('toolchain', () => {
  it('runs TypeScript tests with rxjs and chai', async () => {
    expect(await lastValueFrom(of(1, 2).pipe(toArray()))).to.deep.equal([1, 2]);
  });
});
