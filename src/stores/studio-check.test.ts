import { describe, expect, it } from 'vitest';
import type { StudioConfig } from '../shared/studio.ts';
import {
  extensionOf,
  insertMark,
  insertMention,
  mentionAt,
  precheckFile,
  titleLength,
  titleProblem,
} from './studio-check.ts';

const config = {
  maxBytes: 1000,
  coverMaxBytes: 100,
  videoExtensions: ['mp4', 'mov', 'webm', 'mkv'],
  coverExtensions: ['jpg', 'jpeg', 'png', 'webp'],
} as StudioConfig;

describe('precheckFile', () => {
  it.each([
    [{ name: 'a.mp4', size: 10 }, 'video', null],
    [{ name: 'A.MOV', size: 1000 }, 'video', null],
    [{ name: 'notes.txt', size: 10 }, 'video', { key: 'error.uploadNotVideo' }],
    [{ name: 'mp4', size: 10 }, 'video', { key: 'error.uploadNotVideo' }],
    [{ name: '.mp4', size: 10 }, 'video', { key: 'error.uploadNotVideo' }],
    [{ name: 'a.mp4', size: 0 }, 'video', { key: 'studio.upload.emptyFile' }],
    [{ name: 'a.mp4', size: 1001 }, 'video', { key: 'error.uploadTooLarge', vars: { max: '1000B' } }],
    [{ name: 'c.webp', size: 100 }, 'cover', null],
    [{ name: 'c.gif', size: 10 }, 'cover', { key: 'error.coverNotImage' }],
    [{ name: 'c.png', size: 101 }, 'cover', { key: 'error.uploadTooLarge', vars: { max: '100B' } }],
  ] as const)('%o as %s → %o', (file, kind, problem) => {
    expect(precheckFile(file, kind, config)).toEqual(problem);
  });

  it('reads the extension after the last dot', () => {
    expect(extensionOf('my.clip.MKV')).toBe('mkv');
    expect(extensionOf('noext')).toBe('');
  });
});

describe('title', () => {
  it('counts code points and refuses empty or overlong titles as the server does', () => {
    expect(titleLength('😀#话题')).toBe(4);
    expect(titleProblem('  ', 5)).toEqual({ key: 'error.titleEmpty' });
    expect(titleProblem('  五个字正好  ', 5)).toBeNull();
    expect(titleProblem('六个字的标题', 5)).toEqual({ key: 'error.titleTooLong', vars: { max: 5 } });
  });
});

describe('@mentions at the caret', () => {
  it('finds the name being typed after an @ at the start or after a space', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('去海边 @小', 6)).toEqual({ start: 4, query: '小' });
    expect(mentionAt('去海边 @小鹿 好', 9)).toBeNull();
    // An e-mail address is not a mention.
    expect(mentionAt('me@mail', 7)).toBeNull();
    expect(mentionAt('@@', 2)).toBeNull();
  });

  it('replaces the typed part with the nickname and a space, and says where the caret goes', () => {
    expect(insertMention('看 @小 吧', 2, 4, '小鹿')).toEqual({ text: '看 @小鹿 吧', caret: 6 });
    expect(insertMention('看 @小', 2, 4, '小鹿')).toEqual({ text: '看 @小鹿 ', caret: 6 });
  });

  it('inserts # or @ at the caret, after a space when the caret follows a word', () => {
    expect(insertMark('', 0, '#')).toEqual({ text: '#', caret: 1 });
    expect(insertMark('日落', 2, '#')).toEqual({ text: '日落 #', caret: 4 });
    expect(insertMark('日落 ', 3, '@')).toEqual({ text: '日落 @', caret: 4 });
    expect(insertMark('日落海边', 2, '@')).toEqual({ text: '日落 @海边', caret: 4 });
  });
});
