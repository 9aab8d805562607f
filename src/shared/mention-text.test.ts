import { describe, expect, it } from 'vitest';
import { extractMentions } from '../server/services/mentions.ts';
import { mentionedNames, splitMentions } from './mention-text.ts';

describe('splitMentions', () => {
  it('cuts text into plain runs and mentions that join back to the text', () => {
    const text = '好看 @小明 同意@阿花，哈哈 @';
    const parts = splitMentions(text);
    expect(parts).toEqual([{ text: '好看 ' }, { mention: '小明' }, { text: ' 同意' }, { mention: '阿花，哈哈' }, { text: ' @' }]);
    expect(parts.map((p) => ('mention' in p ? `@${p.mention}` : p.text)).join('')).toBe(text);
  });
  it('names the same users the server notifies', () => {
    for (const text of ['@a @b @a', '无提及', '@<script>alert(1)</script> x', '@😀😀 @一二三四五六七八九十一二三四五六七八九十一二']) {
      expect(mentionedNames(text)).toEqual(extractMentions(text));
    }
  });
});
