// One import graph of src/ checks the browser/server boundary and that no module takes part in a cycle.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');
const SOURCE = /\.(ts|tsx|mts|js|mjs|astro)$/;

/** Module specifiers of static imports, re-exports (type-only included) and dynamic `import('…')`. */
export function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    // Specifier lists hold no `;`, `=` or parentheses, which keeps a match from running into later code.
    /^\s*(?:import|export)\s[^;=()]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The file a relative specifier names (with or without extension, or a folder's index), if any. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec.split('?')[0]!);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')];
  for (const ext of ['.ts', '.tsx', '.js', '.mjs', '.astro'])
    candidates.push(base + ext, path.join(base, `index${ext}`));
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** file → the src files it imports (tests excluded: they may reach across the boundary). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walk(SRC)) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolve(file, spec))
      .filter((target): target is string => target !== undefined && target.startsWith(SRC + path.sep));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const under = (file: string, dirs: string[]) => dirs.some((dir) => rel(file).startsWith(`src/${dir}/`));

/** Edges that cross a forbidden boundary, as `from → to`. */
export function boundaryViolations(graph: Map<string, string[]>): string[] {
  const rules = [
    { from: ['islands', 'stores', 'client', 'shared'], to: ['server'], why: 'browser code must not import the server' },
    { from: ['server'], to: ['components', 'islands'], why: 'the server must not import UI code' },
  ];
  const found: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets)
      for (const rule of rules)
        if (under(file, rule.from) && under(target, rule.to)) found.push(`${rel(file)} → ${rel(target)} (${rule.why})`);
  return found;
}

/** Every strongly connected group of two or more modules (or a module importing itself), as sorted paths. */
export function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || targets.includes(frame.node)) groups.push(group.map(rel).sort());
      }
    }
  }
  return groups;
}

describe('import graph of src', () => {
  const graph = importGraph();

  it('finds the imports it should (a sanity check of the parser)', () => {
    expect(
      specifiers(
        "import a from './a.ts';\nexport { b } from \"./b.ts\";\nimport type {\n  C,\n} from './c.ts';\nconst d = await import('./d.ts');\nimport './e.css';",
      ),
    ).toEqual(['./a.ts', './b.ts', './c.ts', './e.css', './d.ts']);
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
  });

  it('keeps browser code off the server and the server off UI code', () => {
    expect(boundaryViolations(graph)).toEqual([]);
  });

  it('has no import cycles (type-only imports included)', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('would notice a violation and a cycle', () => {
    const a = path.join(SRC, 'islands/A.tsx');
    const b = path.join(SRC, 'stores/b.ts');
    const s = path.join(SRC, 'server/s.ts');
    const fake = new Map([
      [a, [b, s]],
      [b, [a]],
      [s, []],
    ]);
    expect(boundaryViolations(fake)).toHaveLength(1);
    expect(cycles(fake)).toEqual([['src/islands/A.tsx', 'src/stores/b.ts']]);
  });
});
