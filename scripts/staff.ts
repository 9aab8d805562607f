/**
 * `npm run staff -- grant <email> <role>` (and `revoke`, `list`): staff roles from the shell, for the first admin and
 * for recovery. Roles are editor, moderator and admin. Each change is one row of the audit log, its actor the shell.
 * Works beside a running server (its embedded database) or alone (DATABASE_URL, or the embedded one under DATA_DIR).
 */
import { STAFF_ROLES, type StaffRole } from '../src/shared/staff.ts';
import { useDatabaseUrl } from '../src/server/config.ts';
import { attachDatabase } from '../src/server/db/attach.ts';
import { closeDb } from '../src/server/db/client.ts';
import { grantRole, listStaff, revokeRole, userByEmail } from '../src/server/staff/roles.ts';

const USAGE = `usage: npm run staff -- grant <email> <role> | revoke <email> <role> | list   (roles: ${STAFF_ROLES.join(', ')})`;

const [command, email, role] = process.argv.slice(2);
if (
  command !== 'list' &&
  (!['grant', 'revoke'].includes(command ?? '') || !email || !STAFF_ROLES.includes(role as StaffRole))
) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const database = await attachDatabase();
useDatabaseUrl(database.url);
let code = 0;
try {
  if (command === 'list') {
    for (const m of await listStaff())
      process.stdout.write(`${m.email ?? `#${m.id}`}\t${m.nickname}\t${m.roles.join(',')}\n`);
  } else {
    const user = await userByEmail(email!);
    const changed =
      command === 'grant'
        ? await grantRole(null, user.id, role as StaffRole)
        : await revokeRole(null, user.id, role as StaffRole);
    process.stdout.write(
      `${email}: ${role} ${command === 'grant' ? 'granted' : 'revoked'}${changed ? '' : ' (no change)'}\n`,
    );
  }
} catch (error) {
  process.stderr.write(`staff ${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await closeDb().catch(() => {});
  await database.stop().catch(() => {});
}
process.exit(code);
