/**
 * What the studio checks before the server does: a file's extension and size against the limits the server publishes
 * (it checks the content again), the title's length, and the @mention being typed at the caret.
 */
import type { MessageKey } from '../i18n/zh-CN.ts';
import { formatBytes } from '../shared/format-bytes.ts';
import type { StudioConfig, UploadKind } from '../shared/studio.ts';

/** A refusal to show, as a catalogue key and its placeholders. */
export interface Problem {
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** A file's extension in lower case, or '' when its name has none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Why a file may not be uploaded as `kind` (wrong extension, empty, over the cap), or null when it may. */
export function precheckFile(
  file: { name: string; size: number },
  kind: UploadKind,
  config: StudioConfig,
): Problem | null {
  const accepted = kind === 'video' ? config.videoExtensions : config.coverExtensions;
  if (!accepted.includes(extensionOf(file.name)))
    return { key: kind === 'video' ? 'error.uploadNotVideo' : 'error.coverNotImage' };
  if (file.size === 0) return { key: 'studio.upload.emptyFile' };
  const cap = kind === 'video' ? config.maxBytes : config.coverMaxBytes;
  if (file.size > cap) return { key: 'error.uploadTooLarge', vars: { max: formatBytes(cap) } };
  return null;
}

/** A title's length as the server counts it (code points). */
export function titleLength(title: string): number {
  return [...title].length;
}

/** Why a title would be refused (empty, too long), or null. */
export function titleProblem(title: string, max: number): Problem | null {
  if (title.trim() === '') return { key: 'error.titleEmpty' };
  if (titleLength(title.trim()) > max) return { key: 'error.titleTooLong', vars: { max } };
  return null;
}

/** The @mention being typed just before the caret: where its '@' is and what follows it (the server's pattern: no spaces, no '@', 20 at most). */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)@([^\s@]{0,20})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[1]!;
  return { start: caret - query.length - 1, query };
}

/** The text with the mention typed from `start` to `caret` replaced by `@nickname ` and where the caret goes after it. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  nickname: string,
): { text: string; caret: number } {
  const rest = text.slice(caret);
  const inserted = rest.startsWith(' ') ? `@${nickname}` : `@${nickname} `;
  return {
    text: text.slice(0, start) + inserted + rest,
    caret: start + inserted.length + (rest.startsWith(' ') ? 1 : 0),
  };
}

/** The text with `mark` ('#' or '@') inserted at the caret, after a space when the caret follows a word. */
export function insertMark(text: string, caret: number, mark: '#' | '@'): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const inserted = before === '' || /\s$/u.test(before) ? mark : ` ${mark}`;
  return { text: before + inserted + text.slice(caret), caret: caret + inserted.length };
}
