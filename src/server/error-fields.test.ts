import { describe, expect, it } from 'vitest';
import { asError, errorFields } from './error-fields.ts';

/** A pg DatabaseError as node-postgres builds it, wrapped the way Drizzle wraps it. */
function queryFailure(): Error {
  const pg = Object.assign(new Error('invalid input syntax for type integer: "secret words"'), {
    severity: 'ERROR',
    code: '22P02',
    detail: 'Key (email)=(someone@example.com) already exists.',
    routine: 'pg_strtoint32_safe',
  });
  const wrapped = new Error('Failed query: select * from users where nickname = $1\nparams: secret words', {
    cause: pg,
  });
  wrapped.name = 'DrizzleQueryError';
  return wrapped;
}

describe('errorFields', () => {
  it('keeps a query failure to its kind, SQLSTATE and stack: no SQL, parameters, values or detail', () => {
    const fields = errorFields(queryFailure());
    const line = JSON.stringify(fields);
    expect(fields).toMatchObject({
      error: 'DrizzleQueryError',
      code: '22P02',
      severity: 'ERROR',
      routine: 'pg_strtoint32_safe',
    });
    expect(line).not.toMatch(/secret words|someone@example|select \*|params/);
    expect(String(fields.stack)).toMatch(/^\s+at /);
  });

  it('keeps the message of a failure of the server itself, which quotes no data', () => {
    const down = Object.assign(new Error('terminating connection due to administrator command'), {
      severity: 'FATAL',
      code: '57P01',
    });
    expect(errorFields(down)).toMatchObject({
      code: '57P01',
      message: 'terminating connection due to administrator command',
    });
  });

  it('drops what JSON.parse quotes of its input', () => {
    let error: unknown;
    try {
      JSON.parse('{"password": "hunter2"');
    } catch (e) {
      error = e;
    }
    expect(JSON.stringify(errorFields(error))).not.toContain('hunter2');
  });

  it('keeps the message of a programming error', () => {
    expect(errorFields(new TypeError("Cannot read properties of undefined (reading 'id')"))).toMatchObject({
      error: 'TypeError',
      message: "Cannot read properties of undefined (reading 'id')",
    });
    expect(errorFields('thrown string')).toEqual({ error: 'string' });
  });
});

describe('asError', () => {
  it('makes a plain copy of a database error (as pg-boss emits one) an Error, judged as the original', () => {
    const pg = (queryFailure() as Error & { cause: Error }).cause;
    const copy = { ...pg, message: pg.message, stack: pg.stack, queue: 'video-process' };
    const fields = errorFields(asError(copy));
    expect(fields).toMatchObject({ error: 'Error', code: '22P02', severity: 'ERROR' });
    expect(JSON.stringify(fields)).not.toMatch(/secret words|someone@example/);
    // The copy as it was, a plain object, would have said nothing but its type.
    expect(errorFields(copy)).toEqual({ error: 'object' });
  });

  it('keeps a programming error’s message, and leaves Errors and other values as they are', () => {
    expect(errorFields(asError({ message: 'queue video-process does not exist' }))).toMatchObject({
      message: 'queue video-process does not exist',
    });
    const error = new Error('x');
    expect(asError(error)).toBe(error);
    expect(asError('text')).toBe('text');
    expect(asError(null)).toBe(null);
  });
});
