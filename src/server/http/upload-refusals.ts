/**
 * The upload door's refusals: Family B's envelope with a catalogue message, thrown to tus (it answers `status_code`
 * with `body`) or answered by the door itself.
 */
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { errorBody } from '../api/envelope.ts';
import type { MessageVars, ServiceError } from '../services/errors.ts';

/** A refusal as tus reads one (`status_code`, `body`), with headers the door adds when it answers itself. */
export interface Refusal {
  status_code: number;
  body: string;
  headers?: Record<string, string>;
}

/** A refusal with the catalogue message `key`. */
export function refusal(status: number, key: MessageKey, vars?: MessageVars, headers?: Record<string, string>): Refusal {
  return { status_code: status, body: JSON.stringify(errorBody('B', status, t(key, vars))), headers };
}

const KIND_STATUS: Record<string, number> = { invalid: 422, not_found: 404, forbidden: 403, conflict: 409, unauthorized: 401, rate_limited: 429 };
// Refused for what the file is (not for how it went): the client must not retry these.
const WRONG_TYPE = new Set<MessageKey>(['error.uploadNotVideo', 'error.coverNotImage']);

/** A service's refusal of an upload (its limit, its content) as the door answers it. */
export function fromServiceError(error: ServiceError): Refusal {
  const status = WRONG_TYPE.has(error.key) ? 415 : (KIND_STATUS[error.kind] ?? 400);
  const headers = error.kind === 'rate_limited' ? { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfter ?? 1))) } : undefined;
  return refusal(status, error.key, error.vars, headers);
}
