// The project's layering (issue 12, item 1), checked on the import graph that dpdm builds from
// the sources (every static import and export-from, type-only ones included, and every dynamic
// import() with a literal specifier):
//   - no import cycle among runtime/, generator/, cli/ and bench/;
//   - runtime/ and generator/ never import cli/ or bench/; runtime/ imports generator/ only
//     through a dynamic import of generator/index.ts (on-demand rendering);
//   - bench/ never imports cli/; only the CLI entry (cli/main.ts, and cli/bin.ts and
//     cli/kernforge.mjs, which start it) imports cli/ files, and only the CLI entry and the
//     benches themselves import bench/ files;
// and the product is self-contained: no file names a shared folder beside the repository (the
// data lives in data/).
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseDependencyTree, type DependencyTree } from 'dpdm';

const root = new URL('..', import.meta.url).pathname;
const LAYERS = ['runtime', 'generator', 'cli', 'bench'];
const CLI_ENTRY = new Set(['cli/main.ts', 'cli/bin.ts', 'cli/kernforge.mjs']);

interface Edge {
  from: string;
  to: string;
  kind: string;
}

const graph: Promise<{ files: string[]; edges: Edge[]; unresolved: string[] }> = (async () => {
  const tree: DependencyTree = await parseDependencyTree(
    LAYERS.flatMap((d) => [`${d}/**/*.ts`, `${d}/**/*.mjs`]),
    { context: root, cwd: root, tsconfig: join(root, 'tsconfig.json'), transform: false, skipDynamicImports: false },
  );
  const inProject = (f: string) => LAYERS.includes(f.split('/')[0]!);
  const files = Object.keys(tree).filter(inProject).sort();
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const f of files) {
    for (const d of tree[f] ?? []) {
      if (d.id === null) {
        if (d.request.startsWith('.')) unresolved.push(`${f}: ${d.request}`);
        continue;
      }
      const to = relative(root, join(root, d.id)).replace(/\\/g, '/');
      if (inProject(to)) edges.push({ from: f, to, kind: d.kind });
    }
  }
  return { files, edges, unresolved };
})();

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(files: string[], edges: Edge[]): string[][] {
  const out = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) out.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (out.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** A shortest cycle through the first file of a strongly connected component, with each import's kind. */
function shortestCycle(scc: string[], edges: Edge[]): string {
  const inside = edges.filter((e) => scc.includes(e.from) && scc.includes(e.to));
  const start = scc[0]!;
  const prev = new Map<string, Edge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const e of inside.filter((x) => x.from === queue[i])) {
      if (e.to === start) {
        const path = [e];
        for (let at = e.from; at !== start; at = prev.get(at)!.from) path.unshift(prev.get(at)!);
        return [start, ...path.map((x) => `-(${x.kind})-> ${x.to}`)].join(' ');
      }
      if (!prev.has(e.to)) {
        prev.set(e.to, e);
        queue.push(e.to);
      }
    }
  }
  return start;
}

const show = (es: Edge[]): string[] => es.map((e) => `${e.from} -> ${e.to} (${e.kind})`);
const under = (f: string, dir: string): boolean => f.startsWith(`${dir}/`);

describe('import graph of runtime/, generator/, cli/, bench/', () => {
  it('is read whole: every relative import resolves to a file', async () => {
    const { files, edges, unresolved } = await graph;
    expect(unresolved).toEqual([]);
    for (const f of ['runtime/index.ts', 'generator/index.ts', 'cli/main.ts', 'bench/gem.ts', 'runtime/gem/workload.ts']) expect(files).toContain(f);
    expect(edges.some((e) => e.kind === 'DynamicImport')).toBe(true);
    expect(edges.length).toBeGreaterThan(300);
  });

  it('has no import cycle (static, type-only and dynamic imports alike)', async () => {
    const { files, edges } = await graph;
    const detail = cycles(files, edges).map((scc) => `${scc.length} files in a cycle, e.g. ${shortestCycle(scc, edges)}; all: ${scc.join(', ')}`);
    expect(detail).toEqual([]);
  });

  it('runtime/ and generator/ never import cli/ or bench/', async () => {
    const { edges } = await graph;
    const bad = edges.filter((e) => (under(e.from, 'runtime') || under(e.from, 'generator')) && (under(e.to, 'cli') || under(e.to, 'bench')));
    expect(show(bad)).toEqual([]);
  });

  it('runtime/ imports generator/ only dynamically, and only its public surface generator/index.ts', async () => {
    const { edges } = await graph;
    const bad = edges.filter((e) => under(e.from, 'runtime') && under(e.to, 'generator') && !(e.kind === 'DynamicImport' && e.to === 'generator/index.ts'));
    expect(show(bad)).toEqual([]);
  });

  it('bench/ never imports cli/; cli/ files are imported by the CLI entry only, bench/ files by the CLI entry and the benches', async () => {
    const { edges } = await graph;
    const bad = edges.filter(
      (e) =>
        (under(e.to, 'cli') && !CLI_ENTRY.has(e.from)) ||
        (under(e.to, 'bench') && !CLI_ENTRY.has(e.from) && !under(e.from, 'bench')),
    );
    expect(show(bad)).toEqual([]);
  });
});

/** The files under these folders of the repository (paths relative to it, '/'-separated). */
function filesUnder(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

describe('self-contained', () => {
  // spelled in pieces so that this file does not name them itself
  const named = [['..', 'shared'].join('/'), ['shared', 'data'].join('/')];
  // test/package.test.ts guards the same rule and names the folder in its own check
  const guards = new Set(['test/package.test.ts']);

  it('no file of runtime/, generator/, cli/, bench/, test/, specs/ or templates/ names the shared folder', () => {
    const hits: string[] = [];
    for (const p of filesUnder(['runtime', 'generator', 'cli', 'bench', 'test', 'specs', 'templates'])) {
      if (guards.has(p)) continue;
      const buf = readFileSync(join(root, p));
      if (buf.includes(0)) continue; // binary
      const text = buf.toString('utf8');
      for (const n of named) if (text.includes(n)) hits.push(`${p}: ${n}`);
    }
    expect(hits).toEqual([]);
  });

  it('runtime/ and generator/ have no untyped escapes (`as any`, `: any`) and keep nothing on globalThis under a __ name (timing probes of a profiling session)', () => {
    const hits: string[] = [];
    for (const p of filesUnder(['runtime', 'generator']).filter((f) => f.endsWith('.ts'))) {
      readFileSync(join(root, p), 'utf8').split('\n').forEach((line, k) => {
        if (/\bas any\b|:\s*any\b(?![\s-]*(free|variant|key|of|other|one)\b)|globalThis[^\n]*\.__\w/.test(line.replace(/\/\/.*$|^\s*\*.*$/, ''))) hits.push(`${p}:${k + 1}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
