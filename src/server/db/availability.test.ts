import { describe, expect, it } from 'vitest';
import { errorResponse } from '../api/envelope.ts';
import { handleApi } from '../api/router.ts';
import { freePort } from '../free-port.ts';
import { connect, useDb } from './client.ts';
import { isDatabaseUnavailable } from './availability.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), true],
    ['server shutting down', pgError('57P01', 'terminating connection due to administrator command'), true],
    ['server starting up', pgError('57P03', 'the database system is starting up'), true],
    ['connection exception class', pgError('08006'), true],
    [
      'a write on a primary demoted by a failover',
      pgError('25006', 'cannot execute INSERT in a read-only transaction'),
      true,
    ],
    ['PgBouncer lost its server', pgError('08P01', 'server conn crashed?'), true],
    ['lost connection', new Error('Connection terminated unexpectedly'), true],
    ['pool connect time-out', new Error('timeout exceeded when trying to connect'), true],
    ['wrapped by Drizzle', new Error('Failed query: select 1', { cause: pgError('ECONNREFUSED') }), true],
    [
      'several addresses refused',
      Object.assign(new AggregateError([pgError('ECONNREFUSED')]), { code: undefined }),
      true,
    ],
    ['a deadlock (the query ran)', pgError('40P01', 'deadlock detected'), false],
    ['invalid input', pgError('22021', 'invalid byte sequence'), false],
    ['a plain bug', new TypeError('x is undefined'), false],
    ['not an error', 'ECONNREFUSED', false],
  ])('%s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});

describe('a database that cannot be reached (DATABASE_URL of a server that is down)', () => {
  it('answers 503 with Retry-After in each family, without the driver text', async () => {
    const refused = pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    const a = errorResponse('A', refused, { method: 'GET', path: '/x' });
    const b = errorResponse('B', refused, { method: 'GET', path: '/x' });
    expect([a.status, a.headers.get('retry-after')]).toEqual([503, '2']);
    expect(await a.json()).toEqual({ status_code: 1, status_msg: '服务暂时不可用，请稍后再试' });
    expect([b.status, await b.json()]).toEqual([503, { code: '503', msg: '服务暂时不可用，请稍后再试', data: null }]);
  });

  it('answers an API read 503 through the router', async () => {
    const port = await freePort();
    const { db, pool } = connect(`postgres://nobody:x@127.0.0.1:${port}/none`, 1);
    useDb(db);
    try {
      const res = await handleApi(new Request('http://localhost/api/aweme/v1/web/aweme/detail/?aweme_id=1'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(JSON.stringify(await res.json())).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      await pool.end();
    }
  });
});
