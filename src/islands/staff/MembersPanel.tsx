/** 成员与角色: find a member by e-mail; an admin grants and revokes roles, a moderator lifts mutes and bans. */
import { useState } from 'react';
import { apiGet, apiPost } from '../../stores/api.ts';
import { toast } from '../../stores/toast.ts';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { STAFF_ROLES, type StaffRole } from '../../shared/staff.ts';
import { ReauthDialog } from './ReauthDialog.tsx';
import { useStaffCall } from './useStaffCall.ts';

interface Member {
  id: number;
  nickname: string;
  roles: StaffRole[];
  sanctions: { id: number; kind: 'mute' | 'ban'; reason: string; endsAt: string | null; active: boolean }[];
}

export function MembersPanel({ isAdmin }: { isAdmin: boolean }) {
  const [email, setEmail] = useState('');
  const [member, setMember] = useState<Member | null>(null);
  const call = useStaffCall();
  const load = () =>
    call.run(
      () => apiGet<{ data: Member }>('/admin/members', { email }, { quiet: true }),
      (r) => setMember(r.data),
    );
  const change = (path: string, form: Record<string, string | number>) =>
    call.run(
      () => apiPost(path, form, { quiet: true }),
      () => {
        toast(t('staff.action.done'));
        void load();
      },
    );
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void load();
        }}
      >
        <label className="sr-only" htmlFor="member-email">
          {t('staff.members.search')}
        </label>
        <input
          id="member-email"
          type="email"
          className="focus-ring h-11 min-w-0 flex-1 rounded-lg border border-line bg-raised px-3 text-primary"
          placeholder={t('staff.members.search')}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="btn-accent h-11 px-6" disabled={call.busy || !email.includes('@')}>
          {t('staff.members.find')}
        </button>
      </form>
      {call.error && (
        <p role="alert" className="text-sm text-accent-text">
          {call.error}
        </p>
      )}
      {member && (
        <section
          aria-label={member.nickname}
          className="flex flex-col gap-3 rounded-xl border border-line p-4"
          data-member={member.id}
        >
          <h3 className="text-base font-bold">{member.nickname}</h3>
          <div className="flex flex-wrap items-center gap-2">
            {STAFF_ROLES.map((role) => {
              const held = member.roles.includes(role);
              const name = t(`staff.role.${role}` as MessageKey);
              return isAdmin ? (
                <button
                  key={role}
                  type="button"
                  aria-pressed={held}
                  className={held ? 'btn-accent h-11' : 'btn-ghost h-11 border border-line'}
                  disabled={call.busy}
                  onClick={() =>
                    void change(held ? '/admin/roles/revoke' : '/admin/roles/grant', { user_id: member.id, role })
                  }
                >
                  {`${held ? t('staff.members.revoke') : t('staff.members.grant')}${name}`}
                </button>
              ) : (
                held && (
                  <span key={role} className="rounded bg-hover px-2 py-1 text-sm">
                    {name}
                  </span>
                )
              );
            })}
          </div>
          <h4 className="text-sm font-medium">{t('staff.members.sanctions')}</h4>
          {member.sanctions.length === 0 ? (
            <p className="text-sm text-secondary">{t('staff.members.none')}</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {member.sanctions.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">
                    {s.kind === 'mute' ? t('staff.action.mute') : t('staff.action.ban')}
                  </span>
                  <span className="text-secondary">{s.reason}</span>
                  {s.endsAt && <span className="text-secondary">{new Date(s.endsAt).toLocaleString('zh-CN')}</span>}
                  {s.active && (
                    <button
                      type="button"
                      className="btn-ghost h-11 border border-line"
                      onClick={() => void change('/admin/moderation/lift', { user_id: member.id, kind: s.kind })}
                    >
                      {s.kind === 'mute' ? t('staff.action.unmute') : t('staff.action.unban')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
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
