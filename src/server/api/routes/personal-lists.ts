/** Family A lists of a member's own: 收藏 → 音乐 (music/listcollection, music/collect) and 观看历史 → 用户 (view/user/visited/list). */
import { z } from 'zod';
import { mediaUrl } from '../../media-url.ts';
import { collectedMusic, setMusicCollect, type CollectedSound } from '../../services/music-collects.ts';
import { visitedProfiles, type VisitedUser } from '../../services/profile-visits.ts';
import { shanyingId } from '../../../shared/user-id.ts';
import { musicCollectionExample, visitedUsersExample } from '../douyin-examples.ts';
import { okA } from '../envelope.ts';
import { count, cursor, flag, id, int, INT4_MAX } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, mediaRefSized, music, nextCursor, user as userSchema } from '../schemas.ts';
import { asBit, soundOf, unix, user } from '../shape.ts';

const n = () => z.number().int();

/** A collected sound as douyin's mc_list entry: the sound an aweme carries, with the collect's own fields. */
const collectedSound = music.extend({
  cover_hd: mediaRefSized,
  cover_large: mediaRefSized,
  cover_medium: mediaRefSized,
  cover_thumb: mediaRefSized,
  schema_url: z.string(),
  source_platform: n(),
  start_time: n(),
  end_time: n(),
  /** Works using the sound: its own work. */
  user_count: n(),
  collect_stat: bit,
  /** 1 playable. */
  status: n(),
  offline_desc: z.string(),
  is_original: z.boolean(),
  owner_handle: z.string(),
  prevent_download: z.boolean(),
  is_del_video: z.boolean(),
  is_video_self_see: z.boolean(),
  author_deleted: z.boolean(),
  is_restricted: z.boolean(),
  redirect: z.boolean(),
  binded_challenge_id: n(),
  preview_start_time: n(),
  preview_end_time: n(),
  is_commerce_music: z.boolean(),
  audition_duration: n(),
  shoot_duration: n(),
  video_duration: n(),
  music_collect_count: n(),
  artists: z.array(z.unknown()),
  external_song_info: z.array(z.unknown()),
});

function soundsOf(list: CollectedSound[]): z.input<typeof collectedSound>[] {
  return list.map((c) => {
    const sound = soundOf(c);
    const seconds = sound.duration;
    const cover = { ...sound.cover_thumb, width: 720, height: 720 };
    return {
      ...sound,
      cover_hd: cover,
      cover_large: cover,
      cover_medium: cover,
      cover_thumb: { ...sound.cover_thumb, width: 168, height: 168 },
      schema_url: '',
      source_platform: 0,
      start_time: 0,
      end_time: 0,
      user_count: 1,
      collect_stat: 1,
      status: 1,
      offline_desc: '',
      is_original: false,
      owner_handle: shanyingId(c.author.secUid),
      prevent_download: false,
      is_del_video: false,
      is_video_self_see: c.visibility === 'private',
      author_deleted: false,
      is_restricted: false,
      redirect: false,
      binded_challenge_id: 0,
      preview_start_time: 0,
      preview_end_time: seconds,
      is_commerce_music: false,
      audition_duration: seconds,
      shoot_duration: seconds,
      video_duration: seconds,
      music_collect_count: 0,
      artists: [],
      external_song_info: [],
    };
  });
}

/** A visited profile as douyin's visit_user_list entry. */
const visitedUser = userSchema.extend({
  avatar_168x168: z.object({ uri: z.string(), url_list: z.array(z.string()) }),
  /** When the viewer last opened the profile (Unix seconds). */
  visit_time: n(),
  is_block: z.boolean(),
  is_gov_media_vip: z.boolean(),
  room_id: n(),
  room_id_str: z.string(),
  account_cert_info: z.string(),
  user_permissions: z.null(),
  not_seen_item_id_list_v2: z.null(),
});

function visitedUserOf(u: VisitedUser): z.input<typeof visitedUser> {
  const shaped = user(u);
  return {
    ...shaped,
    avatar_168x168: { uri: u.avatar, url_list: [mediaUrl(u.avatar)] },
    visit_time: unix(u.visitedAt),
    is_block: false,
    is_gov_media_vip: false,
    room_id: 0,
    room_id_str: '0',
    account_cert_info: '',
    user_permissions: null,
    not_seen_item_id_list_v2: null,
  };
}

export const personalListRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/music/listcollection/',
    family: 'A',
    auth: true,
    summary:
      "收藏 → 音乐: the sounds the viewer collected (each work's original sound), latest collect first; a sound whose work they may no longer see is left out; cursor is where the next page starts",
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: bodyA({ mc_list: z.array(collectedSound), cursor: nextCursor, has_more: bit, msg: z.string() }).meta({
      examples: [musicCollectionExample],
    }),
    handler: async ({ input, viewer }) => {
      const p = await collectedMusic(viewer.id, { cursor: input.cursor, count: input.count });
      return okA({
        mc_list: soundsOf(p.items),
        cursor: p.cursor,
        has_more: asBit(p.hasMore),
        msg: '',
      });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/music/collect/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: '收藏 a sound (action 1) or let it go (action 0); music_id is the id of the sound (its work’s id)',
    input: z.object({ music_id: id(), action: flag() }),
    response: bodyA({ collect_stat: bit }),
    handler: async ({ input, viewer }) => {
      const r = await setMusicCollect(viewer.id, input.music_id, input.action === 1);
      return okA({ collect_stat: asBit(r.on) });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/view/user/visited/list/',
    family: 'A',
    auth: true,
    summary:
      '观看历史 → 用户: the profiles the viewer opened in the last 30 days, latest visit first (visit_user_list); next_cursor is the next offset, as a string, which cursor takes back',
    input: z.object({ cursor: int(0, INT4_MAX).default(0).meta({ default: 0 }), count: count(20) }),
    response: bodyA({
      visit_user_list: z.array(visitedUser),
      freq_visit_user_list: z.array(visitedUser),
      has_more: z.boolean(),
      next_cursor: z.string(),
      extra: z.object({ fatal_item_ids: z.array(z.string()), logid: z.string(), now: n() }),
      log_pb: z.object({ impr_id: z.string() }),
    }).meta({ examples: [visitedUsersExample] }),
    handler: async ({ input, viewer }) => {
      const p = await visitedProfiles(viewer.id, { skip: input.cursor, count: input.count });
      return okA({
        visit_user_list: p.items.map(visitedUserOf),
        freq_visit_user_list: [],
        has_more: p.hasMore,
        next_cursor: String(input.cursor + p.items.length),
        extra: { fatal_item_ids: [], logid: '', now: Date.now() },
        log_pb: { impr_id: '' },
      });
    },
  }),
];
