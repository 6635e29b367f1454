// The gem-potential handle of open(): the potential of a molecule on its surface with the tuned
// winner (its tuning axes carried over to the molecule's region and salt), on whatever target
// it is, verified once per session on the caller's own atoms and vertices.
import { ApiInputError, finiteArray, finiteNumber, integer, options, show } from '../args.ts';
import type { Choice, Session } from '../session.ts';
import { targetOfKey } from '../session.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, oneRootLoop, selectRegion, type GemParams, type GemRegion, type GemSettings } from './model.ts';
import { checkGemInputs } from './inputs.ts';

/** Options of GemHandle.potential. */
export interface GemPotentialOptions extends GemSettings {
  /** A gem-potential variant key; default: the tuned winner, else the documented default. */
  variant?: string;
  /** Worker threads (ts and wasm variants); default: open()'s, else the tuned count, else 1. */
  threads?: number;
  /** Vertices the gate checks against the f64 reference the first time a variant runs (default 200). */
  verifyVertices?: number;
}

/** The potential on every vertex, and how it was computed. */
export interface GemPotential extends Choice {
  /** Potential per vertex (kcal/mol/e), in vertex order. */
  phi: Float64Array;
  /** GEM's region of the points at r = A + p (Angstrom): 1 when r <= A, 2 up to A + 2 (ion exclusion radius), else 3. */
  region: GemRegion;
  /**
   * The constants the kernel ran with (A and p in Angstrom, dielectrics, kappa in 1/Angstrom), from
   * the options and the atoms.
   */
  params: GemParams;
}

/** GEM through open(): `kf.gem.potential(atoms, vertices, options)`. */
export interface GemHandle {
  /**
   * The electrostatic potential (GEM, REFERENCES.md section 3) on the surface vertices. Throws
   * ApiInputError for malformed atoms, vertices or options, VerificationError when the variant
   * fails the gate.
   */
  potential(atoms: GemAtoms, vertices: GemVertices, options?: GemPotentialOptions): Promise<GemPotential>;
}

const ATOM_FIELDS = ['x', 'y', 'z', 'q', 'r'] as const;
const VERTEX_FIELDS = ['x', 'y', 'z', 'nx', 'ny', 'nz'] as const;

/** Atoms and vertices must be structure-of-arrays of n finite values each (as readPqr / readVert give). */
function checkInputs(atoms: GemAtoms, vertices: GemVertices): void {
  if (typeof atoms !== 'object' || atoms === null) throw new ApiInputError(`gem.potential: atoms: got ${show(atoms)}; allowed: { n, x, y, z, q, r } (readPqr/parsePqr give it)`);
  if (typeof vertices !== 'object' || vertices === null) throw new ApiInputError(`gem.potential: vertices: got ${show(vertices)}; allowed: { n, x, y, z, nx, ny, nz } (readVert/parseVert/generateSurface give it)`);
  integer('gem.potential: atoms.n', atoms.n, 1);
  integer('gem.potential: vertices.n', vertices.n, 1);
  for (const f of ATOM_FIELDS) finiteArray(`gem.potential: atoms.${f}`, atoms[f], atoms.n);
  for (const f of VERTEX_FIELDS) finiteArray(`gem.potential: vertices.${f}`, vertices[f], vertices.n);
  for (let i = 0; i < atoms.n; i++) if (!(atoms.r[i]! >= 0)) throw new ApiInputError(`gem.potential: atoms.r[${i}] = ${atoms.r[i]}: radii must be >= 0`);
}

/** The GEM handle of a session. */
export function gemHandle(s: Session): GemHandle {
  return {
    async potential(atoms, vertices, opts) {
      s.check('gem.potential');
      const o = options<GemPotentialOptions>('gem.potential: options', opts);
      checkInputs(atoms, vertices);
      for (const [name, min, excl] of [['epsIn', 0, true], ['epsOut', 0, true], ['salt', 0, false], ['A', 0, true]] as const) {
        if (o[name] !== undefined) finiteNumber(`gem.potential: options.${name}`, o[name], { min, exclusiveMin: excl });
      }
      if (o.p !== undefined) finiteNumber('gem.potential: options.p', o.p);
      const count = o.verifyVertices === undefined ? 200 : integer('gem.potential: options.verifyVertices', o.verifyVertices, 1);
      const params = gemParams(atoms, o);
      const region = selectRegion(params.A, params.p, params.ionRadius);
      const salt = params.kappa > 0 ? 'nonzero' : 'zero';
      const { gemVariantInfo, checkVariant, carryOverGemKey } = await import('./run.ts');

      let choice: { key: string; threads?: number; source: Choice['source'] } | undefined;
      if (o.variant !== undefined) {
        if (typeof o.variant !== 'string' || !o.variant.startsWith('gem-potential.')) throw new ApiInputError(`gem.potential: options.variant: got ${show(o.variant)}; allowed: a gem-potential variant key (kernforge list gem-potential)`);
        choice = { key: o.variant, source: 'given' };
      } else {
        const t = await s.tunedKey('gem-potential', 'surface');
        if (t) {
          try {
            choice = { key: await carryOverGemKey(t.key, region, salt), threads: t.threads, source: t.source };
          } catch {
            s.note(`kernforge: the tuned gem-potential winner ${t.key} has no variant for region ${region} with ${salt} salt; using the default`);
          }
        }
        if (!choice) {
          const { chooseGemVariant } = await import('./defaults.ts');
          const target = s.allows('ts') ? 'ts' : s.allows('wasm') ? 'wasm' : undefined;
          if (!target) throw new ApiInputError(`gem.potential: open({ targets: [${s.targets.join(', ')}] }) allows no target with a default; allowed: add ts or wasm, or give options.variant`);
          choice = { key: chooseGemVariant(region, salt, target).key, source: 'default' };
          if (s.tunedPath !== false) s.note(`kernforge: gem-potential runs the default ${choice.key} for region ${region}, ${salt} salt (nothing tuned applies; run \`kernforge tune gem-potential\`)`);
        }
      }
      const key = choice.key;
      const target = await targetOfKey(key);
      if (!s.allows(target)) throw new ApiInputError(`gem.potential: options.variant ${key} runs on ${target}; allowed by open(): ${s.targets.join(', ')}`);
      try {
        checkVariant(key, await gemVariantInfo(key), params);
      } catch (e) {
        throw new ApiInputError(`gem.potential: ${(e as Error).message}`);
      }
      // the atoms and vertices together, before any variant runs: an atom on a vertex, or sets far apart, blame the input (runtime/gem/inputs.ts)
      checkGemInputs(atoms, vertices, { surface: 'vertices', p: params.p, prefix: 'gem.potential: ', error: ApiInputError });
      const { verifyGemKey } = await import('./gate.ts');
      // region 1 at p = 0 (h = 0) runs the kernel's one-root loop, elsewhere the two-root one: each is verified
      const loop = oneRootLoop(region, params) ? ' (its loop for p = 0)' : '';
      await s.verifyOnce(`${key}${loop}`, () => verifyGemKey(key, atoms, vertices, params, region, count));
      const threads = await s.threadsFor(target, o.threads, choice.threads);
      // the runner of the key's target (runtime/gem/targets.ts)
      const { runGemKey } = await import('./targets.ts');
      const phi = await runGemKey(key, target, atoms, vertices, { params, threads }, 'gem.potential');
      return { phi, key, target, threads, source: choice.source, region, params };
    },
  };
}
