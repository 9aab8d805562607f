/** The people: the demo account first, then 60 creators spread over the channels with power-law popularity. */
import { DEMO_EMAIL, DEMO_NICKNAME } from '../demo.ts';
import { CHANNEL_IDS, CHANNELS, NICK_SUFFIXES, type ChannelId } from './content.ts';
import { avatarKey } from './artwork.ts';
import { DAY, type PlanContext } from './context.ts';
import { cumulate, makeRng, SEED } from './rng.ts';

export interface UserPlan {
  id: number;
  secUid: string;
  email: string | null;
  nickname: string;
  signature: string;
  avatar: string;
  banner: string;
  /** IP属地. */
  ipProvince: string;
  isDemo: boolean;
  channel: ChannelId;
  weight: number;
  createdAt: number;
}

/** The users and the weights later draws pick them by. */
export interface Cast {
  users: UserPlan[];
  demo: UserPlan;
  creators: UserPlan[];
  /** Popularity of the creators: who gets followed, who hosts. */
  creatorCum: number[];
  /** Activity of every user (who comments, likes, searches): flatter than popularity. */
  activeCum: number[];
}

/** Provinces an account's IP may be placed in (IP属地). */
const PROVINCES = [
  '广东',
  '北京',
  '上海',
  '浙江',
  '江苏',
  '四川',
  '山东',
  '湖北',
  '湖南',
  '福建',
  '河南',
  '陕西',
  '重庆',
  '辽宁',
  '安徽',
  '云南',
  '广西',
  '天津',
  '江西',
  '黑龙江',
];

// Banner and IP province draw from a stream of their own, so adding them left every other row of the plan as it was.
const LOOKS_SEED = SEED + 1;

export function planUsers({ rng, ago, secUid, profileBanners }: PlanContext): Cast {
  const looks = makeRng(LOOKS_SEED);
  const look = () => ({ banner: looks.pick(profileBanners), ipProvince: looks.pick(PROVINCES) });
  const users: UserPlan[] = [
    {
      id: 1,
      secUid: secUid(),
      email: DEMO_EMAIL,
      nickname: DEMO_NICKNAME,
      signature: '闪映官方体验账号，带你逛遍每个频道',
      avatar: avatarKey(1),
      ...look(),
      isDemo: true,
      channel: 300204,
      weight: 0.25,
      createdAt: ago(90 * DAY),
    },
  ];
  const nicknames = new Set<string>([DEMO_NICKNAME]);
  const ranks = Array.from({ length: 60 }, (_, i) => i);
  for (let i = ranks.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
  }
  for (let i = 0; i < 60; i++) {
    const channel = CHANNEL_IDS[i % CHANNEL_IDS.length]!;
    const content = CHANNELS[channel];
    let nickname = '';
    for (let attempt = 0; attempt < 50 && (nickname === '' || nicknames.has(nickname)); attempt++) {
      const prefix = rng.pick(content.nickPrefixes);
      // 追番的 + 的猫 would read 追番的的猫.
      nickname =
        prefix + rng.pick(prefix.endsWith('的') ? NICK_SUFFIXES.filter((x) => !x.startsWith('的')) : NICK_SUFFIXES);
    }
    if (nicknames.has(nickname)) nickname += String(i);
    nicknames.add(nickname);
    users.push({
      id: users.length + 1,
      secUid: secUid(),
      email: null,
      nickname,
      signature: rng.pick(content.signatures),
      avatar: avatarKey(users.length + 1),
      ...look(),
      isDemo: false,
      channel,
      weight: 1 / (ranks[i]! + 1) ** 1.1,
      createdAt: ago((70 + rng.next() * 300) * DAY),
    });
  }
  const creators = users.slice(1);
  return {
    users,
    demo: users[0]!,
    creators,
    creatorCum: cumulate(creators.map((u) => u.weight)),
    activeCum: cumulate(users.map((u) => 0.4 + Math.sqrt(u.weight))),
  };
}
