import { describe, expect, it, vi } from 'vitest';
import { $pickedFile, hasResumableUploads, pickFile, STUDIO_WAKE_EVENT } from './studio-pick.ts';

const storage = (keys: string[]) => ({ length: keys.length, key: (i: number) => keys[i] ?? null });

describe('studio pick', () => {
  it('finds unfinished studio uploads among tus-js-client’s keys only', () => {
    expect(hasResumableUploads(storage(['theme', 'tus::studio/7/video/a.mp4/video/mp4/10/1::123']))).toBe(true);
    expect(hasResumableUploads(storage(['theme', 'tus::other::1', 'studio/7']))).toBe(false);
    expect(hasResumableUploads(null)).toBe(false);
  });

  it('hands a picked file over and wakes the island', () => {
    const win = new EventTarget();
    vi.stubGlobal('dispatchEvent', win.dispatchEvent.bind(win));
    let woke = 0;
    win.addEventListener(STUDIO_WAKE_EVENT, () => woke++);
    pickFile(undefined);
    expect(woke).toBe(0);
    const file = new File(['x'], 'a.mp4');
    pickFile(file);
    vi.unstubAllGlobals();
    expect($pickedFile.get()).toBe(file);
    expect(woke).toBe(1);
  });
});
