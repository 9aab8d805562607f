import { afterEach, describe, expect, it } from 'vitest';
import { mediaUrl } from './media-url.ts';

describe('mediaUrl', () => {
  const saved = process.env.MEDIA_BASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.MEDIA_BASE_URL;
    else process.env.MEDIA_BASE_URL = saved;
  });

  it('is a root-relative /media/ URL by default', () => {
    delete process.env.MEDIA_BASE_URL;
    expect(mediaUrl('clips/c01.mp4')).toBe('/media/clips/c01.mp4');
    expect(mediaUrl('/posters/p1.webp')).toBe('/media/posters/p1.webp');
  });

  it('prefixes MEDIA_BASE_URL, read at call time, without doubling slashes', () => {
    process.env.MEDIA_BASE_URL = 'https://cdn.example.com/';
    expect(mediaUrl('clips/c01.mp4')).toBe('https://cdn.example.com/media/clips/c01.mp4');
  });

  it('encodes each segment but keeps the slashes', () => {
    delete process.env.MEDIA_BASE_URL;
    expect(mediaUrl('avatars/头像 1.webp')).toBe('/media/avatars/%E5%A4%B4%E5%83%8F%201.webp');
  });

  it('writes a path that needs no encoding as it is, the same URL the encoding makes', () => {
    delete process.env.MEDIA_BASE_URL;
    const encoded = (p: string) => `/media/${p.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/')}`;
    for (const p of ['clips/c01.mp4', 'u/42/a-b_c.~1.webp', 'x', '/lead', 'a//b', 'a/b/', 'a?b', 'a#b', '%41', 'é/b']) {
      expect(mediaUrl(p), p).toBe(encoded(p));
    }
  });
});
