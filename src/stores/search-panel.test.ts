import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
const { apiGet } = await import('./api.ts');
const s = await import('./search-panel.ts');
const get = vi.mocked(apiGet);

const hot = { data: { word_list: [{ sentence_id: '1', word: '美食' }] } };
const guesses = (...words: string[]) => ({ data: [{ words: words.map((word) => ({ word })) }] });
const paths = () => get.mock.calls.map(([path]) => path);

beforeEach(() => {
  get.mockReset();
});
afterEach(() => vi.useRealTimers());

describe('the search panel', () => {
  it('fetches 热搜 and 猜你想搜 when missing or older than a minute; 换一换 asks for the next round', async () => {
    get.mockImplementation(async (path) => (String(path).includes('hot') ? hot : guesses('猫', '狗')));
    s.loadPanel(1_000_000);
    await vi.waitFor(() => expect(s.$guesses.get()).toEqual(['猫', '狗']));
    expect(s.$hotWords.get()).toEqual([{ id: '1', word: '美食' }]);
    s.loadPanel(1_030_000);
    expect(get).toHaveBeenCalledTimes(2);
    expect(get).toHaveBeenCalledWith(
      '/aweme/v1/web/hot/search/list/',
      { count: 6 },
      expect.objectContaining({ quiet: true }),
    );
    expect(get).toHaveBeenCalledWith(
      '/aweme/v1/web/api/suggest_words/',
      { refresh_index: 0, count: 6 },
      expect.objectContaining({ quiet: true }),
    );
    get.mockResolvedValueOnce(guesses('鱼'));
    await s.nextGuesses();
    expect(get).toHaveBeenLastCalledWith(
      '/aweme/v1/web/api/suggest_words/',
      { refresh_index: 1, count: 6 },
      { quiet: true },
    );
    expect(s.$guesses.get()).toEqual(['鱼']);
  });

  it('after a failure the panel keeps its words and asks again at the next opening', async () => {
    get.mockRejectedValue(new Error('offline'));
    s.loadPanel(2_000_000);
    await vi.waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    await new Promise((r) => setTimeout(r, 0));
    s.loadPanel(2_000_001);
    expect(get).toHaveBeenCalledTimes(4);
    expect(s.$guesses.get()).toEqual(['鱼']);
  });

  it('asks for completions after a pause in typing, only for the last text; closing drops them', async () => {
    vi.useFakeTimers();
    get.mockResolvedValue({ sug_list: [{ content: '猫咪' }, { content: '猫粮' }] });
    s.suggest('猫');
    s.suggest('猫咪');
    await vi.advanceTimersByTimeAsync(200);
    expect(paths()).toEqual(['/aweme/v1/web/search/sug/']);
    expect(get).toHaveBeenCalledWith(
      '/aweme/v1/web/search/sug/',
      { keyword: '猫咪' },
      expect.objectContaining({ quiet: true }),
    );
    expect(s.$suggestions.get()).toEqual(['猫咪', '猫粮']);
    s.suggest('猫粮');
    s.stopSuggesting();
    await vi.advanceTimersByTimeAsync(200);
    expect(get).toHaveBeenCalledTimes(1);
    s.suggest('');
    expect(s.$suggestions.get()).toEqual([]);
    s.suggest('狗');
    await vi.advanceTimersByTimeAsync(200);
    expect(s.$suggestions.get()).toEqual(['猫咪', '猫粮']);
    s.closeSuggestions();
    expect(s.$suggestions.get()).toEqual([]);
  });
});
