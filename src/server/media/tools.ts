/**
 * The one place that finds ffmpeg and ffprobe: on PATH first (Debian's packages), else the binaries shipped inside
 * the optional npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe (no download at install time).
 */
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { config } from '../config.ts';

export type Tool = 'ffmpeg' | 'ffprobe';

const PACKAGES: Record<Tool, string> = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' };
const found = new Map<Tool, string>();

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of config().PATH) {
    const file = path.join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}

function fromPackage(tool: Tool): string | undefined {
  try {
    const file = (createRequire(import.meta.url)(PACKAGES[tool]) as { path: string }).path;
    // npm may have skipped the package's postinstall (chmod u+x) when install scripts are not allowed.
    if (!executable(file)) chmodSync(file, 0o755);
    return executable(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The absolute path of ffmpeg or ffprobe; throws with how to get one when neither source has it. */
export function toolPath(tool: Tool): string {
  const cached = found.get(tool);
  if (cached) return cached;
  const file = onPath(tool) ?? fromPackage(tool);
  if (!file) throw new Error(`${tool} not found: install it (apt-get install ffmpeg) or the npm package ${PACKAGES[tool]}`);
  found.set(tool, file);
  return file;
}
