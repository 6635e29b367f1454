// Search strategies over a family's candidate variants. A strategy sees only the candidates
// (key + axis values), an `evaluate(key)` that returns the measured milliseconds (null for a
// failed variant), an evaluation budget and a seeded random generator. The same code therefore
// runs live (the tuner measures) or offline on recorded numbers (replayStrategy), which is how
// strategies are compared without re-measuring.
//
// Budget: the number of distinct candidates evaluated; evaluating a key again is free (memoised)
// and does not count. A strategy stops when the budget is spent or every candidate is evaluated;
// the tuner may also stop it early by making `evaluate` throw (time limit, Ctrl-C).

export type Params = Record<string, string | number>;
/** A candidate a strategy may evaluate: a variant key (or key and thread count) with its axis values. */
export interface Candidate {
  /** The candidate's key, passed to Evaluate. */
  key: string;
  /** Its axis values, which define the neighbours. */
  params: Params;
}
/** Measure a candidate: its median time (ms), or null when it failed; may throw to stop the strategy. */
export type Evaluate = (key: string) => Promise<number | null>;
export type Rng = () => number;
/** A search strategy: evaluates candidates until the budget (distinct candidates evaluated) is spent or all are evaluated; re-evaluating a key is free. */
export type Strategy = (candidates: Candidate[], evaluate: Evaluate, budget: number, rng: Rng) => Promise<void>;
/** Names of the built-in strategies (`kernforge tune --strategy`). */
export type StrategyName = 'exhaustive' | 'random' | 'annealing' | 'bandit' | 'descent' | 'model';
/** The built-in strategy names, in the order the CLI lists them. */
export const STRATEGY_NAMES: readonly StrategyName[] = ['exhaustive', 'random', 'annealing', 'bandit', 'descent', 'model'];

/** mulberry32: a small, fast, seeded generator of uniform numbers in [0, 1). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates shuffle (copy). */
function shuffled<T>(xs: readonly T[], rng: Rng): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Memoises evaluate and counts distinct evaluations against the budget. */
function budgeted(evaluate: Evaluate, budget: number) {
  const seen = new Map<string, number | null>();
  return {
    seen,
    left: () => budget - seen.size,
    async eval(key: string): Promise<number | null> {
      if (seen.has(key)) return seen.get(key)!;
      const v = await evaluate(key);
      seen.set(key, v);
      return v;
    },
  };
}

/**
 * Neighbours of a candidate: candidates whose axis values differ in exactly one axis. Axes that
 * only one of the two has (conditional axes, e.g. md's `list` on 1x1) are ignored, so 1x1.half and
 * 4x4 with the same handling are neighbours through the cluster axis.
 */
export function neighbours(c: Candidate, all: Candidate[]): Candidate[] {
  return all.filter((o) => {
    if (o.key === c.key) return false;
    let diff = 0;
    for (const a in c.params) if (a in o.params && c.params[a] !== o.params[a]) diff++;
    if (diff === 0) {
      // same shared values: differ only through conditional axes
      return Object.keys(c.params).length !== Object.keys(o.params).length || Object.keys(c.params).some((a) => !(a in o.params));
    }
    return diff === 1;
  });
}

/** Every candidate in the given (key) order, up to the budget. */
export const exhaustive: Strategy = async (cands, evaluate, budget) => {
  const b = budgeted(evaluate, budget);
  for (const c of cands) {
    if (b.left() <= 0) return;
    await b.eval(c.key);
  }
};

/** Uniform random sampling without replacement. */
export const randomSampling: Strategy = async (cands, evaluate, budget, rng) => {
  const b = budgeted(evaluate, budget);
  for (const c of shuffled(cands, rng)) {
    if (b.left() <= 0) return;
    await b.eval(c.key);
  }
};

/**
 * Simulated annealing on log(time): start at a random candidate, move to a random neighbour
 * (one tuning axis changed; unevaluated neighbours first), accept a slower one with probability
 * exp(-(log t_new - log t_cur) / T), T falling geometrically from 0.3 to 0.01 over the budget.
 * Failed variants count as infinitely slow. When every neighbour has been evaluated, restart from
 * a random unevaluated candidate.
 */
export const annealing: Strategy = async (cands, evaluate, budget, rng) => {
  if (cands.length === 0) return;
  const b = budgeted(evaluate, budget);
  const cost = (v: number | null) => (v === null || !(v > 0) ? Infinity : Math.log(v));
  const nb = new Map(cands.map((c) => [c.key, neighbours(c, cands)]));
  let cur = cands[Math.floor(rng() * cands.length)]!;
  let curCost = cost(await b.eval(cur.key));
  const T0 = 0.3, T1 = 0.01;
  const limit = Math.min(budget, cands.length);
  for (let guard = 0; b.left() > 0 && b.seen.size < cands.length && guard < 100 * limit + 100; guard++) {
    const T = T0 * (T1 / T0) ** Math.min(1, b.seen.size / Math.max(1, limit));
    const ns = nb.get(cur.key)!;
    const fresh = ns.filter((c) => !b.seen.has(c.key));
    let next: Candidate;
    if (fresh.length > 0) next = fresh[Math.floor(rng() * fresh.length)]!;
    else {
      // local neighbourhood exhausted: restart at a random unevaluated candidate
      const rest = cands.filter((c) => !b.seen.has(c.key));
      next = rest[Math.floor(rng() * rest.length)]!;
      cur = next;
      curCost = cost(await b.eval(next.key));
      continue;
    }
    const nextCost = cost(await b.eval(next.key));
    const delta = nextCost - curCost;
    if (delta <= 0 || (Number.isFinite(nextCost) && rng() < Math.exp(-delta / T)) || !Number.isFinite(curCost)) {
      cur = next;
      curCost = nextCost;
    }
  }
};

/**
 * A bandit over axis values (UCB1 per axis value): the reward of a measured candidate is
 * best-time-so-far / its time (1 for the best, 0 for a failure), credited to each of its axis
 * values. Each round evaluates the unevaluated candidate with the highest sum over its axes of
 * mean reward + sqrt(2 ln n / n_value) (values never tried score 2); ties are broken at random.
 */
export const bandit: Strategy = async (cands, evaluate, budget, rng) => {
  const b = budgeted(evaluate, budget);
  const times = new Map<string, number | null>();
  const axes = [...new Set(cands.flatMap((c) => Object.keys(c.params)))].filter((a) => new Set(cands.map((c) => String(c.params[a]))).size > 1);
  while (b.left() > 0 && times.size < cands.length) {
    const ok = [...times.values()].filter((t): t is number => t !== null && t > 0);
    const best = ok.length > 0 ? Math.min(...ok) : 1;
    const stats = new Map<string, { n: number; sum: number }>();
    for (const [key, t] of times) {
      const c = cands.find((x) => x.key === key)!;
      const r = t === null || !(t > 0) ? 0 : best / t;
      for (const a of axes) {
        if (!(a in c.params)) continue;
        const id = `${a}=${c.params[a]}`;
        const s = stats.get(id) ?? { n: 0, sum: 0 };
        s.n++;
        s.sum += r;
        stats.set(id, s);
      }
    }
    const n = Math.max(1, times.size);
    let top: Candidate[] = [];
    let topScore = -Infinity;
    for (const c of cands) {
      if (times.has(c.key)) continue;
      let score = 0;
      for (const a of axes) {
        if (!(a in c.params)) continue;
        const s = stats.get(`${a}=${c.params[a]}`);
        score += s ? s.sum / s.n + Math.sqrt((2 * Math.log(n)) / s.n) : 2;
      }
      if (score > topScore + 1e-12) {
        topScore = score;
        top = [c];
      } else if (Math.abs(score - topScore) <= 1e-12) top.push(c);
    }
    const pick = top[Math.floor(rng() * top.length)]!;
    times.set(pick.key, await b.eval(pick.key));
  }
};

/** Axes whose value differs between candidates (the tuning axes of this candidate set). */
function varyingAxes(cands: Candidate[]): string[] {
  return [...new Set(cands.flatMap((c) => Object.keys(c.params)))].filter((a) => new Set(cands.map((c) => String(c.params[a]))).size > 1);
}

/**
 * Coordinate descent: from a random start, take the axes one at a time (fewest values first, ties
 * at random) and evaluate every candidate that differs from the current one in that axis only;
 * move to the fastest. A full pass without improvement is a local optimum: restart from the
 * unevaluated candidate that shares the most axis values with the best found so far. Finds the
 * optimum of a landscape whose axes act independently in one pass, in about sum(|axis values|)
 * evaluations.
 */
export const descent: Strategy = async (cands, evaluate, budget, rng) => {
  if (cands.length === 0) return;
  const b = budgeted(evaluate, budget);
  const cost = (v: number | null) => (v === null || !(v > 0) ? Infinity : v);
  const axes = varyingAxes(cands);
  const distinct = (a: string) => new Set(cands.map((c) => String(c.params[a]))).size;
  let cur = cands[Math.floor(rng() * cands.length)]!;
  let curCost = cost(await b.eval(cur.key));
  let best = cur;
  let bestCost = curCost;
  while (b.left() > 0 && b.seen.size < cands.length) {
    let improved = false;
    const order = shuffled(axes, rng).sort((x, y) => distinct(x) - distinct(y));
    for (const a of order) {
      if (b.left() <= 0) return;
      const line = cands.filter((o) => o.key !== cur.key && Object.keys(cur.params).every((x) => x === a || !(x in o.params) || o.params[x] === cur.params[x]) && o.params[a] !== cur.params[a]);
      for (const o of shuffled(line, rng)) {
        if (b.left() <= 0) return;
        const t = cost(await b.eval(o.key));
        if (t < curCost) {
          cur = o;
          curCost = t;
          improved = true;
        }
      }
      if (curCost < bestCost) {
        best = cur;
        bestCost = curCost;
      }
    }
    if (!improved) {
      const rest = cands.filter((c) => !b.seen.has(c.key));
      if (rest.length === 0) return;
      const shared = (c: Candidate) => Object.keys(best.params).filter((x) => c.params[x] === best.params[x]).length;
      const top = Math.max(...rest.map(shared));
      const pool = rest.filter((c) => shared(c) === top);
      cur = pool[Math.floor(rng() * pool.length)]!;
      curCost = cost(await b.eval(cur.key));
    }
  }
};

/**
 * Additive model (a cheap surrogate): log(time) ~ mu + sum over tuning axes of an effect per axis
 * value, fitted by ridge-regularised least squares to everything measured so far. Start with
 * random candidates until every axis value has been seen once (or a third of the budget is
 * spent), then repeatedly measure the unevaluated candidate the model predicts fastest (every
 * fourth pick a random one, so a wrong model cannot lock the search) and refit.
 */
export const model: Strategy = async (cands, evaluate, budget, rng) => {
  if (cands.length === 0) return;
  const b = budgeted(evaluate, budget);
  const axes = varyingAxes(cands);
  const cols = new Map<string, number>();
  for (const a of axes) for (const c of cands) if (a in c.params && !cols.has(`${a}=${c.params[a]}`)) cols.set(`${a}=${c.params[a]}`, cols.size);
  const P = cols.size + 1;
  const features = (c: Candidate): number[] => [0, ...axes.filter((a) => a in c.params).map((a) => 1 + cols.get(`${a}=${c.params[a]}`)!)];
  const measured = new Map<string, number>();
  const measure = async (c: Candidate) => {
    const t = await b.eval(c.key);
    // a failed variant is modelled as 10x the slowest success so far
    const ok = [...measured.values()];
    measured.set(c.key, t !== null && t > 0 ? Math.log(t) : (ok.length ? Math.max(...ok) : 0) + Math.log(10));
  };
  const unseen = new Set(cols.keys());
  const seed = shuffled(cands, rng);
  for (const c of seed) {
    if (b.left() <= 0 || unseen.size === 0 || b.seen.size >= Math.max(2, Math.floor(budget / 3))) break;
    const covers = axes.some((a) => unseen.has(`${a}=${c.params[a]}`));
    if (!covers) continue;
    await measure(c);
    for (const a of axes) unseen.delete(`${a}=${c.params[a]}`);
  }
  let pick = 0;
  while (b.left() > 0 && b.seen.size < cands.length) {
    const rest = cands.filter((c) => !b.seen.has(c.key));
    pick++;
    if (pick % 4 === 0) {
      await measure(rest[Math.floor(rng() * rest.length)]!);
      continue;
    }
    // Normal equations (X^T X + lambda I) w = X^T y, solved by Gaussian elimination (P is small).
    const A = Array.from({ length: P }, () => new Float64Array(P + 1));
    for (const c of cands) {
      const y = measured.get(c.key);
      if (y === undefined) continue;
      const f = features(c);
      for (const i of f) {
        for (const j of f) A[i]![j]! += 1;
        A[i]![P]! += y;
      }
    }
    for (let i = 0; i < P; i++) A[i]![i]! += 1e-3;
    for (let i = 0; i < P; i++) {
      let piv = i;
      for (let r = i + 1; r < P; r++) if (Math.abs(A[r]![i]!) > Math.abs(A[piv]![i]!)) piv = r;
      [A[i], A[piv]] = [A[piv]!, A[i]!];
      for (let r = 0; r < P; r++) {
        if (r === i || A[r]![i] === 0) continue;
        const m = A[r]![i]! / A[i]![i]!;
        for (let k = i; k <= P; k++) A[r]![k]! -= m * A[i]![k]!;
      }
    }
    const w = A.map((row, i) => row[P]! / row[i]!);
    let top: Candidate[] = [];
    let topY = Infinity;
    for (const c of rest) {
      const y = features(c).reduce((s, i) => s + w[i]!, 0);
      if (y < topY - 1e-12) {
        topY = y;
        top = [c];
      } else if (Math.abs(y - topY) <= 1e-12) top.push(c);
    }
    await measure(top[Math.floor(rng() * top.length)]!);
  }
};

/** The built-in strategies by name. */
export const STRATEGIES: Record<StrategyName, Strategy> = { exhaustive, random: randomSampling, annealing, bandit, descent, model };

/** A strategy by name (throws with the allowed names). */
export function strategyByName(name: string): Strategy {
  const s = STRATEGIES[name as StrategyName];
  if (!s) throw new Error(`unknown strategy "${name}" (allowed: ${STRATEGY_NAMES.join(', ')})`);
  return s;
}

/** Axis values of a key when nothing better is known: its dot-separated parts by position. */
export function positionalParams(key: string): Params {
  const out: Params = {};
  key.split('.').forEach((p, i) => (out[`part${i}`] = p));
  return out;
}

/** A strategy replayed offline on recorded times (replayStrategy). */
export interface ReplayResult {
  /** Keys in the order the strategy evaluated them, with the recorded time (null: failed). */
  evaluations: {
    /** The key evaluated. */
    key: string;
    /** Its recorded time (ms), or null when it failed. */
    medianMs: number | null;
  }[];
  /** The fastest key found (null when none succeeded). */
  bestKey: string | null;
  /** Its recorded time (ms; null when none succeeded). */
  bestMs: number | null;
  /** Best time found after each evaluation (Infinity before the first success). */
  bestSoFar: number[];
}

/**
 * Run a strategy offline on recorded times (e.g. a cache's results for one family and problem):
 * the candidates are the recorded keys, in key order. Axis values come from `params` (e.g. the
 * cache entries' params), else from the library (variantParams), else the key's parts by position.
 * A key missing from `recordedTimes` is never offered. Deterministic for a given seed.
 */
export async function replayStrategy(
  strategy: Strategy | StrategyName,
  recordedTimes: Map<string, number | null>,
  budget: number,
  seed: number,
  params?: Map<string, Params>,
): Promise<ReplayResult> {
  const s = typeof strategy === 'string' ? strategyByName(strategy) : strategy;
  const keys = [...recordedTimes.keys()].sort();
  const cands: Candidate[] = [];
  for (const key of keys) {
    let p = params?.get(key);
    if (!p) {
      try {
        const { variantParams } = await import('../variants.ts');
        p = await variantParams(key);
      } catch {
        p = positionalParams(key);
      }
    }
    cands.push({ key, params: p });
  }
  const evaluations: ReplayResult['evaluations'] = [];
  const bestSoFar: number[] = [];
  let best = Infinity;
  let bestKey: string | null = null;
  await s(
    cands,
    async (key) => {
      const t = recordedTimes.get(key) ?? null;
      evaluations.push({ key, medianMs: t });
      if (t !== null && t < best) {
        best = t;
        bestKey = key;
      }
      bestSoFar.push(best);
      return t;
    },
    budget,
    seededRng(seed),
  );
  return { evaluations, bestKey, bestMs: bestKey === null ? null : best, bestSoFar };
}
