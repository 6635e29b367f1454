// A family's runners by target (runtime/<family>/targets.ts): one table per family, one line per
// target, each runner with the family's uniform interface (prepare: upload; then run, read back,
// dispose). Dispatch on a key's target is a lookup here: a target without a backend is an
// UnknownTargetError (runtime/backends/registry.ts), a target the family has no runner for a
// MissingRunnerError naming the family, the target and what it was wanted for.
import { KernforgeError } from '../errors.ts';
import type { BuiltinTarget } from './backend.ts';
import { backend } from './registry.ts';

/** A family has no runner for a target (the message names the family, the target, the purpose and the runners it has). */
export class MissingRunnerError extends KernforgeError {}

/** The runners of one family by target. */
export class TargetTable<R> {
  private readonly runners: Map<string, R>;

  /** `builtin`: the family's runner for every built-in target. */
  constructor(
    /** The family, e.g. `gem-potential` (for messages). */
    readonly family: string,
    builtin: Readonly<Record<BuiltinTarget, R>>,
  ) {
    this.runners = new Map(Object.entries(builtin));
  }

  /**
   * The runner of `target` for `purpose` (e.g. `run gem`, for the message): UnknownTargetError
   * when no backend is registered for the target, MissingRunnerError when this family has no runner for it.
   */
  get(target: string, purpose: string): R {
    backend(target);
    const r = this.runners.get(target);
    if (r === undefined) throw new MissingRunnerError(`${this.family} has no ${target} runner for ${purpose} (it has runners for ${this.targets().join(', ')})`);
    return r;
  }

  /** The targets this family has runners for, built-in ones first. */
  targets(): string[] {
    return [...this.runners.keys()];
  }

  /** Add (or replace) the runner of a target; returns a function that undoes it. */
  register(target: string, runner: R): () => void {
    const had = this.runners.has(target);
    const before = this.runners.get(target);
    this.runners.set(target, runner);
    return () => {
      if (this.runners.get(target) !== runner) return;
      if (had) this.runners.set(target, before as R);
      else this.runners.delete(target);
    };
  }
}
