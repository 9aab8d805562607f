/** What the test scripts read from a Playwright JSON report. */

/** `file:line › title` of every test whose outcome was unexpected (it failed, retries included). */
export function unexpectedTests(suites) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (spec.tests?.some((t) => t.status === 'unexpected')) out.push(`${spec.file}:${spec.line} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of suites) walk(suite);
  return out;
}
