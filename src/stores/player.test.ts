import { beforeEach, describe, expect, it } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
local.setItem('sy.player', JSON.stringify({ volume: 0.3, rate: 2, autoNext: true, danmaku: 'yes' }));
const p = await import('./player.ts');

/** A stand-in for a <video>: the fields the player actions touch. */
function fakeVideo(currentTime: number, duration = 8) {
  const v = {
    currentTime,
    duration,
    paused: true,
    play: async () => void (v.paused = false),
    pause: () => void (v.paused = true),
  };
  return v;
}

beforeEach(() => {
  p.$muted.set(true);
});

describe('player preferences', () => {
  it('parses saved preferences field by field, falling back on anything malformed', () => {
    // 连播 starts on, as in douyin.com's feed.
    expect(p.parsePrefs(null)).toEqual({ volume: 0.7, rate: 1, autoNext: true, danmaku: false, captions: false });
    expect(p.parsePrefs('{oops')).toEqual(p.parsePrefs(null));
    expect(p.parsePrefs(JSON.stringify({ volume: 4, rate: 3, autoNext: 1 }))).toEqual({
      volume: 1,
      rate: 1,
      autoNext: true,
      danmaku: false,
      captions: false,
    });
    expect(p.parsePrefs(JSON.stringify({ volume: 0.25, rate: 0.75, danmaku: true, captions: true }))).toMatchObject({
      volume: 0.25,
      rate: 0.75,
      danmaku: true,
      captions: true,
    });
  });

  it('starts from defaults, restores the saved speed and volume after hydration and saves every change', () => {
    expect(p.$prefs.get().rate).toBe(1);
    p.restorePrefs();
    expect(p.$prefs.get()).toEqual({ volume: 0.3, rate: 2, autoNext: true, danmaku: false, captions: false });
    p.setRate(1.5);
    expect(JSON.parse(local.getItem('sy.player')!)).toMatchObject({ rate: 1.5 });
    p.setRate(7);
    expect(p.$prefs.get().rate).toBe(1);
    p.toggleDanmaku();
    p.toggleAutoNext();
    p.toggleCaptions();
    expect(JSON.parse(local.getItem('sy.player')!)).toMatchObject({ danmaku: true, autoNext: false, captions: true });
  });

  it('< and > step 倍速 through 0.75x to 2x, staying at the ends, and say it over the video; never for a live room', () => {
    p.$host.set({ item: { id: '1' } as never, video: () => null, root: () => null });
    p.setRate(1);
    p.stepRate(1);
    expect(p.$prefs.get().rate).toBe(1.25);
    expect(p.$note.get()).toMatchObject({ kind: 'rate', value: 1.25 });
    for (let i = 0; i < 6; i++) p.stepRate(1);
    expect(p.$prefs.get().rate).toBe(2);
    for (let i = 0; i < 9; i++) p.stepRate(-1);
    expect(p.$prefs.get().rate).toBe(0.75);
    // A live room's host has no video item: the keys leave the rate alone.
    p.$host.set({ video: () => null, root: () => null });
    p.stepRate(1);
    expect(p.$prefs.get().rate).toBe(0.75);
    p.toggleAutoNext(true);
    expect(p.$note.get()).toMatchObject({ kind: 'autoNext' });
    p.$host.set(null);
  });

  it('steps the volume by 10 % within 0..1; sound on from muted starts at 0', () => {
    p.setVolume(0.5);
    expect(p.$muted.get()).toBe(false);
    p.stepVolume(1);
    expect(p.$prefs.get().volume).toBe(0.6);
    p.$muted.set(true);
    p.stepVolume(1);
    expect(p.$prefs.get().volume).toBe(0.1);
    expect(p.$muted.get()).toBe(false);
    p.stepVolume(-1);
    expect(p.$prefs.get().volume).toBe(0);
    expect(p.$muted.get()).toBe(true);
    p.toggleMute();
    expect(p.$muted.get()).toBe(false);
    expect(p.$prefs.get().volume).toBe(0.7);
  });

  it('seeks within the video and toggles playback of the current host', async () => {
    const v = fakeVideo(3);
    p.$host.set({ item: {} as never, video: () => v as unknown as HTMLVideoElement, root: () => null });
    p.seekBy(5);
    expect(v.currentTime).toBeCloseTo(7.95);
    p.seekBy(-5);
    expect(v.currentTime).toBeCloseTo(2.95);
    p.seekBy(-5);
    expect(v.currentTime).toBe(0);
    p.togglePlay();
    await Promise.resolve();
    expect(v.paused).toBe(false);
    p.togglePlay();
    expect(v.paused).toBe(true);
    p.$host.set(null);
  });

  it('opens and closes the shortcuts dialog, toggles 清屏 and 网页全屏', () => {
    p.openShortcuts();
    expect(p.$shortcutsOpen.get()).toBe(true);
    p.closeShortcuts();
    expect(p.$shortcutsOpen.get()).toBe(false);
    p.toggleClear();
    p.toggleWebFull();
    expect([p.$clear.get(), p.$webFull.get()]).toEqual([true, true]);
  });
});
