/** A user named as douyin's writes name one: by sec_user_id or user_id (either; both must name the same user). */
import { z } from 'zod';
import { getBySecUid } from '../services/users.ts';
import { ApiError } from './envelope.ts';
import { id, secUid } from './params.ts';

interface UserRef {
  sec_user_id?: string;
  user_id?: number;
}

/** `shape` with the two optional fields, and the rule that one of them is given (reported on sec_user_id). */
export function withUserRef<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ sec_user_id: secUid().optional(), user_id: id().optional(), ...shape })
    .refine((x) => (x as UserRef).sec_user_id !== undefined || (x as UserRef).user_id !== undefined, {
      path: ['sec_user_id'],
      message: 'required',
    });
}

/** The id of the user named; 404 when sec_user_id names nobody or not the user of user_id. */
export async function userIdOf(ref: UserRef): Promise<number> {
  if (ref.sec_user_id === undefined) return ref.user_id!;
  const user = await getBySecUid(ref.sec_user_id, null);
  if (!user || (ref.user_id !== undefined && ref.user_id !== user.id)) throw new ApiError(404, 'error.userNotFound');
  return user.id;
}
