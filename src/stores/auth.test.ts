import { afterEach, describe, expect, it, vi } from 'vitest';
import { $auth, $codeCountdown, $loginOpen, closeLogin, openLogin, setLoggedIn, startCodeCountdown } from './auth.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('$auth', () => {
  it('bumps routerKey only when the login state changes', () => {
    const start = $auth.get().routerKey;
    setLoggedIn(true);
    expect($auth.get()).toEqual({ isLogin: true, routerKey: start + 1 });
    setLoggedIn(true);
    expect($auth.get().routerKey).toBe(start + 1);
    setLoggedIn(false);
    expect($auth.get()).toEqual({ isLogin: false, routerKey: start + 2 });
  });

  it('opens and closes the login dialog from anywhere', () => {
    openLogin();
    expect($loginOpen.get()).toBe(true);
    closeLogin();
    expect($loginOpen.get()).toBe(false);
  });
});

describe('the code countdown', () => {
  it('counts 60 seconds down one per second and stops at 0', () => {
    vi.useFakeTimers();
    startCodeCountdown();
    expect($codeCountdown.get()).toBe(60);
    vi.advanceTimersByTime(1000);
    expect($codeCountdown.get()).toBe(59);
    vi.advanceTimersByTime(58_000);
    expect($codeCountdown.get()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect($codeCountdown.get()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect($codeCountdown.get()).toBe(0);
  });

  it('restarts from a server-given wait', () => {
    vi.useFakeTimers();
    startCodeCountdown(60);
    vi.advanceTimersByTime(10_000);
    startCodeCountdown(42.2);
    expect($codeCountdown.get()).toBe(43);
    vi.advanceTimersByTime(43_000);
    expect($codeCountdown.get()).toBe(0);
    startCodeCountdown(0);
    expect($codeCountdown.get()).toBe(0);
  });
});
