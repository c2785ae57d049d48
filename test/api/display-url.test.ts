import { describe, expect, it } from 'vitest';
import { displayUrl } from '../../src/api/display-url.js';

describe('displayUrl', () => {
  it.each([
    ['http://bob:pw123@host:8080/api', 'http://host:8080/api'],
    ['https://bob@example.com', 'https://example.com'],
    ['http://:pw@host/', 'http://host/'],
    ['http://a:b@c@host/', 'http://host/'], // the last '@' ends the user info
    ['http://bob:pa/ss@host', 'http://host'], // does not parse: everything up to the last '@' goes
    ['bob pw@host', 'host'],
    // unchanged: no credentials, or an '@' outside the authority
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://host/a@b', 'http://host/a@b'],
    ['http://host?x=a@b', 'http://host?x=a@b'],
    ['not a url', 'not a url'],
  ])('%s -> %s', (input, shown) => {
    expect(displayUrl(input)).toBe(shown);
  });
});
