/**
 * Public runtime API of kernforge (`import ... from 'kernforge'`). Start with open(): it runs the
 * tuned winner of each family on whatever target it is. Below it: the readers and the bundled
 * data, the systems, the cluster-pair data layout, the per-target runners, the f64 references
 * and the verification gates of the md-nonbonded, gem-potential and bigdft-conv families, and
 * the autotuner. Importing this module loads no build-time dependency (the generator and the
 * report are the subpaths kernforge/generator and kernforge/report).
 *
 * @module kernforge
 */
// The Node entry: the Node platform (runtime/platform/node.ts: files, worker threads, Dawn, the
// generator on demand) installed first, then the portable core (runtime/core.ts) and what only
// makes sense with a file system: the readers of GEM's input files.
import { setPlatform } from './platform.ts';
import { nodePlatform } from './platform/node.ts';

setPlatform(nodePlatform);

export * from './core.ts';
export { nodePlatform } from './platform/node.ts';
export { readPqr, readVert } from './gem/io.ts';
// `kernforge serve`'s static server with the isolation headers a page running the browser platform needs (docs/browser.md)
export { serve, ServeError, MIME_TYPES, ISOLATION_HEADERS, type ServeOptions, type StaticServer } from './serve.ts';
