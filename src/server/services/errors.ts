/** Errors that services raise for rule violations; the HTTP layer maps `kind` to a status and the family's envelope. */
export type ServiceErrorKind = 'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited';

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  /** Seconds until a rate-limited call may be retried. */
  readonly retryAfter?: number;

  constructor(kind: ServiceErrorKind, message: string, retryAfter?: number) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.retryAfter = retryAfter;
  }
}

/** Shorthands with the Chinese messages users see. */
export const notFound = (what = '内容') => new ServiceError('not_found', `${what}不存在`);
export const invalid = (message: string) => new ServiceError('invalid', message);
export const forbidden = (message = '没有权限') => new ServiceError('forbidden', message);
export const unauthorized = () => new ServiceError('unauthorized', '请先登录');
