/**
 * `npm run db:backup` and `npm run db:restore`, for both ways the portal keeps its data:
 *
 *   embedded default (no DATABASE_URL): db:backup copies DATA_DIR's database and media into backups/<UTC time>/;
 *     db:restore -- --from backups/<time> puts them back (the portal stopped).
 *   a PostgreSQL server (DATABASE_URL) with pgBackRest: db:backup -- --type full|diff|incr [--stanza-create];
 *     db:restore -- --to "<time>" restores the server's data directory to that time (the server stopped).
 *
 * Settings come from flags, else the environment: --stanza (PGBACKREST_STANZA, default shanying), --pg-data (PGDATA),
 * --config (PGBACKREST_CONFIG, default /etc/pgbackrest/pgbackrest.conf), --data-dir (DATA_DIR, default ./data),
 * --backups-dir (BACKUP_DIR, default ./backups).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupEmbedded, pruneBackups, restoreEmbedded } from './embedded.mjs';
import { backup, ownerOf, postgresBin, restoreToTime, SERVER_SETTINGS, stanzaCreate } from './pgbackrest.mjs';

const USAGE = `usage:
  npm run db:backup [-- --keep N]                     embedded database + media into backups/<UTC time>/ (N newest kept)
  npm run db:backup -- --type full|diff|incr [--stanza-create]    pgBackRest backup of a PostgreSQL server
  npm run db:restore -- --from backups/<time>         embedded: put a db:backup back (the portal stopped)
  npm run db:restore -- --to "2026-11-30 04:15:00+00" [--start]  server: point-in-time restore (the server stopped)
options: --stanza, --pg-data, --config (pgBackRest); --data-dir, --backups-dir (embedded)`;

class UsageError extends Error {}

function options(argv) {
  try {
    return parseArgs({
      args: argv,
      options: {
        type: { type: 'string' },
        keep: { type: 'string' },
        'stanza-create': { type: 'boolean' },
        to: { type: 'string' },
        from: { type: 'string' },
        start: { type: 'boolean' },
        stanza: { type: 'string' },
        'pg-data': { type: 'string' },
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        'backups-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError(error.message);
  }
}

/** pgBackRest's settings: each flag, else its environment variable, else its default. */
function serverSettings(values) {
  const pick = (key) => {
    const { env, flag, fallback } = SERVER_SETTINGS[key];
    return values[flag.slice(2)] || process.env[env] || fallback;
  };
  return { stanza: pick('stanza'), pgData: pick('pgData') && path.resolve(pick('pgData')), config: pick('config') };
}

const dataDir = (values) => path.resolve(values['data-dir'] || process.env.DATA_DIR || './data');
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function runBackup(values) {
  if (values.to || values.from || values.start) throw new UsageError('--to, --from and --start belong to db:restore');
  if (values.keep !== undefined && (values.type !== undefined || values['stanza-create']))
    throw new UsageError('--keep is for the embedded backups: pgBackRest keeps what repo1-retention-full says');
  const server = values.type !== undefined || values['stanza-create'];
  if (!server) {
    if (process.env.DATABASE_URL)
      throw new UsageError(
        'DATABASE_URL is set: a server is backed up with pgBackRest (db:backup -- --type full|incr; see deploy/backups.md)',
      );
    const keep = values.keep === undefined ? undefined : Number(values.keep);
    if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1))
      throw new UsageError(`--keep needs a whole number of backups of 1 or more, not "${values.keep}"`);
    const backupsDir = path.resolve(values['backups-dir'] || process.env.BACKUP_DIR || './backups');
    const { dir, manifest } = await backupEmbedded({ dataDir: dataDir(values), backupsDir });
    console.log(
      `backup ${dir}: ${manifest.method} copy of the database (${manifest.pg.files} files, ${mb(manifest.pg.bytes)}) and ` +
        `${manifest.media.files} media files (${mb(manifest.media.bytes)}) in ${manifest.seconds.toFixed(1)} s`,
    );
    if (keep !== undefined) for (const gone of await pruneBackups(backupsDir, keep)) console.log(`deleted ${gone}`);
    return;
  }
  const settings = serverSettings(values);
  if (values['stanza-create']) process.stdout.write(stanzaCreate(settings));
  if (values.type !== undefined) {
    const started = performance.now();
    process.stdout.write(backup(settings, values.type));
    console.log(
      `pgBackRest ${values.type} backup of stanza ${settings.stanza} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}

async function runRestore(values) {
  if (values.type !== undefined || values['stanza-create'])
    throw new UsageError('--type and --stanza-create belong to db:backup');
  if (Boolean(values.to) === Boolean(values.from))
    throw new UsageError(
      'give one of --to "<time>" (a server, pgBackRest) or --from <backup dir> (the embedded default)',
    );
  if (values.from) {
    const { manifest, aside, seconds } = await restoreEmbedded({ from: values.from, dataDir: dataDir(values) });
    console.log(`restored the backup of ${manifest.createdAt} into ${dataDir(values)} in ${seconds.toFixed(1)} s`);
    for (const dir of aside) console.log(`the data it replaced is kept in ${dir}: delete it once the site looks right`);
    console.log('start the portal (npm start): the database replays the WAL the backup holds and opens');
    return;
  }
  const settings = serverSettings(values);
  const seconds = restoreToTime(settings, values.to);
  console.log(`pgBackRest restored ${settings.pgData} (stanza ${settings.stanza}) in ${seconds.toFixed(1)} s`);
  if (values.start) {
    // Beside the data directory (its owner may write there), not in it: the next restore would delete it.
    const log = path.join(
      path.dirname(settings.pgData),
      `restore-${new Date().toISOString().replaceAll(':', '-')}.log`,
    );
    const result = spawnSync(
      path.join(postgresBin(), 'pg_ctl'),
      ['start', '-w', '-t', '600', '-D', settings.pgData, '-l', log],
      {
        encoding: 'utf8',
        ...(ownerOf(settings.pgData) ?? {}),
      },
    );
    if (result.status !== 0) throw new Error(`pg_ctl start failed (log ${log}):\n${result.stdout}${result.stderr}`);
    console.log(`PostgreSQL started (log ${log}): it replays the archived WAL up to ${values.to}, then promotes`);
  } else {
    console.log(
      `now start PostgreSQL on ${settings.pgData} (systemctl start postgresql, or pg_ctl -D ${settings.pgData} start): ` +
        `it replays the archived WAL up to ${values.to}, then promotes and takes writes; take a full backup afterwards`,
    );
  }
}

const [command, ...argv] = process.argv.slice(2);
try {
  const values = options(argv);
  if (values.help) {
    console.log(USAGE);
  } else if (command === 'backup') {
    await runBackup(values);
  } else if (command === 'restore') {
    await runRestore(values);
  } else {
    throw new UsageError(`unknown command "${command ?? ''}": backup or restore`);
  }
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
