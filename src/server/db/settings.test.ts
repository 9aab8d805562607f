/** databaseSettings: the primary, its direct line, the replicas, and when statements are prepared. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { databaseSettings, directUrl } from './settings.ts';

const PRIMARY = 'postgres://app:secret@db:5432/shanying';
const POOLER = 'postgres://app:secret@pgbouncer:6432/shanying';
const settings = (env: Record<string, string>) => databaseSettings(loadConfig(env));

describe('databaseSettings', () => {
  it('defaults to one server, prepared statements on, no replicas', () => {
    expect(settings({ DATABASE_URL: PRIMARY })).toEqual({
      url: PRIMARY,
      directUrl: PRIMARY,
      replicaUrls: [],
      prepare: true,
      maxLagMs: 5_000,
      checkMs: 1_000,
    });
  });

  it('reads a comma-separated replica list, spaces and empty items aside', () => {
    const s = settings({
      DATABASE_URL: PRIMARY,
      DATABASE_REPLICA_URLS: ' postgres://r1/shanying, postgresql://r2:5433/shanying ,',
    });
    expect(s.replicaUrls).toEqual(['postgres://r1/shanying', 'postgresql://r2:5433/shanying']);
  });

  it('turns preparing off when a separate direct line says DATABASE_URL is a pooler, unless told otherwise', () => {
    expect(settings({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: PRIMARY }).prepare).toBe(false);
    expect(settings({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: PRIMARY, DATABASE_PREPARE: 'on' }).prepare).toBe(true);
    expect(settings({ DATABASE_URL: PRIMARY, DATABASE_PREPARE: 'off' }).prepare).toBe(false);
    expect(settings({ DATABASE_URL: PRIMARY, DATABASE_DIRECT_URL: PRIMARY }).prepare).toBe(true);
  });

  it('takes the direct URL for session features, else DATABASE_URL', () => {
    expect(directUrl(loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: PRIMARY }))).toBe(PRIMARY);
    expect(directUrl(loadConfig({ DATABASE_URL: PRIMARY }))).toBe(PRIMARY);
    expect(directUrl(loadConfig({}))).toBeUndefined();
  });

  it('stops on a malformed setting, naming it without repeating its value', () => {
    expect(() => settings({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_URLS: 'db2:5432' })).toThrow(
      /DATABASE_REPLICA_URLS/,
    );
    expect(() => settings({ DATABASE_URL: PRIMARY, DATABASE_PREPARE: 'maybe' })).toThrow(/DATABASE_PREPARE/);
    expect(() => settings({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_MAX_LAG_MS: 'soon' })).toThrow(
      /DATABASE_REPLICA_MAX_LAG_MS/,
    );
    expect(() => settings({ DATABASE_URL: 'mysql://app:secret@db/x' })).toThrow(/DATABASE_URL/);
    expect(() => settings({ DATABASE_URL: 'mysql://app:secret@db/x' })).not.toThrow(/secret/);
  });
});
