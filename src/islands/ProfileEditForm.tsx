import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { t } from '../i18n/t.ts';
import { formatBytes } from '../shared/format-bytes.ts';
import { riCameraLine, riCloseLine } from '../shared/icons.ts';
import {
  AVATAR_MAX_BYTES,
  BIRTHDAY_MIN,
  birthdayProblem,
  chinaToday,
  cleanNickname,
  cleanSignature,
  COVER_MAX_BYTES,
  GENDERS,
  IMAGE_ACCEPT,
  NICKNAME_MAX,
  nicknameProblem,
  SIGNATURE_MAX,
  signatureProblem,
  type Gender,
  type Problem,
} from '../shared/profile-edit.ts';
import { reloadPage } from '../stores/user.ts';
import { saveProfile, type ProfileChanges } from '../stores/profile-edit.ts';
import type { MessageKey } from '../i18n/zh-CN.ts';
import { Icon } from './Icon.tsx';
import { useObjectUrl } from './studio/useObjectUrl.ts';

/** What the form starts from: the profile as the page shows it (picture URLs, '' for no birthday). */
export interface ProfileFields {
  nickname: string;
  signature: string;
  gender: Gender;
  birthday: string;
  avatar: string;
  cover: string;
}

export interface ProfileEditFormProps {
  title: string;
  profile: ProfileFields;
  /** For the stand-in shown when this module cannot load. */
  failed: string;
  onCancel: () => void;
}

type Field = 'nickname' | 'signature' | 'birthday' | 'avatar' | 'cover';

const FIELD =
  'w-full rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent aria-[invalid=true]:border-accent';
const LABEL = 'text-sm font-medium text-secondary';
// Radios drawn as pills: the input stays in the page (keyboard, screen readers), the pill shows its state.
const PILL =
  'flex min-h-11 cursor-pointer items-center justify-center rounded-full border border-line px-5 text-sm text-secondary hover:text-primary md:min-h-9 peer-checked:(border-accent bg-[color-mix(in_srgb,var(--c-accent)_10%,transparent)] font-medium text-accent-text) peer-focus-visible:(outline-2 outline-solid outline-accent outline-offset-2)';
const PICK = 'cursor-pointer focus-within:(outline-2 outline-solid outline-accent outline-offset-2)';

const message = (p: Problem) => t(p.key, p.vars);
const chars = (s: string) => [...s].length;

/** 编辑资料: pictures previewed before saving, counters on the texts, the shared rules checked before the server sees them. */
export function ProfileEditForm({ title, profile, onCancel }: ProfileEditFormProps) {
  const [nickname, setNickname] = useState(profile.nickname);
  const [signature, setSignature] = useState(profile.signature);
  const [gender, setGender] = useState<Gender>(profile.gender);
  const [birthday, setBirthday] = useState(profile.birthday);
  const [avatar, setAvatar] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [invalid, setInvalid] = useState<Field | null>(null);
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const avatarUrl = useObjectUrl(avatar) ?? profile.avatar;
  const coverUrl = useObjectUrl(cover) ?? profile.cover;
  const today = chinaToday();

  const changes: ProfileChanges = {
    nickname: cleanNickname(nickname) !== profile.nickname ? nickname : undefined,
    signature: cleanSignature(signature) !== profile.signature ? signature : undefined,
    gender: gender !== profile.gender ? gender : undefined,
    birthday: birthday !== profile.birthday ? birthday : undefined,
    avatar: avatar ?? undefined,
    cover: cover ?? undefined,
  };
  const changed = Object.values(changes).some((v) => v !== undefined);

  const fail = (field: Field | null, text: string) => {
    setInvalid(field);
    setError(text);
    if (field) form.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
  };

  const pick =
    (field: 'avatar' | 'cover', cap: number, set: (f: File | null) => void) =>
    (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0] ?? null;
      event.target.value = '';
      if (!file) return;
      const what = t(field === 'avatar' ? 'profile.edit.avatar' : 'profile.edit.cover');
      if (file.size > cap) return fail(field, t('error.imageTooLarge', { what, max: formatBytes(cap) }));
      setInvalid(null);
      setError('');
      set(file);
    };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed || pending) return;
    const problem: [Field, Problem | null][] = [
      ['nickname', nicknameProblem(cleanNickname(nickname))],
      ['signature', signatureProblem(cleanSignature(signature))],
      ['birthday', birthdayProblem(birthday, today)],
    ];
    const first = problem.find(([, p]) => p);
    if (first) return fail(first[0], message(first[1]!));
    setPending(true);
    setInvalid(null);
    setError('');
    try {
      await saveProfile(changes);
      // The page is rendered by the server (header, counts, cards): show it as everyone now sees it.
      reloadPage();
    } catch (failure) {
      fail(null, (failure instanceof Error && failure.message) || t('toast.failed'));
      setPending(false);
    }
  };

  const described = (field: Field, extra?: string) =>
    [invalid === field ? `${id}-error` : '', extra ?? ''].join(' ').trim() || undefined;

  return (
    <form ref={form} className="flex flex-col" onSubmit={submit} noValidate>
      <div className="flex items-center justify-between px-6 pb-2 pt-5">
        <h2 className="text-lg font-semibold">{title}</h2>
        <button
          type="button"
          className="btn-ghost h-9 w-9 p-0 text-lg lt-tablet:(h-11 w-11)"
          aria-label={t('profile.edit.close')}
          onClick={onCancel}
        >
          <Icon svg={riCloseLine} />
        </button>
      </div>
      <div className="flex flex-col gap-5 px-6 pb-6">
        <div>
          <div className="relative overflow-hidden rounded-xl bg-hover">
            <img src={coverUrl} alt="" width={1500} height={500} className="block aspect-[3/1] w-full object-cover" />
            <label
              className={`absolute bottom-2 right-2 flex h-9 items-center gap-1 rounded-full bg-black/60 px-3 text-xs text-white ${PICK}`}
            >
              <Icon svg={riCameraLine} />
              {t('profile.edit.coverChange')}
              <input
                type="file"
                accept={IMAGE_ACCEPT}
                className="sr-only"
                data-field="cover"
                aria-invalid={invalid === 'cover' || undefined}
                aria-describedby={described('cover', `${id}-hint`)}
                onChange={pick('cover', COVER_MAX_BYTES, setCover)}
              />
            </label>
          </div>
          <div className="-mt-10 ml-4 flex items-end gap-3">
            <label
              className={`relative block h-20 w-20 shrink-0 overflow-hidden rounded-full border-4 border-surface bg-hover ${PICK}`}
            >
              <img src={avatarUrl} alt="" width={80} height={80} className="h-full w-full object-cover" />
              <span
                aria-hidden="true"
                className="absolute inset-0 flex items-center justify-center bg-black/35 text-xl text-white"
              >
                <Icon svg={riCameraLine} />
              </span>
              <span className="sr-only">{t('profile.edit.avatarChange')}</span>
              <input
                type="file"
                accept={IMAGE_ACCEPT}
                className="sr-only"
                data-field="avatar"
                aria-invalid={invalid === 'avatar' || undefined}
                aria-describedby={described('avatar', `${id}-hint`)}
                onChange={pick('avatar', AVATAR_MAX_BYTES, setAvatar)}
              />
            </label>
          </div>
          <p id={`${id}-hint`} className="mt-2 text-xs text-muted">
            {t('profile.edit.imageHint', {
              avatarMax: formatBytes(AVATAR_MAX_BYTES),
              coverMax: formatBytes(COVER_MAX_BYTES),
            })}
          </p>
        </div>

        <div className="flex flex-col gap-1.5">
          <div className="flex items-baseline justify-between">
            <label htmlFor={`${id}-nickname`} className={LABEL}>
              {t('profile.edit.nickname')}
            </label>
            <span id={`${id}-nickname-count`} className="text-xs text-muted">
              {t('profile.edit.counter', { n: chars(nickname.trim()), max: NICKNAME_MAX })}
            </span>
          </div>
          <input
            id={`${id}-nickname`}
            data-field="nickname"
            className={`${FIELD} h-10`}
            value={nickname}
            autoComplete="nickname"
            placeholder={t('profile.edit.nicknamePlaceholder')}
            aria-invalid={invalid === 'nickname' || undefined}
            aria-describedby={described('nickname', `${id}-nickname-count`)}
            onChange={(e) => setNickname(e.target.value)}
          />
        </div>

        <div className="flex flex-col gap-1.5">
          <div className="flex items-baseline justify-between">
            <label htmlFor={`${id}-signature`} className={LABEL}>
              {t('profile.edit.signature')}
            </label>
            <span id={`${id}-signature-count`} className="text-xs text-muted">
              {t('profile.edit.counter', { n: chars(signature.trim()), max: SIGNATURE_MAX })}
            </span>
          </div>
          <textarea
            id={`${id}-signature`}
            data-field="signature"
            rows={3}
            className={`${FIELD} resize-none py-2 leading-5`}
            value={signature}
            placeholder={t('profile.edit.signaturePlaceholder')}
            aria-invalid={invalid === 'signature' || undefined}
            aria-describedby={described('signature', `${id}-signature-count`)}
            onChange={(e) => setSignature(e.target.value)}
          />
        </div>

        <fieldset className="flex flex-col gap-2">
          <legend className={`${LABEL} mb-2`}>{t('profile.edit.gender')}</legend>
          <div className="flex flex-wrap gap-2">
            {GENDERS.map((g) => (
              <label key={g}>
                <input
                  type="radio"
                  name={`${id}-gender`}
                  value={g}
                  checked={gender === g}
                  onChange={() => setGender(g)}
                  className="peer sr-only"
                />
                <span className={PILL}>{t(`profile.edit.gender.${g}` as MessageKey)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-birthday`} className={LABEL}>
            {t('profile.edit.birthday')}
          </label>
          <div className="flex items-center gap-2">
            <input
              id={`${id}-birthday`}
              data-field="birthday"
              type="date"
              min={BIRTHDAY_MIN}
              max={today}
              className={`${FIELD} h-10 flex-1`}
              value={birthday}
              aria-invalid={invalid === 'birthday' || undefined}
              aria-describedby={described('birthday')}
              onChange={(e) => setBirthday(e.target.value)}
            />
            {birthday && (
              <button type="button" className="btn-ghost h-10 shrink-0 lt-tablet:h-11" onClick={() => setBirthday('')}>
                {t('profile.edit.birthdayClear')}
              </button>
            )}
          </div>
        </div>

        <p id={`${id}-error`} role="alert" className="min-h-5 text-sm text-accent-text">
          {error}
        </p>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-ghost h-9 px-5 lt-tablet:h-11" onClick={onCancel}>
            {t('profile.edit.cancel')}
          </button>
          <button type="submit" className="btn-accent h-9 px-6 lt-tablet:h-11" disabled={!changed || pending}>
            {pending ? t('profile.edit.saving') : t('profile.edit.save')}
          </button>
        </div>
      </div>
    </form>
  );
}
