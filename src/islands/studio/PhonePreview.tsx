import { useStore } from '@nanostores/react';
import { t } from '../../i18n/t.ts';
import { splitMentions } from '../../shared/mention-text.ts';
import { $user } from '../../stores/session.ts';
import { useReducedMotion } from './useReducedMotion.ts';

interface Props {
  videoSrc: string | null;
  title: string;
}

/** How the work will look in the feed: the video playing muted in a phone's frame, the author and title over it. */
export function PhonePreview({ videoSrc, title }: Props) {
  const user = useStore($user);
  const still = useReducedMotion();
  return (
    <figure className="flex flex-col items-center gap-3">
      <figcaption className="self-start text-sm font-semibold text-primary">{t('studio.form.preview')}</figcaption>
      <div className="relative aspect-[9/16] w-full max-w-64 overflow-hidden rounded-[28px] border-[6px] border-[#0b0b0f] bg-black shadow-xl">
        {videoSrc && (
          <video
            src={videoSrc}
            muted
            loop
            autoPlay={!still}
            controls={still}
            playsInline
            className="h-full w-full object-contain"
          />
        )}
        <div className="studio-shade absolute inset-x-0 bottom-0 px-3 pb-4 pt-10 text-white">
          {user.userInfo?.nickname && <p className="text-sm font-semibold">@{user.userInfo.nickname}</p>}
          <p className="mt-1 line-clamp-3 break-words text-xs leading-5 text-white/90">
            {splitMentions(title).map((part, i) =>
              'mention' in part ? <b key={i}>@{part.mention}</b> : <span key={i}>{part.text}</span>,
            )}
          </p>
        </div>
      </div>
    </figure>
  );
}
