/**
 * The creator studio (/post) as the browser and the server both see it: status and visibility codes, what an upload
 * may be, the tus endpoint, and the studio API's paths, inputs and answers. Browser-safe: no imports. The server's
 * zod schemas (server/api/routes/studio.ts) are checked against these types; the size cap and the other limits that
 * operators may change are read from `GET /api/studio/config`, never copied into the browser.
 */

/** tus 1.0 endpoint (creation, HEAD, PATCH, DELETE). Auth: the `Token` header or the session cookie. */
export const TUS_ENDPOINT = '/api/upload';

/**
 * tus `Upload-Metadata` keys the server reads: `filename` (shown in the studio), `filetype` (informational: the
 * content is what is checked) and `kind` ('video' by default, or 'cover' for a custom cover image).
 */
export const UPLOAD_KINDS = ['video', 'cover'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Video containers accepted, by extension (the server checks the content, not the name). */
export const VIDEO_EXTENSIONS = ['mp4', 'mov', 'webm', 'mkv'] as const;
/** Cover image formats accepted, by extension (checked by content too). */
export const COVER_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'] as const;
/** `accept` attributes for the two file pickers. */
export const VIDEO_ACCEPT = '.mp4,.mov,.webm,.mkv,video/mp4,video/quicktime,video/webm,video/x-matroska';
export const COVER_ACCEPT = '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp';

/**
 * An upload's state: 上传中 (bytes still coming), 处理中 (checked, being transcoded), ready (processed, waiting for
 * the publish form, or already published), 未通过 (refused by the checks or by processing; `reason` says why).
 */
export const UPLOAD_STATUSES = ['uploading', 'processing', 'ready', 'rejected'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** A work's state: 处理中 (published by the worker when its media is ready), 已发布, 未通过. */
export const WORK_STATUSES = ['processing', 'published', 'rejected'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];

/** Catalogue keys of the status labels: `studio.status.<code>` (上传中, 处理中, 已发布, 未通过; ready is 待发布). */
export type StudioStatus = UploadStatus | WorkStatus;

/** Who may see a work: everyone, friends (mutual follows), only the author. */
export const VISIBILITIES = ['public', 'friends', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Rendition heights by the short side ("gears"): 540 always, 720 and 1080 when the source has them. */
export const GEARS = [540, 720, 1080] as const;
export type Gear = (typeof GEARS)[number];

/** Longest title (description with #hashtags and @mentions), in characters (code points). */
export const TITLE_MAX = 500;

/** The studio API under /api (Family B envelope: `{code: '200', msg, data}`; errors `{code: '<status>', msg, data: null}`). */
export const STUDIO_API = {
  /** GET → StudioConfig. No login needed. */
  config: '/api/studio/config',
  /** GET ?uploadId= → UploadView (poll while 处理中). */
  upload: '/api/studio/upload',
  /** POST CreateWorkInput → StudioWork. */
  create: '/api/studio/work/create',
  /** GET ?cursor=&size= → StudioWorkPage, newest first. */
  works: '/api/studio/works',
  /** GET ?workId= → StudioWork. */
  work: '/api/studio/work',
  /** POST EditWorkInput → StudioWork. */
  edit: '/api/studio/work/edit',
  /** POST {workId} → {workId}. */
  remove: '/api/studio/work/delete',
} as const;

/** Limits the server enforces, for the page to show and pre-check (GET /api/studio/config). */
export interface StudioConfig {
  tusEndpoint: string;
  /** Largest video upload in bytes (UPLOAD_MAX_BYTES, 500 MB by default). */
  maxBytes: number;
  /** Largest cover image in bytes. */
  coverMaxBytes: number;
  /** Shortest and longest video, in seconds. */
  minDurationSec: number;
  maxDurationSec: number;
  videoExtensions: string[];
  coverExtensions: string[];
  titleMax: number;
  /** The eight channels a work may be published in. */
  channels: { id: number; name: string }[];
  visibilities: Visibility[];
}

/** An upload as the studio sees it (id is the tus upload id, the last segment of its Location URL). */
export interface UploadView {
  id: string;
  kind: UploadKind;
  fileName: string;
  sizeBytes: number;
  /** Bytes the server holds (tus offset). */
  receivedBytes: number;
  status: UploadStatus;
  /** Why it was refused, in Chinese; null unless rejected. */
  reason: string | null;
  /** Known once checked (video uploads). */
  durationMs: number | null;
  width: number | null;
  height: number | null;
  /** A poster frame's URL once processed. */
  poster: string | null;
  /** The work made from it, once published. */
  workId: number | null;
}

/**
 * POST body of `create` (form-encoded or JSON). The cover is a frame at `coverTime` seconds, or a checked image
 * uploaded with kind 'cover' (`coverUploadId`); neither: the first frame.
 */
export interface CreateWorkInput {
  uploadId: string;
  /** May carry #hashtags and @mentions (each mentioned user is notified once published). */
  title: string;
  channelId: number;
  coverTime?: number;
  coverUploadId?: string;
  /** Default 'public'. */
  visibility?: Visibility;
  /** Default true ('1'/'0' or true/false in a form). */
  allowComments?: boolean;
}

/** POST body of `edit`: any subset of the editable fields. */
export interface EditWorkInput {
  workId: number;
  title?: string;
  channelId?: number;
  coverTime?: number;
  coverUploadId?: string;
  visibility?: Visibility;
  allowComments?: boolean;
}

/** One rendition of a work's ladder. */
export interface StudioRendition {
  gear: Gear;
  width: number;
  height: number;
  /** Bits per second. */
  bitRate: number;
  sizeBytes: number;
  url: string;
}

/** A work in the studio (作品管理). */
export interface StudioWork {
  id: number;
  title: string;
  hashtags: string[];
  channelId: number;
  visibility: Visibility;
  allowComments: boolean;
  status: WorkStatus;
  /** Why processing failed, in Chinese; null unless rejected. */
  reason: string | null;
  /** Cover URL; empty while the first frame is being made. */
  cover: string;
  /** The chosen frame in seconds, or null for an uploaded cover image. */
  coverTime: number | null;
  fileName: string;
  durationMs: number;
  width: number;
  height: number;
  sizeBytes: number;
  playCount: number;
  diggCount: number;
  commentCount: number;
  shareCount: number;
  collectCount: number;
  /** Unix milliseconds. */
  createTime: number;
  renditions: StudioRendition[];
}

/** A page of my works. */
export interface StudioWorkPage {
  items: StudioWork[];
  /** Pass back as `cursor` for the next page (an opaque position; '0' starts the list). */
  cursor: string;
  hasMore: boolean;
}
