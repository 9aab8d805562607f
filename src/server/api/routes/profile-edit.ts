/** 编辑资料 on Douyin's write path (its apps post profile changes to commit/user): the fields and the two pictures in one form. */
import { z } from 'zod';
import { formatBytes } from '../../../shared/format-bytes.ts';
import { AVATAR_MAX_BYTES, COVER_MAX_BYTES, NICKNAME_MAX, SIGNATURE_MAX } from '../../../shared/profile-edit.ts';
import { editProfile, PROFILE_EDIT_RATE } from '../../services/profile-edit.ts';
import { getById } from '../../services/users.ts';
import { ApiError, okA } from '../envelope.ts';
import { int } from '../params.ts';
import { route } from '../registry.ts';
import { bodyA, selfUser } from '../schemas.ts';
import { selfUser as shapeSelf } from '../shape.ts';

const picture = (description: string) =>
  z.instanceof(File).meta({ type: 'string', format: 'binary', description }).optional();
const bytesOf = async (file: File | undefined) => (file ? new Uint8Array(await file.arrayBuffer()) : undefined);

export const profileEditRoutes = [
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/user/',
    family: 'A',
    auth: true,
    summary:
      `Edit the viewer's profile (编辑资料); absent fields stay. nickname 1-${NICKNAME_MAX} characters, signature (简介) up to ` +
      `${SIGNATURE_MAX}, gender 0 not shown / 1 male / 2 female, birthday YYYY-MM-DD in the past ('' removes it); ` +
      `avatar (≤ ${formatBytes(AVATAR_MAX_BYTES)}) and cover (the profile banner, ≤ ${formatBytes(COVER_MAX_BYTES)}) as multipart ` +
      'files, JPEG, PNG or WebP by content, stored as a square and a 3:1 WebP. Answers the updated own profile. ' +
      `${PROFILE_EDIT_RATE.limit} saves per hour.`,
    input: z.object({
      // Bounds on the raw text only: the service trims, counts characters and says which rule failed.
      nickname: z
        .string()
        .max(NICKNAME_MAX * 8)
        .optional(),
      signature: z
        .string()
        .max(SIGNATURE_MAX * 8)
        .optional(),
      gender: int(0, 2).optional(),
      birthday: z.string().max(32).optional(),
      avatar: picture('The new avatar: JPEG, PNG or WebP, cropped to a centred square'),
      cover: picture('The new profile banner: JPEG, PNG or WebP, cropped to 3:1'),
    }),
    files: { avatar: AVATAR_MAX_BYTES, cover: COVER_MAX_BYTES },
    response: bodyA({ user: selfUser }),
    handler: async ({ input, viewer }) => {
      await editProfile(viewer.id, {
        nickname: input.nickname,
        signature: input.signature,
        gender: input.gender as 0 | 1 | 2 | undefined,
        birthday: input.birthday,
        avatar: await bytesOf(input.avatar),
        cover: await bytesOf(input.cover),
      });
      const self = await getById(viewer.id, null);
      if (!self) throw new ApiError(401, 'error.unauthorized');
      return okA({ user: shapeSelf(self) });
    },
  }),
];
