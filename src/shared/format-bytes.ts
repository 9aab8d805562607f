/** A byte count as people read it: 980B, 12.5KB, 3.4MB, 1.2GB (powers of 1024, one decimal at most). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 10) / 10}${units[unit]}`;
}
