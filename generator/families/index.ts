// Registry of family modules: adding a family adds one line here.
import type { FamilyModule } from './types.ts';
import { mdNonbonded } from './md-nonbonded.ts';

const registry = new Map<string, FamilyModule>([[mdNonbonded.family, mdNonbonded]]);

export function familyModule(name: string): FamilyModule | undefined {
  return registry.get(name);
}

export function familyNames(): string[] {
  return [...registry.keys()].sort();
}
