/** What every way of logging in shares: the caller's context, the email rule, per-IP scaling, and the session a login opens or logout ends. */
import { z } from 'zod';
import { config } from '../../config.ts';
import { users } from '../../db/schema.ts';
import { cancelDeletion } from '../deletion-clock.ts';
import { invalid } from '../../errors.ts';
import { createSession, revokeAllSessions, revokeSession, type Viewer } from '../sessions.ts';
import { rememberDevice } from './devices.ts';
import { assertNotBanned } from '../../staff/sanctions.ts';

export interface AuthContext {
  ip: string;
  userAgent?: string;
  /** The session this browser had before the login, ended when the new one opens. */
  previousToken?: string;
  /** The browser's device cookie, if it has one (devices.ts). */
  deviceToken?: string;
}

export interface LoginResult {
  token: string;
  expiresAt: Date;
  user: Viewer;
  /** True when this login created the account (first code login). */
  created: boolean;
  /** True when the account was waiting to be deleted (注销) and this login cancelled that. */
  deletionCancelled: boolean;
  /** The device cookie this browser keeps for the account (devices.ts): its own, renewed, or a new one. */
  deviceToken: string;
}

const CLEANUP_CHANCE = 0.01;

const emailSchema = z.email().max(254);

/** The user columns a login answers with. */
export const viewerColumns = { id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar };

/** Trims and lowercases an email; throws `invalid` when it is empty or not an email. */
export function normalizeEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (email === '') throw invalid('login.error.emailEmpty');
  if (!emailSchema.safeParse(email).success) throw invalid('error.emailInvalid');
  return email;
}

/**
 * Per-IP limits scaled by RATE_LIMIT_IP_FACTOR (default 1): many honest users may share one address (a campus NAT,
 * or the end-to-end suite's browsers on 127.0.0.1). Per-account limits never scale.
 */
export function perIp(limit: number): number {
  return Math.floor(limit * config().RATE_LIMIT_IP_FACTOR);
}

/** The rate-limit key part for the caller's address. */
export function ipOf(ctx: AuthContext): string {
  return ctx.ip || 'unknown';
}

/** Runs a housekeeping task on about one call in a hundred. */
export function sometimes(task: () => Promise<unknown>): Promise<unknown> {
  return Math.random() < CLEANUP_CHANCE ? task() : Promise.resolve();
}

/**
 * Opens the session that ends a successful login and revokes the one this browser held before, whoever's it was: a
 * token issued before the login (perhaps planted by someone else) must not outlive it.
 */
export async function issue(user: Viewer, ctx: AuthContext | undefined, created: boolean): Promise<LoginResult> {
  await assertNotBanned(user.id);
  await revokeSession(ctx?.previousToken);
  // Every way in passes here: logging in during the cooling-off of a 注销 is how a member takes it back.
  const deletionCancelled = await cancelDeletion(user.id);
  const { token, expiresAt } = await createSession(user.id, ctx?.userAgent);
  const deviceToken = await rememberDevice(user.id, ctx?.deviceToken);
  return { token, expiresAt, user, created, deletionCancelled, deviceToken };
}

/** Logs out: the token stops working on every server at once. */
export async function logout(token: string): Promise<void> {
  await revokeSession(token);
}

/** 退出所有设备: every session of the user stops working, this one included; returns how many ended. */
export async function logoutEverywhere(userId: number): Promise<number> {
  return revokeAllSessions(userId);
}
