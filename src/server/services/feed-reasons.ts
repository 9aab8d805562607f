/**
 * 为什么推荐 in words: a feed item's pool and signals (feed-ranker.ts) as the reason the API and the 更多 menu show —
 * 你关注的作者, 你常看的美食 (the channel's name as the editors publish it), 热门, 新作品, 探索.
 */
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import type { FeedReason, ItemReason } from '../../shared/feed-reason.ts';
import type { ContentData } from '../content/schemas.ts';
import { listEntries } from '../content/store.ts';

/** The channels' names by id, as published now (the content store keeps them in memory between publications). */
export async function channelNames(): Promise<Map<number, string>> {
  const entries = await listEntries('channels');
  return new Map(entries.map((e) => [Number(e.id), (e.data as ContentData<'channels'>).name]));
}

/** The catalogue key of a reason: the affinity pool says the channel when the viewer's channel signal brought it, else the author. */
function reasonKey(r: FeedReason): MessageKey {
  if (r.pool === 'affinity') return r.signals.includes('channel') ? 'why.reason.channel' : 'why.reason.author';
  return `why.reason.${r.pool}`;
}

/** A feed item's reason in words, with its channel (what 减少此类 lowers). */
export function describeReason(r: FeedReason, channelId: number, names: Map<number, string>): ItemReason {
  const channelName = names.get(channelId) ?? '';
  return {
    code: r.pool,
    text: t(reasonKey(r), { channel: channelName }),
    signals: r.signals,
    channelId,
    channelName,
  };
}

/** The reasons of a page of feed items, by id. */
export async function reasonsOf(
  items: readonly { id: number; channelId: number; reason: FeedReason }[],
): Promise<Map<number, ItemReason>> {
  const names = await channelNames();
  return new Map(items.map((i) => [i.id, describeReason(i.reason, i.channelId, names)]));
}
