import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { extractMentions, MAX_MENTIONS, resolveMentions } from './mentions.ts';

describe('extractMentions', () => {
  it('finds @nicknames up to a space or the next @, each once, in order', () => {
    expect(extractMentions('@小明 你看 @小红@小明 还有@阿强')).toEqual(['小明', '小红', '阿强']);
    expect(extractMentions('@小明\n@小红\t好')).toEqual(['小明', '小红']);
  });

  it('ignores a bare @ and takes at most 20 characters (code points) after it', () => {
    expect(extractMentions('@ 空 @@ 两个')).toEqual([]);
    expect(extractMentions(`@${'😀'.repeat(25)}`)).toEqual(['😀'.repeat(20)]);
  });

  it('keeps at most ten names', () => {
    const text = Array.from({ length: 15 }, (_, i) => `@用户${i}`).join(' ');
    expect(extractMentions(text)).toHaveLength(MAX_MENTIONS);
    expect(extractMentions(text).at(-1)).toBe('用户9');
  });

  it('reads any @ followed by a name, even inside a word; plain text has none', () => {
    expect(extractMentions('邮箱 a@b 也算')).toEqual(['b']);
    expect(extractMentions('普通评论')).toEqual([]);
  });
});

describe('resolveMentions', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await freshDb());
  });
  afterAll(async () => {
    await close();
  });

  it('resolves exact nicknames only, in the order given', async () => {
    const { rows } = await db.execute<{ id: number; nickname: string }>(
      sql`select id, nickname from users order by id limit 2`,
    );
    const [a, b] = rows as [{ id: number; nickname: string }, { id: number; nickname: string }];
    const found = await resolveMentions([b.nickname, '没有这个人', a.nickname, `${a.nickname}x`]);
    expect(found.map((u) => u.id)).toEqual([b.id, a.id]);
    expect(found[0]).toMatchObject({ nickname: b.nickname, secUid: expect.any(String) });
    expect(await resolveMentions([])).toEqual([]);
  });
});
