import { map } from 'nanostores';

/** The profile tabs that keep a list in the video store. */
export type VideoTab = 'post' | 'like' | 'collect' | 'record';

/** A video as the lists hold it: the API's aweme, opaque to the store. */
export type VideoItem = { aweme_id: string } & Record<string, unknown>;

export interface VideoState {
  videos: VideoItem[];
  userPostVideos: VideoItem[];
  userLikeVideos: VideoItem[];
  userCollectVideos: VideoItem[];
  userRecordVideos: VideoItem[];
  loading: boolean;
  bottomLoading: boolean;
  isEmpty: Record<VideoTab, boolean>;
  postCount: number;
  likeCount: number;
  collectCount: number;
}

const LIST_OF: Record<VideoTab, keyof Pick<VideoState, 'userPostVideos' | 'userLikeVideos' | 'userCollectVideos' | 'userRecordVideos'>> = {
  post: 'userPostVideos',
  like: 'userLikeVideos',
  collect: 'userCollectVideos',
  record: 'userRecordVideos',
};

function initial(): VideoState {
  return {
    videos: [],
    userPostVideos: [],
    userLikeVideos: [],
    userCollectVideos: [],
    userRecordVideos: [],
    loading: false,
    bottomLoading: false,
    isEmpty: { post: false, like: false, collect: false, record: false },
    postCount: 0,
    likeCount: 0,
    collectCount: 0,
  };
}

/** The spec's video store (point 3): the feed, the profile tabs' lists, their loading flags, empty flags and counts. */
export const $videos = map<VideoState>(initial());

/** Back to the empty store (logout). */
export function resetVideos(): void {
  $videos.set(initial());
}

/** Appends a page to a profile tab's list (a first empty page marks the tab empty); `reset` starts the list over. */
export function addTabPage(tab: VideoTab, items: VideoItem[], reset = false): void {
  const key = LIST_OF[tab];
  const state = $videos.get();
  const before = reset ? [] : state[key];
  const seen = new Set(before.map((v) => v.aweme_id));
  const list = [...before, ...items.filter((v) => !seen.has(v.aweme_id))];
  $videos.set({ ...state, [key]: list, isEmpty: { ...state.isEmpty, [tab]: list.length === 0 } });
}

/** Sets the profile's tab counts. */
export function setTabCounts(counts: Partial<Pick<VideoState, 'postCount' | 'likeCount' | 'collectCount'>>): void {
  const state = $videos.get();
  $videos.set({ ...state, ...counts });
}

/** Sets the loading flags (`bottomLoading` is the infinite list's next page). */
export function setVideosLoading(loading: boolean, bottomLoading = false): void {
  $videos.set({ ...$videos.get(), loading, bottomLoading });
}
