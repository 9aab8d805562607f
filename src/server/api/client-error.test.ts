import { describe, expect, it } from 'vitest';
import { clientErrorAnswer } from './client-error.ts';

/** Status code, headers and body of a raw answer. */
function parse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, body = ''] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

describe('clientErrorAnswer', () => {
  it('answers a request line past the limit under /api with 431 in the route family’s envelope', () => {
    const a = parse(
      clientErrorAnswer(
        'HPE_HEADER_OVERFLOW',
        Buffer.from(`GET /api/aweme/v1/web/search/sug/?keyword=${'搜'.repeat(6000)}`),
      ),
    );
    expect(a.status).toBe(431);
    expect(a.headers.connection).toBe('close');
    expect(a.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
    expect(JSON.parse(a.body)).toEqual({ status_code: 6, status_msg: '请求的地址或请求头过长' });
    // The passport routes answer in Family A too, Family B's in its own.
    expect(
      JSON.parse(
        parse(clientErrorAnswer('HPE_HEADER_OVERFLOW', Buffer.from('GET /api/passport/qr/status?ticket=x'))).body,
      ).status_code,
    ).toBe(6);
    expect(
      JSON.parse(parse(clientErrorAnswer('HPE_HEADER_OVERFLOW', Buffer.from('GET /api/video/hotVideos?x'))).body),
    ).toEqual({ code: '431', msg: '请求的地址或请求头过长', data: null });
  });

  it('answers a request it cannot parse under /api with 400 in the envelope', () => {
    const a = parse(
      clientErrorAnswer(
        'HPE_INVALID_CONTENT_LENGTH',
        Buffer.from('POST /api/video/feed HTTP/1.1\r\nContent-Length: -1\r\n'),
      ),
    );
    expect(a.status).toBe(400);
    expect(JSON.parse(a.body)).toEqual({ code: '400', msg: '参数错误', data: null });
  });

  it('answers pages, time-outs and requests without a readable target with the status alone', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW', Buffer.from(`GET /search/${'x'.repeat(20000)}`))).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
    );
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toBe(
      'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
    );
    expect(clientErrorAnswer('HPE_INVALID_METHOD', Buffer.from('\u0000\u0001garbage'))).toBe(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
    );
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
});
