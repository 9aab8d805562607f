/** The one shape in which services hand users to the API's shapers (authors, list rows, commenters), and the columns that fill it. */
import { users } from '../db/schema.ts';

export interface UserCard {
  id: number;
  secUid: string;
  nickname: string;
  signature: string;
  avatar: string;
  /** The profile banner, under the media root. */
  banner: string;
  /** IP属地, '' while unknown. */
  ipProvince: string;
  followerCount: number;
  followingCount: number;
  awemeCount: number;
  /** Likes received on this user's videos (获赞). */
  totalFavorited: number;
  /** Videos this user liked. */
  favoritingCount: number;
}

/** Columns of a UserCard, for a select that joins `users` (`author: userCardColumns`). */
export const userCardColumns = {
  id: users.id,
  secUid: users.secUid,
  nickname: users.nickname,
  signature: users.signature,
  avatar: users.avatar,
  banner: users.banner,
  ipProvince: users.ipProvince,
  followerCount: users.followerCount,
  followingCount: users.followingCount,
  awemeCount: users.awemeCount,
  totalFavorited: users.totalFavorited,
  favoritingCount: users.favoritingCount,
};
