import { expect } from 'chai';
import { hasBearer, sameSecret } from '../../src/server/http/authMiddleware';

describe('server: the bearer token compare', () => {
  const token = 'test-token-0123456789abcdef';
  const bearer = (value: string) => ({ authorization: value });

  it('takes the token, with any case of "Bearer" and trailing spaces', () => {
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `Bearer   ${token}  `])
      expect(hasBearer(bearer(header), token), header).to.equal(true);
  });

  it('refuses a shorter, longer, same-length or empty token, and never throws on a length mismatch', () => {
    const wrong = ['', 'x', token.slice(0, -1), `${token}x`, token.replace(/.$/, 'g'), token.toUpperCase(), 'é'.repeat(token.length)];
    for (const given of wrong) {
      expect(sameSecret(given, token), JSON.stringify(given)).to.equal(false);
      if (given) expect(hasBearer(bearer(`Bearer ${given}`), token), JSON.stringify(given)).to.equal(false);
    }
    expect(hasBearer({}, token)).to.equal(false);
    expect(hasBearer(bearer(token), token)).to.equal(false);
  });

  it('compares text, not bytes of one encoding: the same characters match, other ones do not', () => {
    expect(sameSecret('tökén', 'tökén')).to.equal(true);
    expect(sameSecret('tökén', 'tokén')).to.equal(false);
  });
});
