import { beforeEach, describe, expect, it, vi } from 'vitest';

const env = await vi.hoisted(async () => {
  const { installStorages } = await import('../../tests/unit/memory-storage.ts');
  return installStorages();
});

vi.mock('./toast.ts', () => ({ toast: vi.fn() }));

const { toast } = await import('./toast.ts');
const { apiGet, apiPost, ApiFailure } = await import('./api.ts');
const { $user, loginSucceeded } = await import('./user.ts');
const { $auth, $loginOpen, $sessionEnded, closeLogin } = await import('./auth.ts');

const toastMock = vi.mocked(toast);
const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);

function reply(status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  fetchMock.mockResolvedValueOnce(
    new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } }),
  );
}

function lastRequest(): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init = {}] = fetchMock.mock.calls.at(-1)!;
  const headers = Object.fromEntries(
    Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return { url: String(url), init, headers };
}

/** The rejection of a call that must fail. */
async function failureOf(call: Promise<unknown>): Promise<InstanceType<typeof ApiFailure>> {
  try {
    await call;
  } catch (error) {
    return error as InstanceType<typeof ApiFailure>;
  }
  throw new Error('the call succeeded');
}

function logIn(): void {
  loginSucceeded('tok-1', { uid: '1', sec_uid: 's', nickname: 'n' });
  env.local.setItem('other', 'x');
}

beforeEach(() => {
  fetchMock.mockReset();
  toastMock.mockReset();
  env.local.clear();
  $user.set({ token: null, userInfo: null });
  $sessionEnded.set(false);
  closeLogin();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('requests', () => {
  it('GETs under /api with the query, same-origin credentials and the Token header; a 200 returns the body', async () => {
    logIn();
    reply(200, { status_code: 0, user: { nickname: 'n' } });
    const body = await apiGet('/aweme/v1/web/aweme/detail/', { aweme_id: 12, skip: undefined });
    expect(body).toEqual({ status_code: 0, user: { nickname: 'n' } });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/aweme/v1/web/aweme/detail/?aweme_id=12');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(headers.token).toBe('tok-1');
  });

  it('POSTs form-encoded and sends no Token header when logged out', async () => {
    reply(200, { status_code: 0 });
    await apiPost('/passport/login/password', { email: 'a@b.cn', password: 'p w&' });
    const { init, headers } = lastRequest();
    expect(init.method).toBe('POST');
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(init.body).toBe('email=a%40b.cn&password=p%20w%26');
    expect(headers.token).toBeUndefined();
  });

  it('rejects a 200 without a body or with a non-zero status_code', async () => {
    reply(200);
    await expect(apiGet('/x')).rejects.toBeInstanceOf(ApiFailure);
    reply(200, { status_code: 3, status_msg: '不行' });
    await expect(apiGet('/x')).rejects.toThrow('不行');
  });
});

describe('the error catalogue', () => {
  it('401 with a session: the expired toast, local storage and $user cleared', async () => {
    logIn();
    env.local.setItem('sy.rememberEmail', 'me@shanying.dev');
    reply(401, { status_code: 8, status_msg: '请先登录' });
    const error = await failureOf(apiPost('/aweme/v1/web/commit/item/digg/', { aweme_id: 1 }));
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error.status).toBe(401);
    expect(toastMock).toHaveBeenCalledWith('登录状态已过期，请重新登录', { type: 'error' });
    expect($user.get()).toEqual({ token: null, userInfo: null });
    expect(env.local.getItem('other')).toBeNull();
    expect(env.local.getItem('sy.user')).toBeNull();
  });

  it('status_code 8 with HTTP 200 (profile/self, not logged in) is a 401: a stale token expires', async () => {
    logIn();
    reply(200, { status_code: 8, status_msg: '请先登录' });
    const error = await failureOf(apiGet('/aweme/v1/web/user/profile/self/'));
    expect(error.status).toBe(401);
    expect(error.statusCode).toBe(8);
    expect(error.message).toBe('请先登录');
    expect(toastMock).toHaveBeenCalledWith('登录状态已过期，请重新登录', { type: 'error' });
    expect($user.get()).toEqual({ token: null, userInfo: null });
  });

  it('two calls in flight when the session ends: one toast, no login dialog, and the session ends for every island', async () => {
    logIn();
    const ended = vi.fn();
    const off = $sessionEnded.listen(ended);
    reply(401, { status_code: 8, status_msg: '请先登录' });
    reply(401, { status_code: 8, status_msg: '请先登录' });
    const key = $auth.get().routerKey;
    await Promise.all([
      failureOf(apiPost('/aweme/v1/web/aweme/collect/')),
      failureOf(apiPost('/aweme/v1/web/history/write/')),
    ]);
    expect(toastMock).toHaveBeenCalledTimes(1);
    expect($loginOpen.get()).toBe(false);
    expect(ended).toHaveBeenCalledTimes(1);
    expect($sessionEnded.get()).toBe(true);
    expect($auth.get()).toEqual({ isLogin: false, routerKey: key + 1 });
    off();
  });

  it('401 without a session offers the login dialog instead', async () => {
    reply(401, { status_code: 8, status_msg: '请先登录' });
    await expect(apiPost('/aweme/v1/web/commit/item/digg/')).rejects.toThrow('请先登录');
    expect(toastMock).not.toHaveBeenCalled();
    expect($loginOpen.get()).toBe(true);
  });

  it('quiet calls (the login forms) only reject: a wrong password is not an expired session', async () => {
    logIn();
    reply(401, { status_code: 8, status_msg: '邮箱或密码错误' });
    await expect(apiPost('/passport/login/password', {}, { quiet: true })).rejects.toThrow('邮箱或密码错误');
    expect(toastMock).not.toHaveBeenCalled();
    expect($user.get().token).toBe('tok-1');
  });

  it('500: the server message, else 请求失败', async () => {
    reply(500, { status_code: 1, status_msg: '服务器开小差了' });
    await expect(apiGet('/x')).rejects.toThrow('服务器开小差了');
    expect(toastMock).toHaveBeenLastCalledWith('服务器开小差了', { type: 'error' });
    fetchMock.mockResolvedValueOnce(new Response('oops', { status: 502 }));
    await expect(apiGet('/x')).rejects.toThrow('请求失败');
    expect(toastMock).toHaveBeenLastCalledWith('请求失败', { type: 'error' });
  });

  it('network failure: 网络错误', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    const error = await failureOf(apiGet('/x'));
    expect(error.status).toBe(0);
    expect(error.message).toBe('网络错误');
    expect(toastMock).toHaveBeenCalledWith('网络错误', { type: 'error' });
  });

  it('404 is only logged', async () => {
    reply(404, { status_code: 4, status_msg: '视频不存在' });
    await expect(apiGet('/x')).rejects.toMatchObject({ status: 404 });
    expect(toastMock).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalled();
  });

  it('429: the server message as a toast, and Retry-After', async () => {
    reply(429, { status_code: 7, status_msg: '操作太频繁，请稍后再试' }, { 'retry-after': '42' });
    const error = await failureOf(apiPost('/x'));
    expect(error).toMatchObject({ status: 429, retryAfter: 42, message: '操作太频繁，请稍后再试' });
    expect(toastMock).toHaveBeenCalledWith('操作太频繁，请稍后再试', { type: 'error' });
  });

  it('other failures are logged and passed on', async () => {
    reply(400, { status_code: 2, status_msg: '邮箱格式不正确' });
    await expect(apiPost('/x')).rejects.toMatchObject({ status: 400, message: '邮箱格式不正确' });
    expect(toastMock).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalled();
  });

  it("Family B's string codes: '404' is an empty tab (data), '401' expires the session", async () => {
    reply(200, { code: '404', msg: '暂无内容', data: [] });
    await expect(apiGet('/video/self')).resolves.toMatchObject({ code: '404' });
    logIn();
    reply(200, { code: '401', msg: '未登录' });
    await expect(apiGet('/video/self')).rejects.toMatchObject({ status: 401 });
    expect(toastMock).toHaveBeenCalledWith('登录状态已过期，请重新登录', { type: 'error' });
  });
});

describe('writes sent again under their key', () => {
  const keysSent = () =>
    fetchMock.mock.calls.map(([, init]) => new Headers((init?.headers ?? {}) as HeadersInit).get('idempotency-key'));

  it('a 503 is sent again after its Retry-After with the same key, and the answer is the repeat’s', async () => {
    vi.useFakeTimers();
    try {
      reply(503, { status_code: 1, status_msg: '服务繁忙' }, { 'retry-after': '2' });
      reply(200, { status_code: 0, comment: { cid: '7' } });
      const sent = apiPost<{ comment: { cid: string } }>('/c', { text: 'x' }, { idempotent: true });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(sent).resolves.toMatchObject({ comment: { cid: '7' } });
      const [first, second] = keysSent();
      expect(first).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
      expect(second).toBe(first);
      expect(toastMock).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a dropped connection is sent again; each write has its own key; the third failure is shown', async () => {
    vi.useFakeTimers();
    try {
      fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
      reply(200, { status_code: 0 });
      const one = apiPost('/c', {}, { idempotent: true });
      await vi.advanceTimersByTimeAsync(5_000);
      await one;
      for (let k = 0; k < 3; k++) reply(503, { status_code: 1, status_msg: '服务繁忙' }, { 'retry-after': '1' });
      const two = failureOf(apiPost('/c', {}, { idempotent: true }));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await two).toMatchObject({ status: 503 });
      const keys = keysSent();
      expect(keys).toHaveLength(5);
      expect(keys[1]).toBe(keys[0]);
      expect(new Set(keys.slice(2))).toEqual(new Set([keys[2]]));
      expect(keys[2]).not.toBe(keys[0]);
      expect(toastMock).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('other writes go out without a key and are not sent again', async () => {
    reply(503, { status_code: 1, status_msg: '服务繁忙' }, { 'retry-after': '1' });
    await expect(apiPost('/x')).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(keysSent()).toEqual([null]);
  });
});
