import { atom, map } from 'nanostores';
import { afterEach, describe, expect, it } from 'vitest';
import { installStorages, MemoryStorage } from '../../tests/unit/memory-storage.ts';
import { browserStorage, persist, pickPaths, withId } from './persist.ts';

afterEach(() => {
  delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
  delete (globalThis as { localStorage?: Storage }).localStorage;
});

describe('persist', () => {
  it('reads at start and writes after each change, in sessionStorage under the store id by default', () => {
    const { session } = installStorages();
    session.setItem('prefs', JSON.stringify({ volume: 3 }));
    const $prefs = withId('prefs', map({ volume: 1, muted: false }));
    persist($prefs);
    // Saved fields win; fields the saved state lacks keep their defaults.
    expect($prefs.get()).toEqual({ volume: 3, muted: false });
    $prefs.setKey('muted', true);
    expect(JSON.parse(session.getItem('prefs')!)).toEqual({ volume: 3, muted: true });
  });

  it('takes a given key and storage', () => {
    const local = new MemoryStorage();
    const $count = atom(0);
    persist($count, { key: 'count', storage: local });
    $count.set(5);
    expect(local.getItem('count')).toBe('5');
    const $again = atom(0);
    persist($again, { key: 'count', storage: local });
    expect($again.get()).toBe(5);
  });

  it('keeps only the chosen paths, dotted paths included', () => {
    const storage = new MemoryStorage();
    const $s = map({ token: 't1', userInfo: { nickname: 'a', secret: 'x' }, loading: true });
    persist($s, { key: 's', storage, paths: ['token', 'userInfo.nickname'] });
    $s.setKey('loading', false);
    expect(JSON.parse(storage.getItem('s')!)).toEqual({ token: 't1', userInfo: { nickname: 'a' } });

    storage.setItem('s', JSON.stringify({ token: 't2', userInfo: { nickname: 'b', secret: 'evil' }, loading: 'evil' }));
    const $t = map({ token: '', userInfo: { nickname: '', secret: 'kept' }, loading: false });
    persist($t, { key: 's', storage, paths: ['token', 'userInfo.nickname'] });
    expect($t.get()).toEqual({ token: 't2', userInfo: { nickname: 'b', secret: 'kept' }, loading: false });
  });

  it('ignores bad JSON and overwrites it on the next change', () => {
    const storage = new MemoryStorage();
    storage.setItem('k', '{not json');
    const $s = map({ a: 1 });
    expect(() => persist($s, { key: 'k', storage })).not.toThrow();
    expect($s.get()).toEqual({ a: 1 });
    $s.setKey('a', 2);
    expect(storage.getItem('k')).toBe('{"a":2}');
  });

  it('works without any storage, and survives a storage that throws', () => {
    const $s = atom(1);
    expect(browserStorage('session')).toBeNull();
    expect(() => persist(withId('nostorage', $s))).not.toThrow();
    $s.set(2);
    expect($s.get()).toBe(2);

    const full = new MemoryStorage();
    full.failWrites = true;
    persist($s, { key: 'full', storage: full });
    expect(() => $s.set(3)).not.toThrow();
    expect($s.get()).toBe(3);

    const blocked = {
      getItem: () => {
        throw new DOMException('no', 'SecurityError');
      },
    } as unknown as Storage;
    expect(() => persist(atom(0), { key: 'b', storage: blocked })).not.toThrow();
  });

  it('needs a key or an id, and stops writing once unsubscribed', () => {
    expect(() => persist(atom(0), { storage: new MemoryStorage() })).toThrow(TypeError);
    const storage = new MemoryStorage();
    const $s = atom('a');
    const stop = persist($s, { key: 'x', storage });
    $s.set('b');
    stop();
    $s.set('c');
    expect(storage.getItem('x')).toBe('"b"');
  });
});

describe('pickPaths', () => {
  it('copies only present paths', () => {
    expect(pickPaths({ a: { b: 1, c: 2 }, d: 3 }, ['a.b', 'x.y', 'd'])).toEqual({ a: { b: 1 }, d: 3 });
  });
});
