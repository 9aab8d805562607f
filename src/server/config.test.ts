import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { displayTimeZone } from '../shared/wall-clock.ts';
import { ConfigError, config, defaultOf, loadConfig, SETTING_NAMES, SETTINGS } from './config.ts';

describe('loadConfig', () => {
  it('gives every setting its default when the environment is empty', () => {
    const settings = loadConfig({});
    expect(settings).toMatchObject({
      HOST: '0.0.0.0',
      PORT: 4321,
      DATA_DIR: path.resolve('data'),
      UPLOADS_DIR: path.resolve('data', 'uploads'),
      TRUST_PROXY: false,
      PAGE_CACHE: true,
      API_ANON_CACHE: true,
      UPLOAD_MAX_BYTES: 500 * 1024 * 1024,
      MEDIA_STORE: { kind: 'local' },
      MEDIA_BASE_URL: '',
      DATABASE_URL: undefined,
      DATABASE_DIRECT_URL: undefined,
    });
    expect(settings.CORS_ORIGINS.size).toBe(0);
  });

  it('takes an empty or blank value as unset, for every setting', () => {
    const empty = Object.fromEntries(SETTING_NAMES.map((name) => [name, '']));
    const blank = Object.fromEntries(SETTING_NAMES.map((name) => [name, '  ']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
    expect(loadConfig(blank)).toEqual(loadConfig({}));
    // DATA_DIR= is ./data wherever it is used (the cluster, media, uploads, the outbox), not the working directory.
    expect(loadConfig({ DATA_DIR: '' }).DATA_DIR).toBe(path.resolve('data'));
  });

  it('resolves places and derives the defaults that follow others', () => {
    const settings = loadConfig({ DATA_DIR: 'var/sy', DATABASE_URL: 'postgres://db/sy' });
    expect(settings.DATA_DIR).toBe(path.resolve('var/sy'));
    expect(settings.UPLOADS_DIR).toBe(path.resolve('var/sy/uploads'));
    expect(settings.DATABASE_DIRECT_URL).toBe('postgres://db/sy');
    expect(loadConfig({ UPLOADS_DIR: '/mnt/shared' }).UPLOADS_DIR).toBe('/mnt/shared');
  });

  it.each([
    ['1', true],
    ['true', true],
    ['YES', true],
    [' on ', true],
    ['0', false],
    ['false', false],
    ['no', false],
    ['OFF', false],
  ])('reads the switch %j as %s', (value, on) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(on);
    expect(loadConfig({ PAGE_CACHE: value }).PAGE_CACHE).toBe(on);
  });

  it('reads lists: origins as browsers send them, replicas', () => {
    const settings = loadConfig({
      CORS_ORIGINS: ' https://app.example, https://admin.example/ ,',
      DATABASE_REPLICA_URLS: 'postgres://r1/sy,postgresql://r2/sy',
    });
    expect([...settings.CORS_ORIGINS]).toEqual(['https://app.example', 'https://admin.example']);
    expect(settings.DATABASE_REPLICA_URLS).toEqual(['postgres://r1/sy', 'postgresql://r2/sy']);
  });

  it.each([
    ['PORT', 'http'],
    ['PORT', '70000'],
    ['UPLOAD_MAX_BYTES', '500MB'],
    ['UPLOAD_IDLE_MS', '0'],
    ['PAGE_REFRESH_MIN_MS', '-1'],
    ['RATE_LIMIT_IP_FACTOR', '0.5'],
    ['TRUST_PROXY', '10.0.0.1'],
    ['PAGE_CACHE', 'disabled'],
    ['PUBLIC_URL', 'shanying.example.org'],
    ['SMTP_URL', 'mail.example.org:587'],
    ['CORS_ORIGINS', 'https://app.example/path'],
    ['DATABASE_URL', 'mysql://app:secret@db/x'],
    ['MEDIA_STORE', 'gs://bucket'],
    ['SERVER_NAME', 'web 1'],
    ['PAYMENT_CHECKOUT_URL', 'pay.example.com/checkout'],
    ['RTMP_PORT', '1935x'],
    ['LIVE_MAX_KBPS', '50'],
    ['LIVE_RTMP_URL', 'http://live.example/live'],
    ['LIVE_INTERNAL_URL', 'http://10.0.0.2:4321/app'],
    ['LIVE_HLS', 'sometimes'],
  ])('stops on %s=%j, naming the variable and not its value', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variables).toEqual([name]);
    expect((error as ConfigError).message).toMatch(new RegExp(`^invalid setting: ${name}: expected `));
    expect((error as ConfigError).message).not.toContain(value.trim());
  });

  it("reads the site's time zone as Intl knows it, else Asia/Shanghai (TZ is the system's variable too)", () => {
    expect(loadConfig({}).TZ).toBe('Asia/Shanghai');
    expect(loadConfig({ TZ: 'Europe/Berlin' }).TZ).toBe('Europe/Berlin');
    for (const other of ['UTC0', ':/etc/localtime', 'Mars/Olympus'])
      expect(loadConfig({ TZ: other }).TZ).toBe('Asia/Shanghai');
  });

  it('reads the live settings, the addresses without a trailing slash', () => {
    const live = loadConfig({
      RTMP_PORT: '0',
      LIVE_MAX_KBPS: '8000',
      LIVE_RTMP_URL: 'rtmp://live.example:1936/live/',
      LIVE_INTERNAL_URL: 'http://10.0.0.2:4321/',
      LIVE_HLS: 'off',
    });
    expect(live).toMatchObject({
      RTMP_PORT: 0,
      LIVE_MAX_KBPS: 8000,
      LIVE_RTMP_URL: 'rtmp://live.example:1936/live',
      LIVE_INTERNAL_URL: 'http://10.0.0.2:4321',
      LIVE_HLS: false,
    });
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', WORKERS: 'maybe' })).toThrow(/PORT: .*; WORKERS: /);
  });
});

describe('every setting', () => {
  it.each(SETTING_NAMES)('%s says what it means', (name) => {
    expect(SETTINGS.shape[name].description?.length ?? 0).toBeGreaterThan(10);
  });

  it('has one default, which the modules that need it as a number take from here', () => {
    expect(defaultOf('UPLOAD_IDLE_MS')).toBe(24 * 60 * 60 * 1000);
    expect(defaultOf('PORT')).toBe(4321);
  });
});

describe('config() in tests', () => {
  const saved = { PAGE_CACHE: process.env.PAGE_CACHE, TZ: process.env.TZ };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    config();
  });

  it("hands the site's time zone to the code pages share with the browser", () => {
    process.env.TZ = 'America/New_York';
    config();
    expect(displayTimeZone()).toBe('America/New_York');
    delete process.env.TZ;
    config();
    expect(displayTimeZone()).toBe('Asia/Shanghai');
  });

  it('follows a variable a test sets, and keeps the same object while nothing changes', () => {
    delete process.env.PAGE_CACHE;
    const before = config();
    expect(config()).toBe(before);
    expect(before.PAGE_CACHE).toBe(true);
    process.env.PAGE_CACHE = 'off';
    expect(config().PAGE_CACHE).toBe(false);
  });
});
