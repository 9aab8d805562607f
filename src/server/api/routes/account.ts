/** The account as its member's own (Family B): 下载我的数据 (build, then download a ZIP) and 注销账号 (with a cooling-off). */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  ACCOUNT_API,
  COOLING_OFF_DAYS,
  EXPORT_VALID_HOURS,
  type AccountState,
  type DataExportView,
} from '../../../shared/account.ts';
import { DELETE_CONFIRM_RATE, requestDeletion, sendDeletionCode } from '../../services/account-deletion.ts';
import { accountState } from '../../services/account-state.ts';
import { EXPORT_RATE, openExport, requestExport } from '../../services/data-export.ts';
import { okB } from '../envelope.ts';
import { authContext, sessionCookie } from '../login-door.ts';
import { id } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';

const n = () => z.number().int();
const api = (path: string) => path.replace(/^\/api/, '');

const exportB = z.object({
  id: n(),
  status: z.enum(['pending', 'ready', 'failed']),
  sizeBytes: n().nullable(),
  expireTime: n().nullable(),
  url: z.string().nullable(),
}) satisfies z.ZodType<DataExportView>;

const stateB = z.object({
  export: exportB.nullable(),
  email: z.string().nullable(),
  hasPassword: z.boolean(),
}) satisfies z.ZodType<AccountState>;

export const accountRoutes = [
  route({
    method: 'GET',
    path: api(ACCOUNT_API.state),
    family: 'B',
    auth: true,
    summary:
      'My data export (the newest not expired) and how I can confirm a deletion (masked e-mail, password or not)',
    input: z.object({}),
    response: bodyB(stateB),
    handler: async ({ viewer }) => okB(await accountState(viewer.id)),
  }),
  route({
    method: 'POST',
    path: api(ACCOUNT_API.exportStart),
    family: 'B',
    auth: true,
    ownOnly: true,
    summary:
      `下载我的数据: start building a ZIP of my profile, works with their media, comments, messages, likes, follows, ` +
      `history and settings; a notification links to it when ready, for ${EXPORT_VALID_HOURS} h. One at a time ` +
      `(409 while one is being built), ${EXPORT_RATE.limit} a day`,
    input: z.object({}),
    response: bodyB(exportB),
    handler: async ({ viewer }) => okB(await requestExport(viewer.id)),
  }),
  route({
    method: 'GET',
    path: api(ACCOUNT_API.exportDownload),
    family: 'B',
    auth: true,
    summary: 'Download one of my data exports (application/zip); 404 for anyone else’s, an unknown id, or once expired',
    input: z.object({ id: id() }),
    response: z.unknown().meta({ type: 'string', format: 'binary', description: 'The ZIP (application/zip)' }),
    handler: async ({ input, viewer }) => {
      const zip = await openExport(viewer.id, input.id);
      return new Response(Readable.toWeb(createReadStream(zip.file)) as ReadableStream, {
        headers: {
          'content-type': 'application/zip',
          'content-length': String(zip.size),
          'content-disposition': `attachment; filename="${zip.name}"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    },
  }),
  route({
    method: 'POST',
    path: api(ACCOUNT_API.deleteCode),
    family: 'B',
    auth: true,
    ownOnly: true,
    summary:
      'Mail a code to my own address, to confirm 注销账号 with (the login code’s limits apply); answers the masked address',
    input: z.object({}),
    response: bodyB(z.object({ email: z.string() })),
    handler: async ({ viewer, request, clientAddress }) =>
      okB(await sendDeletionCode(viewer.id, authContext(request, clientAddress))),
  }),
  route({
    method: 'POST',
    path: api(ACCOUNT_API.deleteStart),
    family: 'B',
    auth: true,
    summary:
      `注销账号, confirmed by my password or a mailed code: every session ends now, and the account is deleted after ` +
      `${COOLING_OFF_DAYS} days unless I log in before then. ${DELETE_CONFIRM_RATE.limit} tries an hour`,
    input: z.object({
      password: z.string().max(512).optional(),
      code: z.string().max(16).optional(),
    }),
    response: bodyB(z.object({ dueTime: n() })),
    handler: async ({ input, viewer, request, headers, clientAddress }) => {
      const due = await requestDeletion(viewer.id, input, authContext(request, clientAddress));
      headers.append('set-cookie', sessionCookie(request, '', 0));
      return okB({ dueTime: due.getTime() });
    },
  }),
];
