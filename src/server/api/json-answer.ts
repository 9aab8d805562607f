/**
 * JSON answers whose text a door writes itself (node.ts): the text rides beside a Response without a body, instead of
 * being encoded into a stream that the door reads back (for a 36 KB feed that round trip cost more than shaping it).
 */

const texts = new WeakMap<Response, string>();

/** A 200 response of JSON `text`; without `body` it carries none, and `answerTextOf` finds the text. */
export function textResponse(text: string, headers: Headers, body: boolean): Response {
  if (body) return new Response(text, { status: 200, headers });
  const response = new Response(null, { status: 200, headers });
  texts.set(response, text);
  return response;
}

/** The JSON text behind a bodiless response of `textResponse`, if it is one. */
export function answerTextOf(response: Response): string | undefined {
  return texts.get(response);
}
