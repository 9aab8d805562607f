// Types of pgbouncer.mjs for the TypeScript that imports it.
export function overrideIni(ini: string, overrides: Record<string, Record<string, string>>): string;
