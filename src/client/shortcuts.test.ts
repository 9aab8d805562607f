import { beforeEach, describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
installStorages();
vi.mock('../stores/api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
const s = await import('./shortcuts.ts');
const { $loginOpen } = await import('../stores/auth.ts');
const player = await import('../stores/player.ts');

const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({
  key: k,
  code: '',
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

/** An element-like target for ownsKey. */
function el(tag: string, props: Record<string, unknown> = {}) {
  return {
    tagName: tag,
    isContentEditable: false,
    closest: () => null,
    getAttribute: () => null,
    hasAttribute: () => false,
    ...props,
  } as unknown as EventTarget;
}

describe('which key means what', () => {
  it('maps every shortcut of the spec', () => {
    const table: [ReturnType<typeof key>, import('./shortcuts.ts').Command][] = [
      [key('z'), 'like'],
      [key('x'), 'comments'],
      [key('b'), 'danmaku'],
      [key('c'), 'collect'],
      [key('v'), 'shareCode'],
      [key('j'), 'clear'],
      [key('k'), 'autoNext'],
      [key('r'), 'notInterested'],
      [key('f'), 'author'],
      [key('g'), 'follow'],
      [key('F', { shiftKey: true }), 'search'],
      [key('Q', { shiftKey: true }), 'close'],
      [key('ArrowUp'), 'prev'],
      [key('ArrowDown'), 'next'],
      [key('ArrowLeft'), 'back'],
      [key('ArrowRight'), 'forward'],
      [key(' '), 'pause'],
      [key('y'), 'webFull'],
      [key('h'), 'full'],
      [key('l'), 'later'],
      [key('+', { shiftKey: true }), 'volUp'],
      [key('_', { shiftKey: true }), 'volDown'],
      [key('=', { shiftKey: true }), 'volUp'],
      [key('-', { shiftKey: true, code: 'Minus' }), 'volDown'],
      [key('<', { shiftKey: true }), 'slower'],
      [key('>', { shiftKey: true }), 'faster'],
      [key('，', { shiftKey: true, code: 'Comma' }), 'slower'],
      [key('。', { shiftKey: true, code: 'Period' }), 'faster'],
      [key('?', { shiftKey: true }), 'help'],
      [key('Escape'), 'escape'],
      [key('n'), 'related'],
      [key('Z', { shiftKey: false }), 'like'],
      [key('Process', { code: 'KeyL' }), 'later'],
    ];
    for (const [k, command] of table) expect(s.commandFor(k), JSON.stringify(k)).toBe(command);
  });

  it('leaves browser chords, other shifted letters and unknown keys alone', () => {
    expect(s.commandFor(key('c', { ctrlKey: true }))).toBeNull();
    expect(s.commandFor(key('f', { metaKey: true }))).toBeNull();
    expect(s.commandFor(key('ArrowDown', { altKey: true }))).toBeNull();
    expect(s.commandFor(key('Z', { shiftKey: true }))).toBeNull();
    expect(s.commandFor(key('q'))).toBeNull();
    expect(s.commandFor(key('Enter'))).toBeNull();
    expect(s.commandFor(key('-'))).toBeNull();
  });

  it('the dialog lists the 22 rows of the spec in order, and 倍速 after 音量', () => {
    expect(s.SHORTCUTS).toHaveLength(23);
    expect(s.SHORTCUTS.map((r) => r.keys)).toEqual([
      'Z',
      'X',
      'B',
      'C',
      'V',
      'J',
      'K',
      'R',
      'F',
      'G',
      'Shift+F',
      'Shift+Q',
      '↑/↓',
      '←/→',
      'shortcuts.space',
      'Y',
      'H',
      'L',
      'Shift+/Shift-',
      '</>',
      '?',
      'Esc',
      'N',
    ]);
  });
});

describe('typing is never a shortcut', () => {
  it('fields, editable content and selects own every key', () => {
    for (const type of ['text', 'search', 'email', 'password', 'number'])
      expect(s.ownsKey(el('INPUT', { type }), 'z')).toBe(true);
    expect(s.ownsKey(el('TEXTAREA'), ' ')).toBe(true);
    expect(s.ownsKey(el('SELECT'), 'ArrowDown')).toBe(true);
    expect(s.ownsKey(el('DIV', { isContentEditable: true }), 'z')).toBe(true);
    expect(s.ownsKey(el('SPAN', { closest: (q: string) => (q.includes('contenteditable') ? {} : null) }), 'z')).toBe(
      true,
    );
  });

  it('sliders keep their arrows, buttons their space; other keys pass', () => {
    expect(s.ownsKey(el('INPUT', { type: 'range' }), 'ArrowLeft')).toBe(true);
    expect(s.ownsKey(el('INPUT', { type: 'range' }), 'z')).toBe(false);
    expect(s.ownsKey(el('INPUT', { type: 'range', hasAttribute: (a: string) => a === 'data-seek' }), 'ArrowLeft')).toBe(
      false,
    );
    expect(s.ownsKey(el('BUTTON'), ' ')).toBe(true);
    expect(s.ownsKey(el('BUTTON'), 'z')).toBe(false);
    expect(s.ownsKey(el('DIV'), ' ')).toBe(false);
    expect(s.ownsKey(null, ' ')).toBe(false);
  });
});

describe('running a shortcut', () => {
  const page = { comments: vi.fn(), related: vi.fn(), removed: vi.fn() };
  const item = {
    id: '9',
    desc: 'd',
    src: '',
    poster: '',
    duration: 8000,
    createdAt: 0,
    author: { secUid: 'a', nickname: 'n', avatar: '', follow: 0 as const },
    digg: 1,
    comment: 0,
    collect: 0,
    share: 0,
    liked: false,
    collected: false,
    renditions: [],
    captions: null,
  };
  const video = { currentTime: 2, duration: 8, paused: false, play: vi.fn(async () => {}), pause: vi.fn() };
  const host = {
    item,
    video: () => video as unknown as HTMLVideoElement,
    root: () => null,
    page: vi.fn(),
    burst: vi.fn(),
  };

  beforeEach(() => {
    player.$host.set(host);
    $loginOpen.set(false);
    vi.clearAllMocks();
  });

  it('pages, seeks, toggles the screen modes and asks the page for comments and related', () => {
    s.run('next', page);
    s.run('prev', page);
    expect(host.page.mock.calls).toEqual([[1], [-1]]);
    s.run('back', page);
    expect(video.currentTime).toBe(0);
    s.run('forward', page);
    expect(video.currentTime).toBe(5);
    s.run('comments', page);
    s.run('related', page);
    expect(page.comments).toHaveBeenCalledOnce();
    expect(page.related).toHaveBeenCalledOnce();
    const clear = player.$clear.get();
    s.run('clear', page);
    expect(player.$clear.get()).toBe(!clear);
    s.run('help', page);
    expect(player.$shortcutsOpen.get()).toBe(true);
    player.closeShortcuts();
  });

  it('space pauses; a second space soon after also likes, which an anonymous viewer must log in for', () => {
    s.run('pause', page, 1000);
    expect(video.pause).toHaveBeenCalledOnce();
    expect($loginOpen.get()).toBe(false);
    s.run('pause', page, 1200);
    expect($loginOpen.get()).toBe(true);
  });

  it('spaced-out presses only pause and play', () => {
    s.run('pause', page, 10_000);
    s.run('pause', page, 11_000);
    expect($loginOpen.get()).toBe(false);
  });

  it('like, collect, watch later, 不感兴趣 and follow open the login dialog for anonymous viewers', () => {
    for (const c of ['like', 'collect', 'later', 'notInterested', 'follow'] as const) {
      $loginOpen.set(false);
      s.run(c, page);
      expect($loginOpen.get(), c).toBe(true);
    }
    expect(page.removed).not.toHaveBeenCalled();
  });

  it('Esc closes the open panel, then 网页全屏', () => {
    player.$panel.set('comments');
    player.$webFull.set(true);
    s.run('escape', page);
    expect(player.$panel.get()).toBeNull();
    expect(player.$webFull.get()).toBe(true);
    s.run('escape', page);
    expect(player.$webFull.get()).toBe(false);
  });

  it('replays a key pressed before hydration once', () => {
    (globalThis as Record<string, unknown>)[s.PENDING_KEY] = key('ArrowDown');
    expect(s.takePendingKey()?.key).toBe('ArrowDown');
    expect(s.takePendingKey()).toBeNull();
  });

  it("tells the player's inline script while the keys are bound, so it keeps a key for the island until then", () => {
    const w = globalThis as Record<string, unknown>;
    vi.stubGlobal('window', new EventTarget());
    expect(w[s.SHORTCUTS_BOUND]).toBeUndefined();
    const unbind = s.bindShortcuts(page);
    expect(w[s.SHORTCUTS_BOUND]).toBe(true);
    unbind();
    expect(w[s.SHORTCUTS_BOUND]).toBeUndefined();
    vi.unstubAllGlobals();
  });
});
