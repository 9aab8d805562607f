import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The browser's storages and location exist before the store modules load: $user reads localStorage at start.
const env = await vi.hoisted(async () => {
  const { installStorages } = await import('../../tests/unit/memory-storage.ts');
  const storages = installStorages();
  storages.local.setItem(
    'sy.user',
    JSON.stringify({ token: 'saved', userInfo: { uid: '1', sec_uid: 's1', nickname: '旧' } }),
  );
  const reload = vi.fn();
  Object.defineProperty(globalThis, 'location', { value: { reload }, configurable: true });
  return { ...storages, reload };
});

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet, apiPost } = await import('./api.ts');
const { $auth, $codeCountdown } = await import('./auth.ts');
const user = await import('./user.ts');
const { $user, $saveLoginInfo, $userLoading } = user;

const get = vi.mocked(apiGet);
const post = vi.mocked(apiPost);

const profile = {
  status_code: 0,
  user: {
    uid: '7',
    sec_uid: 'MS4w7',
    nickname: '闪映体验官',
    following_count: 15,
    follower_count: 8,
    avatar_thumb: { url_list: ['/media/a.webp'] },
  },
  user_collect_count: { collect_count_list: [{ collect_count: 4 }] },
};

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  env.reload.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('$user', () => {
  it('is read from localStorage at start', () => {
    expect($user.get()).toEqual({ token: 'saved', userInfo: { uid: '1', sec_uid: 's1', nickname: '旧' } });
  });

  it('loadUserInfo stores the user and sets isLogin on status_code 0', async () => {
    get.mockResolvedValueOnce(profile);
    const pending = user.loadUserInfo();
    expect($userLoading.get()).toBe(true);
    await pending;
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/user/profile/self/');
    expect($user.get().userInfo).toMatchObject({
      nickname: '闪映体验官',
      following_count: 15,
      follower_count: 8,
      collect_count: 4,
    });
    expect($auth.get().isLogin).toBe(true);
    expect($userLoading.get()).toBe(false);
    expect(JSON.parse(env.local.getItem('sy.user')!).userInfo.nickname).toBe('闪映体验官');
  });

  it('loadUserInfo sets isLogin false on anything else', async () => {
    get.mockRejectedValueOnce(Object.assign(new Error('x'), { status: 401 }));
    expect(await user.loadUserInfo()).toBeNull();
    expect($auth.get().isLogin).toBe(false);
  });

  it('loadUserInfo drops an answer that arrives after a logout: nothing of the account is written back', async () => {
    let answer: (value: typeof profile) => void = () => {};
    get.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const pending = user.loadUserInfo();
    user.clearLocalSession({ keepEmail: null });
    answer(profile);
    expect(await pending).toBeNull();
    expect($user.get()).toEqual({ token: null, userInfo: null });
    expect(env.local.getItem('sy.user')).toBeNull();
    expect($auth.get().isLogin).toBe(false);
  });

  it('loginSucceeded keeps the token and user and bumps routerKey', () => {
    user.clearLocalSession();
    const key = $auth.get().routerKey;
    user.loginSucceeded('tok', { uid: '2', sec_uid: 's2', nickname: 'b' });
    expect($user.get().token).toBe('tok');
    expect($auth.get()).toEqual({ isLogin: true, routerKey: key + 1 });
    expect(JSON.parse(env.local.getItem('sy.user')!)).toEqual({
      token: 'tok',
      userInfo: { uid: '2', sec_uid: 's2', nickname: 'b' },
    });
  });
});

describe('logging in', () => {
  it('remembers the email while 保存登录信息 is on, not when it is off', async () => {
    user.clearLocalSession({ keepEmail: null });
    post.mockResolvedValueOnce({ status_code: 0, token: 't1', user: profile.user });
    await user.loginWithPassword(' demo@shanying.dev ', 'pw');
    expect(post).toHaveBeenCalledWith(
      '/passport/login/password',
      { email: 'demo@shanying.dev', password: 'pw' },
      { quiet: true },
    );
    expect(user.rememberedEmail()).toBe('demo@shanying.dev');
    expect($user.get().token).toBe('t1');

    user.clearLocalSession({ keepEmail: null });
    $saveLoginInfo.set(false);
    post.mockResolvedValueOnce({ status_code: 0, token: 't2', user: profile.user });
    await user.loginWithCode('new@shanying.dev', '123456');
    expect(user.rememberedEmail()).toBeNull();
    $saveLoginInfo.set(true);
  });

  it('a failed login changes nothing and passes the server message on', async () => {
    user.clearLocalSession({ keepEmail: null });
    post.mockRejectedValueOnce(new Error('邮箱或密码错误'));
    await expect(user.loginWithPassword('a@b.cn', 'bad')).rejects.toThrow('邮箱或密码错误');
    expect($user.get().token).toBeNull();
    expect($auth.get().isLogin).toBe(false);
  });

  it('a code request starts the countdown, from Retry-After on a 429', async () => {
    vi.useFakeTimers();
    post.mockResolvedValueOnce({ status_code: 0, retry_after: 60 });
    await user.sendLoginCode('a@b.cn');
    expect($codeCountdown.get()).toBe(60);
    post.mockRejectedValueOnce(Object.assign(new Error('操作太频繁'), { status: 429, retryAfter: 37 }));
    await expect(user.sendLoginCode('a@b.cn')).rejects.toThrow('操作太频繁');
    expect($codeCountdown.get()).toBe(37);
  });

  it('a confirmed QR ticket logs in; an unknown one is expired', async () => {
    user.clearLocalSession({ keepEmail: null });
    get.mockResolvedValueOnce({ status_code: 0, status: 'scanned' });
    expect(await user.pollQrTicket('tk')).toBe('scanned');
    get.mockResolvedValueOnce({ status_code: 0, status: 'confirmed', token: 'qr-token', user: profile.user });
    expect(await user.pollQrTicket('tk')).toBe('confirmed');
    expect($user.get().token).toBe('qr-token');
    get.mockRejectedValueOnce(Object.assign(new Error('x'), { status: 404 }));
    expect(await user.pollQrTicket('gone')).toBe('expired');
  });
});

describe('logout', () => {
  function loggedIn() {
    user.loginSucceeded('tok', { uid: '7', sec_uid: 's', nickname: 'n' });
    env.local.setItem('sy.rememberEmail', 'me@shanying.dev');
    env.local.setItem('theme', 'dark');
    env.local.setItem('search.history', '["猫"]');
    env.session.setItem('anything', '1');
  }

  it('revokes, clears storage but the remembered email and theme, and reloads', async () => {
    loggedIn();
    post.mockResolvedValueOnce({ status_code: 0 });
    await user.logout({ saveLoginInfo: true });
    expect(post).toHaveBeenCalledWith('/passport/logout', {}, { quiet: true });
    expect($user.get()).toEqual({ token: null, userInfo: null });
    expect($auth.get().isLogin).toBe(false);
    expect(env.local.entries()).toEqual({ 'sy.rememberEmail': 'me@shanying.dev', theme: 'dark' });
    expect(env.session.length).toBe(0);
    expect(env.reload).toHaveBeenCalledOnce();
  });

  it('forgets the email with 保存登录信息 off, and still leaves when the server is unreachable', async () => {
    loggedIn();
    post.mockRejectedValueOnce(new Error('网络错误'));
    await user.logout({ saveLoginInfo: false });
    expect(env.local.entries()).toEqual({ theme: 'dark' });
    expect($user.get().token).toBeNull();
    expect(env.reload).toHaveBeenCalledOnce();
  });
});

describe('startSession', () => {
  it('asks for the user info only when the server or a saved token says someone is logged in', async () => {
    user.clearLocalSession({ keepEmail: null });
    user.startSession(false);
    expect(get).not.toHaveBeenCalled();
    expect($auth.get().isLogin).toBe(false);
  });
});
