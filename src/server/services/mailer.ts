/** Login-code mail: SMTP when SMTP_URL is set, else a file in DATA_DIR/outbox (the developer's mailbox). */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { t } from '../../i18n/t.ts';
import { config } from '../config.ts';
import { logLine } from '../log.ts';

const SUBJECT = t('mail.loginCode.subject');

let transport: { url: string; transporter: Transporter } | undefined;

/** The outbox folder: DATA_DIR/outbox. */
export function outboxDir(): string {
  return path.join(config().DATA_DIR, 'outbox');
}

function body(code: string, minutes: number): string {
  return t('mail.loginCode.body', { code, minutes });
}

// File names keep only characters that are safe everywhere; the `To:` line inside stays exact.
function safeName(email: string): string {
  return email.toLowerCase().replace(/[^a-z0-9._@-]/g, '_');
}

async function smtp(url: string): Promise<Transporter> {
  if (transport?.url !== url) {
    // Loaded only when mail really goes out, so development never pays for it.
    const { default: nodemailer } = await import('nodemailer');
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

async function writeOutbox(email: string, code: string, minutes: number): Promise<string> {
  const dir = outboxDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const text = `To: ${email.toLowerCase()}\nSubject: ${SUBJECT}\nDate: ${new Date().toISOString()}\n\n${body(code, minutes)}`;
  // The name starts with a fixed-width timestamp so that names sort by age; `wx` never overwrites a sibling.
  for (let ms = Date.now(); ; ms++) {
    const file = path.join(dir, `${String(ms).padStart(13, '0')}-${safeName(email)}.txt`);
    try {
      await writeFile(file, text, { mode: 0o600, flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Sends a login code to `email`, saying it is valid for `minutes`. The log line never carries the code. */
export async function sendLoginCode(email: string, code: string, minutes: number): Promise<void> {
  const { SMTP_URL: url, MAIL_FROM: from } = config();
  if (url) {
    const transporter = await smtp(url);
    await transporter.sendMail({
      from,
      to: email,
      subject: SUBJECT,
      text: body(code, minutes),
    });
    logLine('info', 'mailer: login code sent', { via: 'smtp' });
    return;
  }
  const file = await writeOutbox(email, code, minutes);
  logLine('info', 'mailer: login code written to the outbox (SMTP_URL is not set)', { file });
}

/** The code in the newest outbox message to `email`, or null (end-to-end tests read their mail here). */
export async function lastOutboxCode(email: string): Promise<string | null> {
  const to = email.trim().toLowerCase();
  const suffix = `-${safeName(to)}.txt`;
  let names: string[];
  try {
    names = await readdir(outboxDir());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const mine = names
    .filter((n) => n.endsWith(suffix) && /^\d{13}-/.test(n))
    .sort()
    .reverse();
  for (const name of mine) {
    const text = await readFile(path.join(outboxDir(), name), 'utf8');
    const [head = '', ...rest] = text.split('\n\n');
    if (!head.split('\n').includes(`To: ${to}`)) continue;
    const code = /\b(\d{6})\b/.exec(rest.join('\n\n'));
    if (code) return code[1]!;
  }
  return null;
}
