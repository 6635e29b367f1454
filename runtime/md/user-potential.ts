// User-defined pair potentials of the md-nonbonded spec, evaluated in f64 for the reference.
// Parsing goes through the generator's whitelisted expression language (no eval).
import { erf, erfc, type UserPotential } from './interaction.ts';
import { need } from '../platform.ts';

export async function userPotential(name: string, specPath?: string): Promise<UserPotential> {
  // the generator's public surface only, loaded on demand through the platform (the runtime never imports it)
  const gen = await need('onDemand', `user potentials (here "${name}")`).generator();
  const path = specPath ?? gen.projectSpecs().find((p: string) => p.endsWith('/md-nonbonded.yaml'))!;
  const pot = gen.potentials(gen.loadAndValidate(path)).get(name);
  if (!pot) throw new Error(`no user potential "${name}" in ${path}`);
  const special = { erf, erfc };
  return {
    energy: (v) => gen.evalExpr(pot.energy, { ...pot.params, ...v }, special) as number,
    force: (v) => gen.evalExpr(pot.force, { ...pot.params, ...v }, special) as number,
  };
}
