// The TypeScript backend: variants are ES modules, from the library bundle of their family or
// rendered and compiled on demand (runtime/variants.ts loadTsModule, cached there). They run on
// this thread, or split over worker threads by the families' runners.
import { loadTsModule } from '../variants.ts';
import type { Backend } from './backend.ts';

/** The TypeScript target: always available; load() gives the variant's module. */
export const tsBackend: Backend<unknown> = {
  target: 'ts',
  description: 'TypeScript (JavaScript on the CPU)',
  threaded: true,
  async available() {
    return { ok: true, detail: 'JavaScript on this thread and its worker threads' };
  },
  load: (key) => loadTsModule<unknown>(key),
};
