import { describe, expect, it } from 'vitest';
import { MENTION_NAME, mentionedNames, splitMentions } from './mention-text.ts';

describe('splitMentions', () => {
  it('cuts text into plain runs and mentions that join back to the text', () => {
    const text = '好看 @小明 同意@阿花，哈哈 @';
    const parts = splitMentions(text);
    expect(parts).toEqual([
      { text: '好看 ' },
      { mention: '小明' },
      { text: ' 同意' },
      { mention: '阿花，哈哈' },
      { text: ' @' },
    ]);
    expect(parts.map((p) => ('mention' in p ? `@${p.mention}` : p.text)).join('')).toBe(text);
  });

  it('names each user once, in order, up to 20 code points after the @', () => {
    expect(mentionedNames('@a @b @a 无提及')).toEqual(['a', 'b']);
    expect(mentionedNames(`@${'😀'.repeat(25)}`)).toEqual(['😀'.repeat(20)]);
  });
});

describe('MENTION_NAME', () => {
  it.each([
    ['小明', true],
    ['😀'.repeat(20), true],
    ['😀'.repeat(21), false],
    ['', false],
    ['a@b', false],
    ['a b', false],
  ])('%s → %s', (name, ok) => {
    expect(MENTION_NAME.test(name)).toBe(ok);
  });

  it('accepts every name a text can mention', () => {
    for (const name of mentionedNames('@一二三四五六七八九十一二三四五六七八九十一二 @<script>alert(1)</script> @😀😀'))
      expect(MENTION_NAME.test(name)).toBe(true);
  });
});
