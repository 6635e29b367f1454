// Registry of family modules: adding a family adds one line here.
import type { FamilyModule } from './types.ts';
import { mdNonbonded } from './md-nonbonded.ts';
import { bigdftConv } from './bigdft-conv.ts';
import { gemPotential } from './gem-potential.ts';
import { pmeMesh } from './pme-mesh.ts';

const registry = new Map<string, FamilyModule>([[mdNonbonded.family, mdNonbonded], [bigdftConv.family, bigdftConv], [gemPotential.family, gemPotential], [pmeMesh.family, pmeMesh]]);

export function familyModule(name: string): FamilyModule | undefined {
  return registry.get(name);
}

export function familyNames(): string[] {
  return [...registry.keys()].sort();
}
