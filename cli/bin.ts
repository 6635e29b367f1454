#!/usr/bin/env node
// The `kernforge` command of the package (compiled to dist/cli/bin.js): plain Node, no TypeScript
// loader. In the repository, cli/kernforge.mjs runs the same main() from the sources.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
