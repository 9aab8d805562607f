/** The search box's panel: 热搜 and 猜你想搜 (kept across openings of the box) and the completions of typed text. */
import { atom } from 'nanostores';
import { apiGet } from './api.ts';

interface HotItem {
  id: string;
  word: string;
}

/** The panel shows 6 hot words and 6 guesses a round. */
export const HOT_SHOWN = 6;
const GUESSES_SHOWN = 6;
const SUGGEST_DELAY_MS = 150;
/** The panel's hot words and guesses are fetched again when older than this. */
const PANEL_FRESH_MS = 60_000;

/** 热搜, as last fetched. */
export const $hotWords = atom<HotItem[]>([]);
/** 猜你想搜: the current round's guesses. */
export const $guesses = atom<string[]>([]);
/** Completions of the text being typed; emptied when the box stops asking. */
export const $suggestions = atom<string[]>([]);

const W = '/aweme/v1/web';
const panel = { round: 0, at: 0 };
let pending: { timer: ReturnType<typeof setTimeout>; ctrl: AbortController } | null = null;

// The box loads these in the background: a failure leaves its panel as it was, without a toast.
const quiet = (signal?: AbortSignal) => ({ quiet: true, ...(signal ? { signal } : {}) });

async function fetchHotWords(signal?: AbortSignal): Promise<HotItem[]> {
  const body = await apiGet<{ data: { word_list: { sentence_id: string; word: string }[] } }>(
    `${W}/hot/search/list/`,
    { count: HOT_SHOWN },
    quiet(signal),
  );
  return body.data.word_list.map((w) => ({ id: w.sentence_id, word: w.word }));
}

async function fetchGuesses(round: number, signal?: AbortSignal): Promise<string[]> {
  const body = await apiGet<{ data: { words: { word: string }[] }[] }>(
    `${W}/api/suggest_words/`,
    { refresh_index: round, count: GUESSES_SHOWN },
    quiet(signal),
  );
  return body.data.flatMap((g) => g.words.map((w) => w.word));
}

/** Fetches 热搜 and 猜你想搜 when missing or older than a minute; answers a function that abandons the requests. */
export function loadPanel(now = Date.now()): () => void {
  if (now - panel.at < PANEL_FRESH_MS) return () => {};
  panel.at = now;
  const ctrl = new AbortController();
  void Promise.all([
    fetchHotWords(ctrl.signal).catch(() => null),
    fetchGuesses(panel.round, ctrl.signal).catch(() => null),
  ]).then(([words, guessed]) => {
    if (words) $hotWords.set(words);
    if (guessed) $guesses.set(guessed);
    if (!words || !guessed) panel.at = 0;
  });
  return () => ctrl.abort();
}

/** 换一换: the next round of guesses. */
export function nextGuesses(): Promise<void> {
  return fetchGuesses(++panel.round).then(
    (words) => $guesses.set(words),
    () => {},
  );
}

/** Asks for completions of `query` after a pause in typing; each call abandons the one before. '' empties them. */
export function suggest(query: string): void {
  stopSuggesting();
  if (!query) return $suggestions.set([]);
  const ctrl = new AbortController();
  const timer = setTimeout(async () => {
    try {
      const body = await apiGet<{ sug_list: { content: string }[] }>(
        `${W}/search/sug/`,
        { keyword: query },
        quiet(ctrl.signal),
      );
      if (!ctrl.signal.aborted) $suggestions.set(body.sug_list.map((s) => s.content));
    } catch {
      // Aborted by the next keystroke, or failed: the list stays as it was.
    }
  }, SUGGEST_DELAY_MS);
  pending = { timer, ctrl };
}

/** Abandons a pending request for completions. */
export function stopSuggesting(): void {
  if (!pending) return;
  clearTimeout(pending.timer);
  pending.ctrl.abort();
  pending = null;
}

/** The box closed: no request left running, and the next opening starts without the old completions. */
export function closeSuggestions(): void {
  stopSuggesting();
  $suggestions.set([]);
}
