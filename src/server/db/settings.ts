/** Where this process's database connections go: the primary (maybe through a pooler), a direct line to it, read replicas. */
import { config, type Config } from '../config.ts';

export interface DatabaseSettings {
  /** The primary, for every write and every read that must see them; possibly a transaction pooler (PgBouncer). */
  url: string | undefined;
  /**
   * A session-mode connection to the primary, for what a transaction pooler cannot carry across statements: LISTEN,
   * session advisory locks (migrations, the seed). DATABASE_URL when unset.
   */
  directUrl: string | undefined;
  /** Streaming replicas for reads that tolerate a little lag. */
  replicaUrls: string[];
  /** Whether repeated query texts become named prepared statements (client.ts). */
  prepare: boolean;
  /** A replica further behind the primary than this serves no reads until it catches up. */
  maxLagMs: number;
  /** How often each replica's health and lag are measured. */
  checkMs: number;
}

/**
 * The database settings of a configuration (config.ts validates them).
 * DATABASE_PREPARE=auto (the default) prepares unless DATABASE_DIRECT_URL differs from DATABASE_URL: a separate direct
 * line says DATABASE_URL goes through a pooler, and PgBouncer in transaction mode (before 1.21) hands the next
 * statement to another server connection, which has never heard of a statement prepared on the first.
 */
export function databaseSettings(settings: Config = config()): DatabaseSettings {
  const url = settings.DATABASE_URL;
  const directUrl = settings.DATABASE_DIRECT_URL;
  const pooled = directUrl !== url;
  return {
    url,
    directUrl,
    replicaUrls: settings.DATABASE_REPLICA_URLS,
    prepare: settings.DATABASE_PREPARE === 'auto' ? !pooled : settings.DATABASE_PREPARE === 'on',
    maxLagMs: settings.DATABASE_REPLICA_MAX_LAG_MS,
    checkMs: settings.DATABASE_REPLICA_CHECK_MS,
  };
}

/** The URL for session features (LISTEN, advisory locks): DATABASE_DIRECT_URL, else DATABASE_URL. */
export function directUrl(settings: Config = config()): string | undefined {
  return settings.DATABASE_DIRECT_URL;
}
