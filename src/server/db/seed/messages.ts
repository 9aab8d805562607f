/** The demo account's 私信: chats with friends who follow back, one with unread lines, one unanswered first message. */
import { DM_FIRST_LINE, DM_UNREAD_LINES, MESSAGE_LINES } from './content.ts';
import { HOUR, MINUTE, type PlanContext } from './context.ts';
import type { SocialGraph } from './follows.ts';
import type { Cast, UserPlan } from './users.ts';

export interface ConversationPlan {
  id: number;
  userA: number;
  userB: number;
  lines: { senderId: number; text: string; createdAt: number }[];
}

/** The demo account's own conversation settings. */
export interface DemoSettingPlan {
  conversationId: number;
  pinned: boolean;
  lastReadAt: number;
}

export function planMessages(
  { rng, ago, nowMs }: PlanContext,
  { demo }: Cast,
  { follows, demoFollows }: SocialGraph,
): { conversations: ConversationPlan[]; demoSettings: DemoSettingPlan[] } {
  // A few conversations with friends who follow back, so 私信 has content.
  const conversations: ConversationPlan[] = demoFollows.slice(0, 4).map((friend, k) => {
    let t = ago(rng.int(1, 72) * HOUR);
    const lines = Array.from({ length: rng.int(2, 6) }, (_, m) => {
      t = Math.min(nowMs, t + rng.int(1, 120) * MINUTE);
      return { senderId: m % 2 === 0 ? friend.id : demo.id, text: rng.pick(MESSAGE_LINES), createdAt: t };
    });
    return { id: k + 1, userA: Math.min(demo.id, friend.id), userB: Math.max(demo.id, friend.id), lines };
  });
  const talk = (peer: UserPlan, lines: { from: UserPlan; text: string; minutesAgo: number }[]) => {
    conversations.push({
      id: conversations.length + 1,
      userA: Math.min(demo.id, peer.id),
      userB: Math.max(demo.id, peer.id),
      lines: lines.map((l) => ({ senderId: l.from.id, text: l.text, createdAt: ago(l.minutesAgo * MINUTE) })),
    });
    return conversations.length;
  };
  // A friend whose last messages the demo account has not read yet (the 私信 badge).
  const chatty = demoFollows[4]!;
  const unreadConversation = talk(chatty, [
    { from: demo, text: rng.pick(MESSAGE_LINES), minutesAgo: 300 },
    { from: chatty, text: DM_UNREAD_LINES[0], minutesAgo: 25 },
    { from: chatty, text: DM_UNREAD_LINES[1], minutesAgo: 24 },
  ]);
  // Someone the demo account follows who does not follow back and never answered: the one-message rule shows.
  const silent = demoFollows.slice(8).find((u) => !follows.has(`${u.id}:${demo.id}`))!;
  talk(silent, [{ from: demo, text: DM_FIRST_LINE, minutesAgo: 26 * 60 }]);
  // The demo account's own settings: everything read but the one conversation above; the second friend pinned.
  const demoSettings = conversations.map((c) => ({
    conversationId: c.id,
    pinned: c.id === 2,
    lastReadAt: c.id === unreadConversation ? c.lines[0]!.createdAt : c.lines[c.lines.length - 1]!.createdAt,
  }));
  return { conversations, demoSettings };
}
