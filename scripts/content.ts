/**
 * `npm run content:export [-- <dir>]` writes the editors' live content to files of src/content's layout (default
 * src/content itself); `npm run content:import [-- <dir>]` loads such files into the database in bulk: every entry is
 * checked first, then each that differs becomes a new version (audited, its actor the shell) and is published to every
 * app server. Works beside a running server or alone, as `npm run staff` does.
 */
import path from 'node:path';
import { useDatabaseUrl } from '../src/server/config.ts';
import { attachDatabase } from '../src/server/db/attach.ts';
import { closeDb } from '../src/server/db/client.ts';
import { contentDir, readContentFiles, writeContentFiles } from '../src/server/content/files.ts';
import { exportEntries, importEntries } from '../src/server/content/store.ts';

const [command, dirArg] = process.argv.slice(2);
if (command !== 'import' && command !== 'export') {
  process.stderr.write('usage: node scripts/content.ts import|export [dir]\n');
  process.exit(2);
}
const dir = dirArg ? path.resolve(dirArg) : contentDir();

const database = await attachDatabase();
useDatabaseUrl(database.url);
let code = 0;
try {
  if (command === 'export') {
    const n = await writeContentFiles(await exportEntries(), dir);
    process.stdout.write(`content:export: ${n} entries → ${path.relative(process.cwd(), dir) || '.'}\n`);
  } else {
    const { written, unchanged } = await importEntries(await readContentFiles(dir));
    process.stdout.write(
      `content:import: ${written} entries written, ${unchanged} unchanged (from ${path.relative(process.cwd(), dir) || '.'})\n`,
    );
  }
} catch (error) {
  process.stderr.write(`content:${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await closeDb().catch(() => {});
  await database.stop().catch(() => {});
}
process.exit(code);
