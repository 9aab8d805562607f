import { describe, expect, it } from 'vitest';
import { t } from '../../i18n/t.ts';
import { pageRefusal } from './page-door.ts';

const at = (path: string, method = 'GET') => {
  const url = new URL(path, 'http://shanying.test');
  return pageRefusal(new Request(url, { method }), url);
};

describe('pageRefusal', () => {
  it('lets GET and HEAD of ordinary paths through', () => {
    expect(at('/')).toBeNull();
    expect(at('/search/%E7%BE%8E%E9%A3%9F?type=user', 'HEAD')).toBeNull();
    expect(at('/search/a%0Ab')).toBeNull();
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s with 405 and Allow: GET, HEAD', async (method) => {
    const res = at('/video/1', method)!;
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.text()).toBe(t('error.methodNotAllowed'));
  });

  it.each(['/search/%00', '/search/a%00b', '/video/1?ep=%07', '/user/%ED%A0%80', '/search/%FF', '/x?%00=1'])(
    'refuses %s with 400',
    async (path) => {
      const res = at(path)!;
      expect(res.status).toBe(400);
      expect(await res.text()).toBe(t('error.badText'));
    },
  );
});
