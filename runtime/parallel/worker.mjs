// Entry of a pool worker (runtime/parallel/pool.ts): registers the TypeScript loader (tsx), as
// cli/kernforge.mjs does, then runs the task loop of worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
