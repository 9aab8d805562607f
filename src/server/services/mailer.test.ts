import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../i18n/t.ts';
import { lastOutboxCode, outboxDir, sendLoginCode } from './mailer.ts';

let dataDir: string;
const saved = { DATA_DIR: process.env.DATA_DIR, SMTP_URL: process.env.SMTP_URL };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shanying-mailer-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.SMTP_URL;
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await rm(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Captures the mailer's log lines (stderr, as every log line but the request log). */
function captureLog(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

/** A minimal SMTP server (no TLS, no auth) that keeps every message it receives. */
function fakeSmtp(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, messages });
    });
  });
}

describe('mailer without SMTP_URL (the dev outbox)', () => {
  it('writes the code to DATA_DIR/outbox with mode 0600 and logs a line without the code', async () => {
    const lines = captureLog();
    await sendLoginCode('reader@example.com', '042917', 7);
    vi.restoreAllMocks();
    expect(outboxDir()).toBe(path.join(dataDir, 'outbox'));
    const files = (await readdir(outboxDir())).filter((f) => f.endsWith('-reader@example.com.txt'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{13}-reader@example\.com\.txt$/);
    const file = path.join(outboxDir(), files[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('To: reader@example.com');
    expect(text).toContain(`Subject: ${t('mail.loginCode.subject')}`);
    expect(text).toContain(t('mail.loginCode.body', { code: '042917', minutes: 7 }).split('\n')[0]);
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!) as { msg: string; file: string };
    expect(logged.msg).toContain('outbox');
    expect(logged.file).toBe(file);
    expect(lines.join('')).not.toContain('042917');
  });

  it('lastOutboxCode reads the newest code for exactly that email (leading zeros kept)', async () => {
    captureLog();
    await sendLoginCode('twice@example.com', '111111', 10);
    await sendLoginCode('twice@example.com', '000222', 10);
    await sendLoginCode('twice+x@example.com', '333333', 10);
    vi.restoreAllMocks();
    expect(await lastOutboxCode('twice@example.com')).toBe('000222');
    expect(await lastOutboxCode(' Twice@Example.com ')).toBe('000222');
    expect(await lastOutboxCode('twice+x@example.com')).toBe('333333');
    expect(await lastOutboxCode('nobody@example.com')).toBeNull();
  });

  it('does not confuse two emails that share a file-safe name', async () => {
    captureLog();
    await sendLoginCode('a+b@example.com', '444444', 10);
    vi.restoreAllMocks();
    // `a+b` and `a_b` share the file name suffix; the To: line tells them apart.
    expect(await lastOutboxCode('a_b@example.com')).toBeNull();
    expect(await lastOutboxCode('a+b@example.com')).toBe('444444');
  });

  it('ignores stray files in the outbox', async () => {
    await writeFile(path.join(outboxDir(), 'notes-stray@example.com.txt'), 'To: stray@example.com\n\n999999');
    expect(await lastOutboxCode('stray@example.com')).toBeNull();
  });

  it('answers null when there is no outbox yet', async () => {
    const before = process.env.DATA_DIR;
    process.env.DATA_DIR = path.join(dataDir, 'nothing-here');
    try {
      expect(await lastOutboxCode('reader@example.com')).toBeNull();
    } finally {
      process.env.DATA_DIR = before;
    }
  });
});

describe('mailer with SMTP_URL', () => {
  it('sends the code over SMTP with the subject, and writes no outbox file', async () => {
    const smtp = await fakeSmtp();
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    try {
      const lines = captureLog();
      const before = await readdir(outboxDir());
      await sendLoginCode('smtp@example.com', '765432', 10);
      vi.restoreAllMocks();
      expect(smtp.messages).toHaveLength(1);
      const raw = smtp.messages[0]!;
      expect(raw).toMatch(/^To: smtp@example\.com/m);
      // The subject travels as an RFC 2047 encoded word.
      const subject = /^Subject: =\?UTF-8\?B\?([^?]+)\?=/m.exec(raw);
      expect(subject && Buffer.from(subject[1]!, 'base64').toString('utf8')).toBe(t('mail.loginCode.subject'));
      const [head, ...rest] = raw.split('\r\n\r\n');
      const encoded = rest.join('\r\n\r\n');
      const text = /Content-Transfer-Encoding: base64/i.test(head!)
        ? Buffer.from(encoded, 'base64').toString('utf8')
        : encoded;
      expect(text).toContain(t('mail.loginCode.body', { code: '765432', minutes: 10 }).split('\n')[0]);
      expect(await readdir(outboxDir())).toEqual(before);
      expect(lines.join('')).toContain('smtp');
      expect(lines.join('')).not.toContain('765432');
    } finally {
      delete process.env.SMTP_URL;
      await new Promise((resolve) => smtp.server.close(resolve));
    }
  });
});
