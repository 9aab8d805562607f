/** Family A's `status_code` values, as douyin.com's web API uses them; the server answers them and the browser client reads them. */

/** douyin.com's "not logged in": a client treats it as a 401 whatever the HTTP status (`user/profile/self/` answers it with 200). */
export const NOT_LOGGED_IN = 8;

/** Family A `status_code` for each HTTP status; 0 is success. */
export const A_STATUS_CODE: Readonly<Record<number, number>> = {
  400: 2,
  401: NOT_LOGGED_IN,
  403: 9,
  404: 4,
  405: 5,
  409: 10,
  413: 6,
  415: 2,
  429: 7,
  431: 6,
  500: 1,
};
