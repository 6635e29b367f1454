#!/usr/bin/env node
// kernforge command: registers the TypeScript loader (tsx) and runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
