import { useEffect, useState } from 'react';
import { openDm } from '../client/open-dm.ts';
import { t } from '../i18n/t.ts';
import { riLink } from '../shared/icons.ts';
import { qrPath } from '../shared/qr.ts';
import { hasSession, openLogin } from '../stores/auth.ts';
import type { VideoItem } from '../shared/video-item.ts';
import { share, shareUrl } from '../stores/video-actions.ts';
import { loadShareContacts, type Contact } from '../stores/messages.ts';
import { Icon } from './Icon.tsx';

/**
 * The 分享 panel: 私信 the video to someone (recent chats, then people one follows; the 私信 panel opens with the link
 * in its composer) or 复制链接. It loads when the pointer or focus first reaches 分享.
 */
export function SharePanel({ item }: { item: VideoItem }) {
  const loggedIn = hasSession();
  const [contacts, setContacts] = useState<Contact[] | null>(loggedIn ? null : []);

  useEffect(() => {
    if (loggedIn) void loadShareContacts().then(setContacts);
  }, [loggedIn]);

  const send = (c: Contact) => openDm(c.secUid, t('share.draft', { desc: item.desc, url: shareUrl(item) }));
  return (
    <div
      role="group"
      aria-label={t('share.title')}
      className="w-64 rounded-xl border border-line bg-raised p-3 text-primary shadow-xl"
    >
      <p className="mb-2 text-xs text-secondary">{t('share.friends')}</p>
      {!loggedIn ? (
        <button type="button" className="btn-ghost w-full" onClick={openLogin}>
          {t('share.login')}
        </button>
      ) : contacts === null ? (
        <p className="py-3 text-center text-xs text-secondary">{t('common.loading')}</p>
      ) : contacts.length === 0 ? (
        <p className="py-3 text-center text-xs text-secondary">{t('share.noFriends')}</p>
      ) : (
        <ul className="grid grid-cols-4 gap-1">
          {contacts.map((c) => (
            <li key={c.secUid}>
              <button
                type="button"
                className="focus-ring flex w-full flex-col items-center gap-1 rounded-lg p-1 hover:bg-hover"
                aria-label={t('share.to', { nickname: c.nickname })}
                onClick={() => send(c)}
              >
                <img src={c.avatar} alt="" width="40" height="40" className="h-10 w-10 rounded-full object-cover" />
                <span className="w-full truncate text-center text-[11px]" aria-hidden="true">
                  {c.nickname}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="focus-ring mt-2 flex h-10 w-full items-center gap-2 rounded-lg px-2 text-sm hover:bg-hover"
        onClick={() => void share(item)}
      >
        <Icon svg={riLink} className="text-base" />
        {t('share.copyLink')}
      </button>
      <ShareQr url={shareUrl(item)} />
    </div>
  );
}

/** The video's address as a QR code, to open it on a phone: dark on white in either theme, as scanners expect. */
function ShareQr({ url }: { url: string }) {
  const [{ size, d }] = useState(() => qrPath(url));
  return (
    <figure className="mt-2 flex items-center gap-3 border-t border-line pt-3">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={t('share.qr', { url })}
        shapeRendering="crispEdges"
        data-share-qr={url}
        className="h-24 w-24 shrink-0 rounded-md"
      >
        <rect width={size} height={size} fill="#fff" />
        <path fill="#161823" d={d} />
      </svg>
      <figcaption className="text-xs leading-5 text-secondary">{t('share.qrHint')}</figcaption>
    </figure>
  );
}
