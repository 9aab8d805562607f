/**
 * The staff console's API (/api/admin/…), Family B's envelope. Every route is a staff route (staff-door.ts): 404 to
 * visitors and members, writes same-origin only, rate-limited and within 15 minutes of an authentication.
 */
import { z } from 'zod';
import {
  BANNER_MAX_BYTES,
  CONTENT_BODY_MAX,
  CONTENT_COLLECTIONS,
  MODERATION_REASON_MAX,
  MODERATION_TARGETS,
  MUTE_DAYS,
  REMOVABLE_TARGETS,
  STAFF_ROLES,
  WATCHED_WORD_MAX,
  hasRole,
  type MuteDays,
} from '../../../shared/staff.ts';
import { renderMarkdown } from '../../content/markdown.ts';
import { deleteEntry, entryHistory, getEntry, listEntries, restoreVersion, saveEntry } from '../../content/store.ts';
import { ApiError, okB } from '../envelope.ts';
import { id, int } from '../params.ts';
import { route, type StaffRule } from '../registry.ts';
import { bodyB } from '../schemas.ts';
import { listAudit } from '../../staff/audit.ts';
import { storeBanner } from '../../staff/banners.ts';
import { removeContent, restoreContent } from '../../staff/removals.ts';
import { dismissReports, reportQueue, reportsAbout, targetContext, authorOf } from '../../staff/reports.ts';
import { grantRole, listStaff, revokeRole, rolesOf, userByEmail } from '../../staff/roles.ts';
import { activeSanction, ban, lift, mute, sanctionsOf } from '../../staff/sanctions.ts';
import { reauthenticate, requestReauthCode, staffSession } from '../../staff/session.ts';
import { addWatchedWord, listWatchedWords, removeWatchedWord } from '../../staff/watched-words.ts';
import { isRemoved } from '../../staff/removals.ts';

const editor: StaffRule = { role: 'editor' };
const moderator: StaffRule = { role: 'moderator' };
const admin: StaffRule = { role: 'admin' };
const anyStaff: StaffRule = { role: 'any' };
const data = bodyB(z.unknown());
const collection = () => z.enum(CONTENT_COLLECTIONS);
const entryId = () => z.string().min(1).max(64);
const reason = () => z.string().max(MODERATION_REASON_MAX * 4);

/** The staff session of a request that passed the door (it resolved the same token). */
async function sessionOf(token: string | undefined) {
  const session = await staffSession(token);
  if (!session) throw new ApiError(404, 'error.apiNotFound');
  return session;
}

/** JSON in a form field (an entry's data), or a 400 naming the field. */
function jsonField(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'error.badRequestFields', { fields: 'data' });
  }
}

export const staffRoutes = [
  route({
    method: 'GET',
    path: '/admin/session',
    family: 'B',
    auth: true,
    staff: { role: 'any', fresh: false },
    summary: 'The staff member: roles, and how long their last authentication still counts (ms)',
    input: z.object({}),
    response: data,
    handler: async ({ sessionToken }) => {
      const s = await sessionOf(sessionToken);
      return okB({ roles: s.roles, recentMsLeft: s.recentMsLeft, nickname: s.nickname, email: s.email });
    },
  }),
  route({
    method: 'POST',
    path: '/admin/reauth',
    family: 'B',
    auth: true,
    staff: { role: 'any', fresh: false },
    summary: 'Re-authenticate for staff work with the password or an e-mailed code (one of them)',
    input: z.object({ password: z.string().max(256).optional(), code: z.string().max(16).optional() }),
    response: data,
    handler: async ({ input, sessionToken, clientAddress }) => {
      const s = await sessionOf(sessionToken);
      const ctx = { ip: clientAddress };
      if (input.code) return okB(await reauthenticate(s, { code: input.code }, ctx));
      if (input.password) return okB(await reauthenticate(s, { password: input.password }, ctx));
      throw new ApiError(400, 'error.badRequestFields', { fields: 'password' });
    },
  }),
  route({
    method: 'POST',
    path: '/admin/reauth/code',
    family: 'B',
    auth: true,
    staff: { role: 'any', fresh: false },
    summary: "Mail a code to the staff member's address for re-authentication",
    input: z.object({}),
    response: data,
    handler: async ({ sessionToken, clientAddress }) =>
      okB(await requestReauthCode(await sessionOf(sessionToken), { ip: clientAddress })),
  }),
  route({
    method: 'GET',
    path: '/admin/content',
    family: 'B',
    auth: true,
    staff: editor,
    summary: "A collection's entries as published now",
    input: z.object({ collection: collection() }),
    response: data,
    handler: async ({ input }) => okB(await listEntries(input.collection)),
  }),
  route({
    method: 'GET',
    path: '/admin/content/entry',
    family: 'B',
    auth: true,
    staff: editor,
    summary: 'One entry and its history (who, when, the diff against the version before)',
    input: z.object({ collection: collection(), id: entryId() }),
    response: data,
    handler: async ({ input }) =>
      okB({
        entry: (await getEntry(input.collection, input.id)) ?? null,
        history: await entryHistory(input.collection, input.id),
      }),
  }),
  route({
    method: 'POST',
    path: '/admin/content/save',
    family: 'B',
    auth: true,
    staff: editor,
    summary: `Save and publish an entry: data as JSON, body as Markdown (≤ ${CONTENT_BODY_MAX} characters); version is the one edited (409 if it moved)`,
    input: z.object({
      collection: collection(),
      id: entryId(),
      data: z.string().max(100_000),
      body: z
        .string()
        .max(CONTENT_BODY_MAX + 1000)
        .optional(),
      version: int(0, 1_000_000).optional(),
    }),
    response: data,
    handler: async ({ input, viewer }) =>
      okB(
        await saveEntry(
          viewer.id,
          input.collection,
          input.id,
          { data: jsonField(input.data), body: input.body },
          input.version,
        ),
      ),
  }),
  route({
    method: 'POST',
    path: '/admin/content/delete',
    family: 'B',
    auth: true,
    staff: editor,
    summary: 'Delete an entry of an open collection (FAQ, links, top-up packages); its history stays',
    input: z.object({ collection: collection(), id: entryId() }),
    response: data,
    handler: async ({ input, viewer }) => {
      await deleteEntry(viewer.id, input.collection, input.id);
      return okB(null);
    },
  }),
  route({
    method: 'POST',
    path: '/admin/content/restore',
    family: 'B',
    auth: true,
    staff: editor,
    summary: 'Publish an earlier version of an entry again, as its newest version',
    input: z.object({ collection: collection(), id: entryId(), version: int(1, 1_000_000) }),
    response: data,
    handler: async ({ input, viewer }) =>
      okB(await restoreVersion(viewer.id, input.collection, input.id, input.version)),
  }),
  route({
    method: 'POST',
    path: '/admin/content/preview',
    family: 'B',
    auth: true,
    readOnly: true,
    staff: editor,
    summary: 'Markdown as the pages will show it (HTML, cleaned)',
    input: z.object({ body: z.string().max(CONTENT_BODY_MAX + 1000) }),
    response: data,
    handler: async ({ input }) => okB({ html: await renderMarkdown(input.body) }),
  }),
  route({
    method: 'POST',
    path: '/admin/content/banner',
    family: 'B',
    auth: true,
    staff: editor,
    files: { banner: BANNER_MAX_BYTES },
    summary: 'Upload a channel banner (JPEG, PNG or WebP by content); answers the media path to save in the channel',
    input: z.object({
      channel: z.string().regex(/^3002\d\d$/),
      banner: z.instanceof(File).meta({ type: 'string', format: 'binary' }),
    }),
    response: data,
    handler: async ({ input, viewer }) =>
      okB({ banner: await storeBanner(viewer.id, input.channel, new Uint8Array(await input.banner.arrayBuffer())) }),
  }),
  route({
    method: 'GET',
    path: '/admin/reports',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'The queue: reports grouped by target, most recent first',
    input: z.object({ state: z.enum(['open', 'closed']).optional() }),
    response: data,
    handler: async ({ input }) => okB(await reportQueue(input.state ?? 'open')),
  }),
  route({
    method: 'GET',
    path: '/admin/reports/target',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'A reported target in context, its reports, and its author’s mute or ban',
    input: z.object({ type: z.enum(MODERATION_TARGETS), id: id() }),
    response: data,
    handler: async ({ input }) => {
      const author = await authorOf(input.type, input.id);
      return okB({
        context: await targetContext(input.type, input.id),
        reports: await reportsAbout(input.type, input.id),
        removed: (REMOVABLE_TARGETS as readonly string[]).includes(input.type)
          ? await isRemoved(input.type as (typeof REMOVABLE_TARGETS)[number], input.id)
          : false,
        author,
        mute: author === null ? null : await activeSanction(author, 'mute'),
        ban: author === null ? null : await activeSanction(author, 'ban'),
      });
    },
  }),
  route({
    method: 'POST',
    path: '/admin/reports/dismiss',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'Dismiss every open report of a target',
    input: z.object({ type: z.enum(MODERATION_TARGETS), id: id() }),
    response: data,
    handler: async ({ input, viewer }) => okB({ dismissed: await dismissReports(viewer.id, input.type, input.id) }),
  }),
  route({
    method: 'POST',
    path: '/admin/moderation/remove',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'Remove content (hidden everywhere at once, its author told why); closes its open reports',
    input: z.object({ type: z.enum(REMOVABLE_TARGETS), id: id(), reason: reason() }),
    response: data,
    handler: async ({ input, viewer }) =>
      okB({ removal: await removeContent(viewer.id, input.type, input.id, input.reason) }),
  }),
  route({
    method: 'POST',
    path: '/admin/moderation/restore',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'Restore removed content',
    input: z.object({ type: z.enum(REMOVABLE_TARGETS), id: id() }),
    response: data,
    handler: async ({ input, viewer }) => {
      await restoreContent(viewer.id, input.type, input.id);
      return okB(null);
    },
  }),
  route({
    method: 'POST',
    path: '/admin/moderation/mute',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: `Mute a member for ${MUTE_DAYS.join(', ')} days: no comments, danmaku, messages or live chat`,
    input: z.object({ user_id: id(), days: int(1, 30), reason: reason() }),
    response: data,
    handler: async ({ input, viewer }) =>
      okB(await mute(viewer.id, input.user_id, input.days as MuteDays, input.reason)),
  }),
  route({
    method: 'POST',
    path: '/admin/moderation/ban',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'Ban a member: sessions revoked, logins refused, works made private',
    input: z.object({ user_id: id(), reason: reason() }),
    response: data,
    handler: async ({ input, viewer }) => okB(await ban(viewer.id, input.user_id, input.reason)),
  }),
  route({
    method: 'POST',
    path: '/admin/moderation/lift',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: "Lift a member's mute or ban",
    input: z.object({ user_id: id(), kind: z.enum(['mute', 'ban']) }),
    response: data,
    handler: async ({ input, viewer }) => {
      await lift(viewer.id, input.user_id, input.kind);
      return okB(null);
    },
  }),
  route({
    method: 'GET',
    path: '/admin/words',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'The watched words',
    input: z.object({}),
    response: data,
    handler: async () => okB(await listWatchedWords()),
  }),
  route({
    method: 'POST',
    path: '/admin/words/add',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: `Watch a word (≤ ${WATCHED_WORD_MAX} characters)`,
    input: z.object({ word: z.string().max(WATCHED_WORD_MAX * 4) }),
    response: data,
    handler: async ({ input, viewer }) => okB(await addWatchedWord(viewer.id, input.word)),
  }),
  route({
    method: 'POST',
    path: '/admin/words/remove',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'Stop watching a word',
    input: z.object({ id: id() }),
    response: data,
    handler: async ({ input, viewer }) => {
      await removeWatchedWord(viewer.id, input.id);
      return okB(null);
    },
  }),
  route({
    method: 'GET',
    path: '/admin/members',
    family: 'B',
    auth: true,
    staff: moderator,
    summary: 'A member by e-mail address, with their roles and sanctions',
    input: z.object({ email: z.string().min(3).max(254) }),
    response: data,
    handler: async ({ input }) => {
      const user = await userByEmail(input.email);
      return okB({ ...user, roles: await rolesOf(user.id), sanctions: await sanctionsOf(user.id) });
    },
  }),
  route({
    method: 'GET',
    path: '/admin/staff',
    family: 'B',
    auth: true,
    staff: admin,
    summary: 'Everyone holding a staff role',
    input: z.object({}),
    response: data,
    handler: async () => okB(await listStaff()),
  }),
  route({
    method: 'POST',
    path: '/admin/roles/grant',
    family: 'B',
    auth: true,
    staff: admin,
    summary: 'Grant a role to a member',
    input: z.object({ user_id: id(), role: z.enum(STAFF_ROLES) }),
    response: data,
    handler: async ({ input, viewer }) => okB({ changed: await grantRole(viewer.id, input.user_id, input.role) }),
  }),
  route({
    method: 'POST',
    path: '/admin/roles/revoke',
    family: 'B',
    auth: true,
    staff: admin,
    summary: "Revoke a member's role",
    input: z.object({ user_id: id(), role: z.enum(STAFF_ROLES) }),
    response: data,
    handler: async ({ input, viewer }) => okB({ changed: await revokeRole(viewer.id, input.user_id, input.role) }),
  }),
  route({
    method: 'GET',
    path: '/admin/audit',
    family: 'B',
    auth: true,
    staff: anyStaff,
    summary: 'The audit log, newest first: everyone’s for an admin, one’s own for other staff',
    input: z.object({ before: id().optional() }),
    response: data,
    handler: async ({ input, sessionToken }) => {
      const s = await sessionOf(sessionToken);
      return okB(await listAudit({ actorId: hasRole(s.roles, 'admin') ? undefined : s.userId, before: input.before }));
    },
  }),
];
