/** The 设置 menu's account settings (隐私设置, 通知设置) and 意见反馈, Family B: form-encoded, `{code, msg, data}`. */
import { z } from 'zod';
import { CONTACT_MAX, FEEDBACK_MAX, FEEDBACK_MIN, FEEDBACK_RATE, submitFeedback } from '../../services/feedback.ts';
import { getSettings, NOTIFY_KINDS, setNotify, setPrivacy } from '../../services/settings.ts';
import { okB } from '../envelope.ts';
import { flag, text } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';

const privacy = z.object({ likesPublic: z.boolean(), collectsPublic: z.boolean() });
const notify = z.object(
  Object.fromEntries(NOTIFY_KINDS.map((k) => [k, z.boolean()])) as Record<(typeof NOTIFY_KINDS)[number], z.ZodBoolean>,
);
const notifyInput = z.object(
  Object.fromEntries(NOTIFY_KINDS.map((k) => [k, flag().optional()])) as Record<
    (typeof NOTIFY_KINDS)[number],
    z.ZodOptional<ReturnType<typeof flag>>
  >,
);

const on = (v: number | undefined) => (v === undefined ? undefined : v === 1);

export const settingsRoutes = [
  route({
    method: 'GET',
    path: '/settings',
    family: 'B',
    auth: true,
    summary: "The viewer's privacy settings and which notification kinds they receive",
    input: z.object({}),
    response: bodyB(z.object({ privacy, notify })),
    handler: async ({ viewer }) => okB(await getSettings(viewer.id)),
  }),
  route({
    method: 'POST',
    path: '/settings/privacy',
    family: 'B',
    auth: true,
    summary:
      'Who may see my likes (likes_public) and collections (collects_public): 1 everyone, 0 only me; absent fields stay',
    input: z.object({ likes_public: flag().optional(), collects_public: flag().optional() }),
    response: bodyB(privacy),
    handler: async ({ input, viewer }) =>
      okB(
        await setPrivacy(viewer.id, { likesPublic: on(input.likes_public), collectsPublic: on(input.collects_public) }),
      ),
  }),
  route({
    method: 'POST',
    path: '/settings/notify',
    family: 'B',
    auth: true,
    ownOnly: true,
    summary: `Receive (1) or mute (0) notification kinds: ${NOTIFY_KINDS.join(', ')}; absent kinds stay`,
    input: notifyInput,
    response: bodyB(notify),
    handler: async ({ input, viewer }) =>
      okB(
        await setNotify(
          viewer.id,
          Object.fromEntries(Object.entries(input).map(([k, v]) => [k, on(v as number | undefined)])),
        ),
      ),
  }),
  route({
    method: 'POST',
    path: '/feedback',
    family: 'B',
    auth: false,
    summary: `意见反馈: content (${FEEDBACK_MIN}-${FEEDBACK_MAX} characters) and an optional contact; ${FEEDBACK_RATE.limit} per ${FEEDBACK_RATE.windowMs / 60_000} minutes per address and account`,
    input: z.object({ content: text(FEEDBACK_MIN, FEEDBACK_MAX), contact: text(0, CONTACT_MAX).optional() }),
    response: bodyB(z.object({ id: z.number().int() })),
    handler: async ({ input, viewer, clientAddress }) =>
      okB(
        await submitFeedback({
          userId: viewer?.id ?? null,
          contact: input.contact,
          content: input.content,
          clientAddress,
        }),
      ),
  }),
];
