/** Where this process's database connections go: the primary (maybe through a pooler), a direct line to it, read replicas. */
import { z } from 'zod';

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL');
const ms = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const schema = z.object({
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(postgresUrl))
    .optional(),
  DATABASE_PREPARE: z.enum(['on', 'off', 'auto']).default('auto'),
  DATABASE_REPLICA_MAX_LAG_MS: ms(5_000),
  DATABASE_REPLICA_CHECK_MS: ms(1_000),
});

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
 * The database settings from `env`; a malformed one names the variable and stops the start.
 * DATABASE_PREPARE=auto (the default) prepares unless DATABASE_DIRECT_URL differs from DATABASE_URL: a separate direct
 * line says DATABASE_URL goes through a pooler, and PgBouncer in transaction mode (before 1.21) hands the next
 * statement to another server connection, which has never heard of a statement prepared on the first.
 */
export function databaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const parsed = schema.safeParse(Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[k] || undefined])));
  if (!parsed.success) {
    // The value is not repeated: it may hold a password.
    const issues = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new Error(`database settings: ${[...new Set(issues)].join('; ')}`);
  }
  const v = parsed.data;
  const url = v.DATABASE_URL;
  const directUrl = v.DATABASE_DIRECT_URL ?? url;
  const pooled = directUrl !== url;
  return {
    url,
    directUrl,
    replicaUrls: v.DATABASE_REPLICA_URLS ?? [],
    prepare: v.DATABASE_PREPARE === 'auto' ? !pooled : v.DATABASE_PREPARE === 'on',
    maxLagMs: v.DATABASE_REPLICA_MAX_LAG_MS,
    checkMs: v.DATABASE_REPLICA_CHECK_MS,
  };
}

/** The URL for session features (LISTEN, advisory locks): DATABASE_DIRECT_URL, else DATABASE_URL. */
export function directUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.DATABASE_DIRECT_URL || env.DATABASE_URL || undefined;
}
