import { useStore } from '@nanostores/react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { formatCountWith } from '../shared/format-count.ts';
import {
  riChat3Fill,
  riEmotionUnhappyLine,
  riEyeOffLine,
  riFlag2Line,
  riHeart3Fill,
  riMoreFill,
  riQuestionLine,
  riShareForwardFill,
  riStarFill,
  riTimeFill,
  riTimeLine,
} from '../shared/icons.ts';
import type { LessKind } from '../shared/feed-reason.ts';
import type { VideoItem } from '../shared/video-item.ts';
import type { FollowToggle as FollowToggleType } from './FollowToggle.tsx';
import { followButtonClass, joinLabels } from '../shared/follow-look.ts';
import { $sessionEnded, requireLogin } from '../stores/auth.ts';
import { $commentCounts } from '../stores/comment-counts.ts';
import { $followStatus } from '../stores/follow.ts';
import { $followLoaded, loadFollow } from '../stores/follow-loader.ts';
import { $marks, markedFollow } from '../stores/marks.ts';
import { muteAuthorWithUndo } from '../stores/mutes.ts';
import { share, toggleCollect, toggleLike, toggleWatchLater } from '../stores/video-actions.ts';
import { $stats, statsOf, withoutMarks } from '../stores/video-stats.ts';
import { FollowBadge } from './FollowBadge.tsx';
import { Icon } from './Icon.tsx';
import type { PlayerText } from './PlayerText.ts';

// 为什么推荐这个视频 loads when the viewer asks for it.
const WhyPanel = lazy(() => import('./WhyPanel.tsx').then((m) => ({ default: m.WhyPanel })));

// The shared follow button brings the API client along: it loads when the viewer reaches for it, not with the page.
// The 分享 panel (私信 a friend, 复制链接) loads when the pointer or focus first reaches 分享.
const SharePanel = lazy(() => import('./SharePanel.tsx').then((m) => ({ default: m.SharePanel })));

interface FollowProps {
  item: VideoItem;
  labels: readonly [string, string, string];
  /** badge: the pill under the avatar in the phone's action column. */
  size?: 'sm' | 'badge';
  className?: string;
}

/**
 * 关注 for the video's author: a look-alike until the viewer points at it, then the shared follow button (FollowToggle).
 * The relation comes with the viewer's marks after first paint; beside the viewer's own name it keeps its place,
 * unseen and out of reach (src/stores/own-follow.ts), so that nothing moves.
 */
export function Follow({ item: rendered, labels, size = 'sm', className = '' }: FollowProps) {
  const marks = useStore($marks);
  const known = useStore($followStatus, { keys: [rendered.author.secUid] })[rendered.author.secUid];
  const follow = known ?? markedFollow(marks, rendered.author.secUid, rendered.author.follow);
  const item = follow === rendered.author.follow ? rendered : { ...rendered, author: { ...rendered.author, follow } };
  // The shared button is swapped in only once its module has loaded: one swap, with no loading state in between.
  const [Toggle, setToggle] = useState<typeof FollowToggleType | null>(null);
  const want = () => void import('./FollowToggle.tsx').then((m) => setToggle(() => m.FollowToggle));
  const loaded = useStore($followLoaded);
  useEffect(() => {
    if (loaded) want();
  }, [loaded]);
  const span = useRef<HTMLSpanElement>(null);
  // The swap replaces the focused look-alike: focus follows to the new button.
  const keepFocus = useRef(false);
  useEffect(() => {
    const el = span.current;
    if (Toggle && keepFocus.current && el && !el.contains(document.activeElement)) el.querySelector('button')?.focus();
  }, [Toggle]);
  const wake = () => {
    want();
    void loadFollow().then((m) => m.toggleFollow(item.author.secUid, item.author.follow));
  };
  const fallback =
    size === 'badge' ? (
      <FollowBadge
        status={item.author.follow}
        label={labels[item.author.follow]}
        onClick={wake}
        secUid={item.author.secUid}
        labels={labels}
      />
    ) : (
      <button
        type="button"
        data-follow-for={item.author.secUid}
        className={followButtonClass(item.author.follow, 'sm')}
        onClick={wake}
        data-mark="follow"
        data-user={item.author.secUid}
        data-labels={joinLabels(labels)}
        data-size="sm"
      >
        {labels[item.author.follow]}
      </button>
    );
  return (
    <span
      ref={span}
      onPointerEnter={want}
      onFocus={() => {
        keepFocus.current = true;
        want();
      }}
      onBlur={(e) => {
        // A button removed by the swap also blurs; one still in the page lost focus to the user's next move.
        const left = e.target;
        setTimeout(() => {
          if (left.isConnected) keepFocus.current = false;
        });
      }}
      className={`inline-flex ${className}`}
      data-follow-slot=""
    >
      {Toggle ? (
        <Toggle secUid={item.author.secUid} status={item.author.follow} labels={labels} size={size} />
      ) : (
        fallback
      )}
    </span>
  );
}

function MenuEntry({
  label,
  icon,
  pressed,
  onClick,
}: {
  label: string;
  icon: string;
  pressed?: boolean;
  onClick: () => void;
}) {
  return (
    <button type="button" aria-pressed={pressed} onClick={onClick} className="act-more">
      <Icon svg={icon} className={`text-lg ${pressed ? 'text-sky-400' : ''}`} />
      {label}
    </button>
  );
}

function toComments(): void {
  document.getElementById('comments')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

interface Props {
  item: VideoItem;
  text: PlayerText;
  /** column: white icons over the feed's video; row: a line under the video page's title. */
  variant: 'column' | 'row';
  /** 评论: the feed opens its panel; by default the page's comment column is scrolled to. */
  onComment?: () => void;
  /** 不感兴趣 (the feed only). */
  onNotInterested?: () => void;
  /** 减少此类 from 为什么推荐这个视频 (the feed only): the menu offers the panel when given. */
  onLess?: (kind: LessKind) => void;
  /** Called after a like from this column (the feed shows its heart burst). */
  onLiked?: () => void;
  /** Called when the viewer blocked the author from the 举报 dialog (the feed drops their works at once). */
  onBlocked?: (secUid: string) => void;
}

/** 举报 the work (logged in), offering 同时拉黑 its author. */
function reportWork(item: VideoItem, onBlocked?: (secUid: string) => void): void {
  if (!requireLogin()) return;
  void import('./report.ts').then(({ report }) =>
    report({
      target: 'video',
      id: item.id,
      person: { secUid: item.author.secUid, nickname: item.author.nickname },
      onDone: (blocked) => blocked && onBlocked?.(item.author.secUid),
    }),
  );
}

/** 不看TA的作品 (logged in): the author is muted, with 撤销 in the toast. */
function muteAuthor(item: VideoItem): void {
  if (!requireLogin()) return;
  void muteAuthorWithUndo(item.author);
}

/** Like, comment, collect, share, 稍后再看 and (on the feed) 不感兴趣, with live counts. */
export function VideoActions({
  item: viewed,
  text,
  variant,
  onComment = toComments,
  onNotInterested,
  onLess,
  onLiked,
  onBlocked,
}: Props) {
  const [why, setWhy] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const closeWhy = useCallback(() => setWhy(false), []);
  // Hydrates with the marks the server drew, then drops them if the session has ended.
  const ended = useStore($sessionEnded, { ssr: 'initial' });
  const item = ended ? { ...viewed, author: { ...viewed.author, follow: 0 as const } } : viewed;
  const marks = useStore($marks);
  const stats = statsOf(item, useStore($stats, { keys: [item.id] }), marks);
  // 不看TA的作品 is drawn after hydration (the shared HTML stays as it was) and never on one's own work.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const offerMute = mounted && marks?.viewer.secUid !== item.author.secUid;
  const s = ended ? withoutMarks(stats) : stats;
  // Hydrates with the count the server drew: a comment posted while this island was waking (an Enter or a click on
  // 发送 that the comment island replays as it hydrates) announces a new count before it has.
  const comments = useStore($commentCounts, { keys: [item.id], ssr: 'initial' })[item.id] ?? s.comment;
  const column = variant === 'column';
  const units = text.units;
  const btn = column ? 'act-col' : 'act-row';
  const icon = column ? 'text-[34px]' : 'text-lg';
  const [shareWanted, setShareWanted] = useState(false);
  // `mark`: which of the viewer's marks the button shows, so that the marks arriving before hydration can press it.
  const action = (
    label: string,
    svg: string,
    onClick: () => void,
    count?: number,
    pressed?: boolean,
    tint = 'text-accent',
    mark?: 'like' | 'collect' | 'later',
  ) => (
    <button
      type="button"
      className={btn}
      aria-pressed={pressed}
      onClick={onClick}
      data-mark={mark}
      data-video={mark && item.id}
      data-tint={mark && tint}
    >
      <Icon svg={svg} className={`${icon} ${pressed ? tint : ''}`} />
      {count === undefined ? (
        <span>{label}</span>
      ) : (
        <span>
          <span className="sr-only">{label}</span>
          {formatCountWith(count, units)}
        </span>
      )}
    </button>
  );
  const entry = (...args: Parameters<typeof action>) => <li>{action(...args)}</li>;
  return (
    <ul
      className={column ? 'flex flex-col items-center gap-4' : 'flex flex-wrap items-center gap-2'}
      aria-label={text.actions}
    >
      {!column && (
        <li>
          <Follow item={item} labels={text.follow} />
        </li>
      )}
      {entry(
        text.like,
        riHeart3Fill,
        () => void toggleLike(item).then((ok) => ok && onLiked?.()),
        s.digg,
        s.liked,
        'text-accent',
        'like',
      )}
      {entry(text.comment, riChat3Fill, onComment, comments)}
      {entry(
        text.collect,
        riStarFill,
        () => void toggleCollect(item),
        s.collect,
        s.collected,
        'text-yellow-400',
        'collect',
      )}
      <li className="group/s relative" onPointerEnter={() => setShareWanted(true)} onFocus={() => setShareWanted(true)}>
        {action(text.share, riShareForwardFill, () => void share(item), s.share)}
        {shareWanted && (
          <div
            className={`absolute z-20 hidden group-hover/s:block group-focus-within/s:block ${column ? 'right-full top-1/2 -translate-y-1/2 pr-2' : 'left-0 top-full pt-2'}`}
          >
            <Suspense fallback={null}>
              <SharePanel item={item} />
            </Suspense>
          </div>
        )}
      </li>
      {column ? (
        <li className="group/m relative">
          <button ref={moreButton} type="button" aria-haspopup="true" className={btn}>
            <Icon svg={riMoreFill} className={icon} />
            <span className="sr-only">{text.more}</span>
          </button>
          <ul
            className={`absolute right-full top-1/2 hidden -translate-y-1/2 pr-2 group-hover/m:block group-focus-within/m:block ${why ? '!hidden' : ''}`}
          >
            <li className="flex flex-col gap-1 rounded-xl bg-black/75 p-2 text-white">
              {onLess && <MenuEntry label={text.whyTitle} icon={riQuestionLine} onClick={() => setWhy(true)} />}
              <MenuEntry
                label={text.later}
                icon={riTimeLine}
                pressed={s.later}
                onClick={() => void toggleWatchLater(item)}
              />
              {onNotInterested && (
                <MenuEntry label={text.notInterested} icon={riEmotionUnhappyLine} onClick={onNotInterested} />
              )}
              {offerMute && <MenuEntry label={text.muteAuthor} icon={riEyeOffLine} onClick={() => muteAuthor(item)} />}
              <MenuEntry label={text.report} icon={riFlag2Line} onClick={() => reportWork(item, onBlocked)} />
            </li>
          </ul>
          {why && onLess && (
            <Suspense fallback={null}>
              <WhyPanel
                item={item}
                notInterestedLabel={text.notInterested}
                opener={moreButton.current}
                onClose={closeWhy}
                onNotInterested={onNotInterested}
                onLess={onLess}
              />
            </Suspense>
          )}
        </li>
      ) : (
        <>
          {entry(
            text.later,
            riTimeFill,
            () => void toggleWatchLater(item),
            undefined,
            s.later,
            'text-sky-400',
            'later',
          )}
          {offerMute && entry(text.muteAuthor, riEyeOffLine, () => muteAuthor(item))}
          {entry(text.report, riFlag2Line, () => reportWork(item, onBlocked))}
        </>
      )}
    </ul>
  );
}
