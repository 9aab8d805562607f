import { describe, expect, it } from 'vitest';
import { answerTextOf, textResponse } from './json-answer.ts';

describe('JSON answers written by the door itself', () => {
  it('keeps the text beside a bodiless response, and finds none behind any other', () => {
    const response = textResponse('{"热":1}', new Headers({ 'content-type': 'application/json' }), false);
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(answerTextOf(response)).toBe('{"热":1}');
    expect(answerTextOf(new Response('{"热":1}'))).toBeUndefined();
  });

  it('answers with the body itself when asked to', async () => {
    const response = textResponse('{"热":1}', new Headers(), true);
    expect(answerTextOf(response)).toBeUndefined();
    expect(await response.text()).toBe('{"热":1}');
  });
});
