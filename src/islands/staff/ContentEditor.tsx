/**
 * One entry of the editors' content: its form (Markdown with a live preview for FAQ answers and pages, a banner upload
 * for channels), save-and-publish, and its history with each version's diff and a restore.
 */
import { useEffect, useState } from 'react';
import { apiGet, apiPost, apiPostMultipart } from '../../stores/api.ts';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import {
  CONTENT_ID_PATTERN,
  MARKDOWN_COLLECTIONS,
  OPEN_COLLECTIONS,
  type ContentCollection,
} from '../../shared/staff.ts';
import { ReauthDialog } from './ReauthDialog.tsx';
import { useStaffCall } from './useStaffCall.ts';

type Data = Record<string, unknown>;

export interface HistoryItem {
  version: number;
  kind: string;
  authorName: string | null;
  createdAt: string;
  deleted: boolean;
  diff: { added?: boolean; removed?: boolean; value: string }[];
}

interface Props {
  collection: ContentCollection;
  /** null: a new entry of an open collection. */
  id: string | null;
  initial: { data: Data; body: string | null; version: number } | null;
  history: HistoryItem[];
  /** Where the entry shows on the site, to look at after publishing. */
  viewHref?: string;
}

type Kind = 'text' | 'textarea' | 'number' | 'tags' | 'banner' | 'group' | 'links';
const FIELDS: Record<ContentCollection, [string, Kind][]> = {
  channels: [
    ['name', 'text'],
    ['description', 'textarea'],
    ['banner', 'banner'],
    ['hashtags', 'tags'],
  ],
  faq: [
    ['question', 'text'],
    ['order', 'number'],
  ],
  pages: [
    ['title', 'text'],
    ['description', 'textarea'],
  ],
  downloads: [
    ['version', 'text'],
    ['arch', 'text'],
  ],
  headerLinks: [
    ['group', 'group'],
    ['order', 'number'],
    ['label', 'text'],
    ['href', 'text'],
  ],
  footerLinks: [
    ['title', 'text'],
    ['order', 'number'],
    ['links', 'links'],
  ],
  topupPackages: [
    ['order', 'number'],
    ['diamonds', 'number'],
    ['priceFen', 'number'],
    ['bonus', 'number'],
  ],
};

const INPUT = 'focus-ring w-full rounded-lg border border-line bg-raised px-3 text-primary aria-invalid:border-accent';
const label = (name: string) => t(`staff.content.field.${name}` as MessageKey);

export function ContentEditor({ collection, id: initialId, initial, history: initialHistory, viewHref }: Props) {
  const [id, setId] = useState(initialId ?? '');
  const [data, setData] = useState<Data>(initial?.data ?? {});
  const [body, setBody] = useState(initial?.body ?? '');
  const [version, setVersion] = useState(initial?.version ?? 0);
  const [history, setHistory] = useState(initialHistory);
  const [preview, setPreview] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const call = useStaffCall();
  const markdown = MARKDOWN_COLLECTIONS.includes(collection);
  const isNew = initialId === null;
  const badField = /「([\w.]+)」/.exec(call.error ?? '')?.[1]?.split('.')[0];

  useEffect(() => {
    if (!markdown) return;
    const timer = setTimeout(() => {
      if (!body.trim()) return setPreview('');
      apiPost<{ data: { html: string } }>('/admin/content/preview', { body }, { quiet: true }).then(
        (r) => setPreview(r.data.html),
        () => {},
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [body, markdown]);

  const set = (name: string, value: unknown) => setData((d) => ({ ...d, [name]: value }));

  async function refresh(entryId: string) {
    const r = await apiGet<{ data: { entry: { version: number } | null; history: HistoryItem[] } }>(
      '/admin/content/entry',
      { collection, id: entryId },
      { quiet: true },
    );
    setHistory(r.data.history);
    if (r.data.entry) setVersion(r.data.entry.version);
  }

  const save = () =>
    call.run(
      () =>
        apiPost<{ data: { version: number; changed: boolean } }>(
          '/admin/content/save',
          { collection, id, data: JSON.stringify(data), ...(markdown ? { body } : {}), ...(isNew ? {} : { version }) },
          { quiet: true },
        ),
      (r) => {
        const text = r.data.changed
          ? t('staff.content.saved', { version: r.data.version })
          : t('staff.content.unchanged');
        setStatus(text);
        toast(text);
        if (isNew) location.assign(`/admin/content/${collection}/${id}`);
        else void refresh(id);
      },
    );

  const restore = (v: number) =>
    call.run(
      () =>
        apiPost<{ data: { version: number } }>(
          '/admin/content/restore',
          { collection, id, version: v },
          { quiet: true },
        ),
      () => location.reload(),
    );

  const remove = () => {
    if (!confirm(t('staff.content.deleteConfirm'))) return;
    void call.run(
      () => apiPost('/admin/content/delete', { collection, id }, { quiet: true }),
      () => location.assign(`/admin/content?collection=${collection}`),
    );
  };

  const upload = (file: File) => {
    const form = new FormData();
    form.set('channel', id);
    form.set('banner', file);
    void call.run(
      () => apiPostMultipart<{ data: { banner: string } }>('/admin/content/banner', form, { quiet: true }),
      (r) => set('banner', r.data.banner),
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-4 rounded-2xl bg-surface p-4 md:p-6"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {isNew && (
          <Field name="id" label={t('staff.content.id')} hint={t('staff.content.idHint')} invalid={false}>
            <input
              id="field-id"
              className={`${INPUT} h-11`}
              value={id}
              pattern={CONTENT_ID_PATTERN.source}
              required
              onChange={(e) => setId(e.target.value.trim())}
            />
          </Field>
        )}
        {FIELDS[collection].map(([name, kind]) => (
          <Field key={name} name={name} label={label(name)} invalid={badField === name}>
            <Control
              name={name}
              kind={kind}
              value={data[name]}
              invalid={badField === name}
              onChange={(v) => set(name, v)}
              onUpload={upload}
            />
          </Field>
        ))}
        {markdown && (
          <div className="grid gap-4 lg:grid-cols-2">
            <Field name="body" label={t('staff.content.body')} invalid={badField === 'body'}>
              <textarea
                id="field-body"
                className={`${INPUT} min-h-64 py-2 font-mono text-sm leading-6`}
                aria-invalid={badField === 'body' || undefined}
                value={body}
                onChange={(e) => setBody(e.target.value)}
              />
            </Field>
            <section aria-label={t('staff.content.preview')} className="flex flex-col gap-1 text-sm">
              <span>{t('staff.content.preview')}</span>
              <div
                className="staff-prose min-h-64 rounded-lg border border-dashed border-line p-3 leading-7"
                data-testid="content-preview"
                // The server renders and cleans it (content/markdown.ts): raw HTML never survives.
                dangerouslySetInnerHTML={{
                  __html: preview || `<p class="text-muted">${t('staff.content.previewEmpty')}</p>`,
                }}
              />
            </section>
          </div>
        )}
        {call.error && (
          <p role="alert" className="rounded-lg bg-hover px-3 py-2 text-sm text-accent-text">
            {call.error}
          </p>
        )}
        {status && !call.error && (
          <p role="status" className="text-sm text-secondary">
            {status}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-accent h-11 px-6" disabled={call.busy}>
            {call.busy ? t('staff.content.saving') : t('staff.content.save')}
          </button>
          {viewHref && !isNew && (
            <a className="btn-ghost h-11" href={viewHref} target="_blank" rel="noopener">
              {t('staff.reports.open')}
            </a>
          )}
          {!isNew && OPEN_COLLECTIONS.includes(collection) && (
            <button type="button" className="btn-ghost h-11 ml-auto" onClick={remove}>
              {t('staff.content.delete')}
            </button>
          )}
        </div>
      </form>
      {!isNew && (
        <section aria-labelledby="content-history" className="rounded-2xl bg-surface p-4 md:p-6">
          <h2 id="content-history" className="mb-3 text-lg font-bold">
            {t('staff.content.history')}
          </h2>
          <ol className="flex flex-col gap-3">
            {history.map((h, i) => (
              <li key={h.version} className="rounded-xl border border-line p-3" data-version={h.version}>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <strong>{t('staff.content.version', { version: h.version })}</strong>
                  <span className="rounded bg-hover px-1.5 text-xs">
                    {t(`staff.content.kind.${h.kind}` as MessageKey)}
                  </span>
                  <span className="text-secondary">
                    {t('staff.content.by', {
                      name: h.authorName ?? t('staff.content.system'),
                      time: new Date(h.createdAt).toLocaleString('zh-CN'),
                    })}
                  </span>
                  {i === 0 ? (
                    <span className="ml-auto text-xs text-secondary">{t('staff.content.current')}</span>
                  ) : (
                    !h.deleted && (
                      <button
                        type="button"
                        className="btn-ghost ml-auto h-11 border border-line"
                        disabled={call.busy}
                        onClick={() => void restore(h.version)}
                      >
                        {t('staff.content.restore')}
                      </button>
                    )
                  )}
                </div>
                <pre className="mt-2 max-h-60 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-raised p-2 text-xs leading-5">
                  {h.diff
                    .filter((p) => p.added || p.removed)
                    .map((p, k) => (
                      <span
                        key={k}
                        className={p.added ? 'text-green-800 dark:text-green-400' : 'text-accent-text line-through'}
                      >
                        {p.value
                          .split('\n')
                          .filter((l, n, all) => l !== '' || n < all.length - 1)
                          .map((l) => `${p.added ? '+ ' : '- '}${l}\n`)
                          .join('')}
                      </span>
                    ))}
                </pre>
              </li>
            ))}
          </ol>
        </section>
      )}
      {call.reauth && (
        <ReauthDialog
          onClose={call.clearReauth}
          onDone={() => {
            const resume = call.reauth;
            call.clearReauth();
            resume?.();
          }}
        />
      )}
    </div>
  );
}

function Field({
  name,
  label,
  hint,
  invalid,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  invalid: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1 text-sm" data-field={name} data-invalid={invalid || undefined}>
      <label htmlFor={`field-${name}`} className="font-medium">
        {label}
      </label>
      {children}
      {hint && <span className="text-xs text-secondary">{hint}</span>}
    </div>
  );
}

interface ControlProps {
  name: string;
  kind: Kind;
  value: unknown;
  invalid: boolean;
  onChange: (value: unknown) => void;
  onUpload: (file: File) => void;
}

function Control({ name, kind, value, invalid, onChange, onUpload }: ControlProps) {
  const common = { id: `field-${name}`, 'aria-invalid': invalid || undefined };
  switch (kind) {
    case 'textarea':
      return (
        <textarea
          {...common}
          className={`${INPUT} min-h-24 py-2`}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'number':
      return (
        <input
          {...common}
          className={`${INPUT} h-11 w-40`}
          type="number"
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
    case 'tags':
      return (
        <input
          {...common}
          className={`${INPUT} h-11`}
          value={Array.isArray(value) ? value.join(' ') : ''}
          onChange={(e) => onChange(e.target.value.split(/[\s,，]+/).filter(Boolean))}
        />
      );
    case 'group':
      return (
        <select
          {...common}
          className={`${INPUT} h-11 w-40`}
          value={String(value ?? 'more')}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="post">{t('staff.content.group.post')}</option>
          <option value="more">{t('staff.content.group.more')}</option>
        </select>
      );
    case 'banner':
      return (
        <div className="flex flex-col gap-2">
          {typeof value === 'string' && value && (
            <img
              src={`/media/${value}`}
              alt=""
              width="600"
              height="120"
              className="h-24 w-full max-w-xl rounded-lg object-cover"
            />
          )}
          <input
            {...common}
            className={`${INPUT} h-11`}
            value={String(value ?? '')}
            onChange={(e) => onChange(e.target.value)}
          />
          <label className="btn-ghost h-11 w-fit cursor-pointer border border-line">
            {t('staff.content.uploadBanner')}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) onUpload(file);
                e.target.value = '';
              }}
            />
          </label>
          <span className="text-xs text-secondary">{t('staff.content.bannerHint')}</span>
        </div>
      );
    case 'links': {
      const links = Array.isArray(value) ? (value as { title: string; href: string }[]) : [];
      const update = (i: number, patch: Partial<{ title: string; href: string }>) =>
        onChange(links.map((l, k) => (k === i ? { ...l, ...patch } : l)));
      return (
        <div className="flex flex-col gap-2" id={common.id}>
          {links.map((l, i) => (
            <div key={i} className="flex flex-wrap gap-2">
              <input
                aria-label={t('staff.content.field.title')}
                className={`${INPUT} h-11 w-40`}
                value={l.title}
                onChange={(e) => update(i, { title: e.target.value })}
              />
              <input
                aria-label={t('staff.content.field.href')}
                className={`${INPUT} h-11 flex-1`}
                value={l.href}
                onChange={(e) => update(i, { href: e.target.value })}
              />
              <button
                type="button"
                className="btn-ghost h-11"
                onClick={() => onChange(links.filter((_, k) => k !== i))}
              >
                {t('staff.content.removeLink')}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn-ghost h-11 w-fit border border-line"
            onClick={() => onChange([...links, { title: '', href: '/' }])}
          >
            {t('staff.content.addLink')}
          </button>
        </div>
      );
    }
    default:
      return (
        <input
          {...common}
          className={`${INPUT} h-11`}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}
