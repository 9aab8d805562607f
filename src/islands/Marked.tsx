import { highlightParts } from '../shared/highlight.ts';

// A highlighter tint rather than accent-coloured text: #fe2c55 on the light page is 3.5:1, under WCAG AA for body text.
const MARK = 'rounded-sm bg-[color-mix(in_srgb,var(--c-accent)_18%,transparent)] px-px font-semibold text-primary';

/** `text` with the keyword's matches wrapped in <mark>: text nodes only, nothing is parsed as HTML. */
export function Marked({ text, keyword }: { text: string; keyword: string }) {
  return (
    <>
      {highlightParts(text, keyword).map((p, i) =>
        p.hit ? (
          <mark key={i} className={MARK}>
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
