/**
 * `npm run graph`: the module-graph rules of src/, a gate of `npm test`. dependency-cruiser reads every import of the
 * TypeScript and JavaScript modules (static, dynamic, type-only, re-exports) and checks the rules of
 * .dependency-cruiser.cjs. Two kinds of edge it cannot read are added here and held to the same rules: the files an
 * `import.meta.glob` pulls in (expanded from its pattern) and the imports of .astro files (frontmatter and <script>).
 * On that whole graph this script also checks that no two folders import each other both ways. Exits 1 on any
 * violation, naming each.
 */
import { globSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);

/**
 * Folder pairs that still import each other both ways, each `a <-> b` with a before b. The list may only shrink: a
 * new pair fails the gate, and so does a pair listed here that is gone (take it off the list).
 */
const KNOWN_PAIRS = new Set([
  'src/client <-> src/islands',
  'src/i18n <-> src/shared',
  'src/server/content <-> src/server/db',
  'src/server/db <-> src/server/services',
  'src/server/services <-> src/server/staff',
]);

/** Module specifiers of an .astro file: static imports, re-exports, side-effect and dynamic imports. */
export function specifiers(code) {
  const found = [];
  const patterns = [
    // Specifier lists hold no `;`, `=` or parentheses, which keeps a match from running into later code.
    /^\s*(?:import|export)\s[^;=()]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]);
  return found;
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** The src file a relative specifier names from `from` (with or without extension, or a folder's index), if any. */
function resolveRelative(from, spec, known) {
  if (!spec.startsWith('.')) return undefined;
  const base = rel(path.resolve(path.dirname(from), spec.split('?')[0]));
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')];
  for (const ext of ['.ts', '.tsx', '.js', '.mjs', '.astro']) candidates.push(base + ext, `${base}/index${ext}`);
  return candidates.find((file) => known.has(file));
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [rel(full)];
  });
}

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const tsConfig = extractTSConfig('tsconfig.json');
const cruised = await cruise(['src'], { ...options, validate: true, outputType: 'json' }, {}, { tsConfig });
const result = typeof cruised.output === 'string' ? JSON.parse(cruised.output) : cruised.output;
const problems = result.summary.violations
  .filter((v) => v.rule.severity === 'error')
  .map(
    (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`,
  );

// The graph as dependency-cruiser read it, src files only (tests are left out by the configuration).
const graph = new Map();
for (const mod of result.modules)
  if (mod.source.startsWith('src/'))
    graph.set(
      mod.source,
      new Set(
        mod.dependencies.map((d) => d.resolved).filter((to) => to.startsWith('src/') && !/\.test\.tsx?$/.test(to)),
      ),
    );

const sources = walk(path.join(ROOT, 'src')).filter((file) => !/\.test\.tsx?$/.test(file));
const known = new Set(sources);
const added = [];

// import.meta.glob: every file its literal pattern matches, as an import of the file that globs.
const GLOB = /import\.meta\.glob\s*(?:<[^()]*>)?\(\s*(['"`])?([^'"`,)]*)\1?/g;
for (const file of sources.filter((f) => /\.(ts|tsx|mts|js|mjs|astro)$/.test(f))) {
  for (const m of readFileSync(file, 'utf8').matchAll(GLOB)) {
    if (!m[1] || m[1] === '`') {
      problems.push(`import.meta.glob in ${file} takes no plain string pattern, so its files cannot be followed`);
      continue;
    }
    for (const hit of globSync(m[2], { cwd: path.dirname(file) })) {
      const target = rel(path.resolve(path.dirname(file), hit));
      if (known.has(target)) added.push([file, target]);
    }
  }
}

// .astro files, which dependency-cruiser does not parse.
for (const file of sources.filter((f) => f.endsWith('.astro'))) {
  graph.set(file, graph.get(file) ?? new Set());
  for (const spec of specifiers(readFileSync(file, 'utf8'))) {
    const target = resolveRelative(file, spec, known);
    if (target) added.push([file, target]);
  }
}

for (const [from, to] of added) {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
  if (!graph.has(to)) graph.set(to, new Set());
}

// The added edges against the configuration's path rules.
const pathRules = options.ruleSet.forbidden.filter((rule) => rule.scope !== 'folder' && rule.to.path);
const matches = (pattern, value) => pattern === undefined || new RegExp(pattern).test(value);
const misses = (pattern, value) => pattern === undefined || !new RegExp(pattern).test(value);
for (const [from, to] of added)
  for (const rule of pathRules)
    if (
      matches(rule.from.path, from) &&
      misses(rule.from.pathNot, from) &&
      matches(rule.to.path, to) &&
      misses(rule.to.pathNot, to)
    )
      problems.push(`${rule.name}: ${from} → ${to} (${rule.comment})`);

/** Every strongly connected group of two or more modules (or a module importing itself), as sorted paths. */
export function cycles(edges) {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, targets: [...(edges.get(start) ?? [])], next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, targets: [...(edges.get(target) ?? [])], next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || frame.targets.includes(frame.node)) groups.push(group.sort());
      }
    }
  }
  return groups;
}

// Cycles that run through an edge dependency-cruiser could not see (the others it has reported already).
const addedKeys = new Set(added.map(([from, to]) => `${from}\n${to}`));
for (const group of cycles(graph)) {
  const members = new Set(group);
  const throughAdded = [...addedKeys].some((key) => key.split('\n').every((file) => members.has(file)));
  if (throughAdded) problems.push(`no-cycles: ${group.join(', ')} import each other round a loop`);
}

// Folder pairs importing each other both ways: an import from a file to another counts between the two sibling folders
// that hold them under their nearest common folder (src/server/api/routes/x.ts → src/server/http/y.ts is
// src/server/api → src/server/http); a file that sits directly in that common folder is no folder of a pair.
function siblingFolders(from, to) {
  const a = from.split('/');
  const b = to.split('/');
  let i = 0;
  while (a[i] === b[i]) i++;
  if (i >= a.length - 1 || i >= b.length - 1) return undefined;
  return [a.slice(0, i + 1).join('/'), b.slice(0, i + 1).join('/')];
}
const folderEdges = new Map();
for (const [from, targets] of graph)
  for (const to of targets) {
    const folders = siblingFolders(from, to);
    if (!folders) continue;
    const key = folders.join('\n');
    if (!folderEdges.has(key)) folderEdges.set(key, `${from} → ${to}`);
  }
const pairs = new Map();
for (const [key, example] of folderEdges) {
  const [a, b] = key.split('\n');
  const back = folderEdges.get(`${b}\n${a}`);
  if (back && a < b) pairs.set(`${a} <-> ${b}`, `${example}; ${back}`);
}
for (const [pair, examples] of pairs)
  if (!KNOWN_PAIRS.has(pair)) problems.push(`no-two-way-folders: ${pair} import each other (${examples})`);
for (const pair of KNOWN_PAIRS)
  if (!pairs.has(pair))
    problems.push(`no-two-way-folders: ${pair} no longer import each other: take it off KNOWN_PAIRS`);

const modules = graph.size;
const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
// A graph read wrong passes every rule: the reading itself is checked too.
if (modules < 300 || edges < 1500 || added.length < 100)
  problems.push(
    `the graph reads too little (${modules} modules, ${edges} imports, ${added.length} added): a parser broke`,
  );
const sample = specifiers(
  "import a from './a.ts';\nexport { b } from './b.ts';\nimport './c.css';\nawait import('./d.ts');",
);
if (sample.join() !== './a.ts,./b.ts,./c.css,./d.ts') problems.push(`.astro imports are read wrong: ${sample.join()}`);
for (const problem of problems) console.log(`✗ ${problem}`);
console.log(
  `${modules} modules, ${edges} imports (${added.length} from import.meta.glob and .astro files); ` +
    `${pairs.size} folder pairs both ways, all known: ${problems.length === 0 ? 'yes' : 'no'}; ` +
    `${problems.length} violation(s)`,
);
process.exit(problems.length > 0 ? 1 : 0);
