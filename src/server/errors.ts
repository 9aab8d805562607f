/** Errors that services raise for rule violations; the HTTP layer maps `kind` to a status and the family's envelope. */
import type { MessageKey } from '../i18n/zh-CN.ts';

export type ServiceErrorKind =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'rate_limited';

/** Values for a catalogue message's {name} placeholders. */
export type MessageVars = Record<string, string | number>;

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  /** The catalogue message users see; the envelope turns it into text with `t(key, vars)`. */
  readonly key: MessageKey;
  readonly vars?: MessageVars;
  /** Seconds until a rate-limited call may be retried. */
  readonly retryAfter?: number;

  constructor(kind: ServiceErrorKind, key: MessageKey, vars?: MessageVars, options: { retryAfter?: number } = {}) {
    // The key, not the text, in `message`: logs and stack traces name the rule without a catalogue at hand.
    super(key);
    this.name = 'ServiceError';
    this.kind = kind;
    this.key = key;
    this.vars = vars;
    this.retryAfter = options.retryAfter;
  }
}

/** Shorthands; each takes the catalogue key of the message users see. */
export const notFound = (key: MessageKey = 'error.notFound') => new ServiceError('not_found', key);
export const invalid = (key: MessageKey, vars?: MessageVars) => new ServiceError('invalid', key, vars);
/** A file over its cap: HTTP 413. */
export const tooLarge = (key: MessageKey, vars?: MessageVars) => new ServiceError('too_large', key, vars);
export const forbidden = (key: MessageKey = 'error.forbidden') => new ServiceError('forbidden', key);
/** Refused by a rate limit; the envelope answers 429 with Retry-After. */
export const rateLimited = (retryAfter: number) =>
  new ServiceError('rate_limited', 'error.rateLimited', undefined, { retryAfter });
