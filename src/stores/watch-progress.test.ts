import { describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
const { apiPost } = await import('./api.ts');
const f = await import('./watch-progress.ts');
const post = vi.mocked(apiPost);

const login = () => local.setItem('sy.user', JSON.stringify({ token: 't0k', userInfo: null }));

describe('watch history', () => {
  it('writes only for a logged-in viewer, at most every 10 s while playing, always when leaving a video', async () => {
    expect(f.reportProgress('42', 1)).toBe(false);
    login();
    post.mockResolvedValue({ play_count: 1 });
    expect(f.reportProgress('7', 1.2, 'tick', 100_000)).toBe(true);
    expect(f.reportProgress('7', 3, 'tick', 105_000)).toBe(false);
    expect(f.reportProgress('7', 6, 'tick', 111_000)).toBe(true);
    expect(f.reportProgress('7', 6.5, 'final', 111_500)).toBe(true);
    expect(f.reportProgress('7', 6.5, 'final', 111_600)).toBe(false);
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(3));
    expect(post).toHaveBeenNthCalledWith(
      1,
      '/aweme/v1/web/history/write/',
      { aweme_id: '7', progress: 1200 },
      { quiet: true },
    );
    expect(post).toHaveBeenLastCalledWith(
      '/aweme/v1/web/history/write/',
      { aweme_id: '7', progress: 6500 },
      { quiet: true },
    );
  });

  it('leaving the page sends a keepalive request with the Token header', () => {
    login();
    const fetchMock = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchMock);
    expect(f.reportProgress('8', 2.5, 'unload')).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/aweme/v1/web/history/write/');
    expect(init.keepalive).toBe(true);
    expect((init.headers as Record<string, string>).Token).toBe('t0k');
    expect(String(init.body)).toBe('aweme_id=8&progress=2500');
    vi.unstubAllGlobals();
  });
});
