import { describe, expect, it } from 'vitest';
import { serverErrorAnswer, unavailableAnswer } from './unavailable.ts';

describe('the answers given when a request cannot be served', () => {
  it('a failure under /api answers its family’s envelope as JSON, a page a small HTML page, never a bare JSON object', () => {
    const a = serverErrorAnswer('/api/aweme/v1/web/aweme/detail/');
    expect(a.status).toBe(500);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(a.body)).toEqual({ status_code: 1, status_msg: '服务器开小差了，请稍后再试' });

    const upload = serverErrorAnswer('/api/upload/abc');
    expect(JSON.parse(upload.body)).toMatchObject({ code: '500', msg: '服务器开小差了，请稍后再试', data: null });

    const page = serverErrorAnswer('/video/2');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<p>服务器开小差了，请稍后再试</p>');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('503 says when to come back, and closes the connection when asked', () => {
    const a = unavailableAnswer('/api/video/feed', 5, true);
    expect(a).toMatchObject({ status: 503, headers: { 'retry-after': '5', connection: 'close' } });
    expect(JSON.parse(a.body)).toMatchObject({ msg: '服务暂时不可用，请稍后再试' });
  });
});
