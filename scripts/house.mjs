#!/usr/bin/env node
// The state of the house (issue 12's measures): functions longer than 60 lines, and the files
// each family's runtime spans (runtime/ files that name the family or live in its folder).
// Usage: node scripts/house.mjs [--max 60]
import { Project, SyntaxKind } from 'ts-morph';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const max = Number(process.argv[process.argv.indexOf('--max') + 1]) || 60;
const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: false } });
project.addSourceFilesAtPaths(['runtime/**/*.ts', 'generator/**/*.ts', 'cli/**/*.ts', 'bench/**/*.ts'].map((g) => join(root, g)));

const long = [];
for (const sf of project.getSourceFiles()) {
  const kinds = [SyntaxKind.FunctionDeclaration, SyntaxKind.MethodDeclaration, SyntaxKind.ArrowFunction, SyntaxKind.FunctionExpression, SyntaxKind.Constructor];
  for (const k of kinds) {
    for (const fn of sf.getDescendantsOfKind(k)) {
      const lines = fn.getEndLineNumber() - fn.getStartLineNumber() + 1;
      if (lines <= max) continue;
      const name = fn.getSymbol?.()?.getName?.() ?? fn.getParent()?.getSymbol?.()?.getName?.() ?? '(anonymous)';
      long.push({ file: relative(root, sf.getFilePath()), line: fn.getStartLineNumber(), name, lines });
    }
  }
}
long.sort((a, b) => b.lines - a.lines);
console.log(`functions over ${max} lines: ${long.length}`);
for (const f of long) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);

const families = { 'md-nonbonded': 'md', 'gem-potential': 'gem', 'bigdft-conv': 'bigdft' };
console.log('\nfiles per family (runtime/ holding its code, cli/ and bench/ that name it):');
for (const [family, folder] of Object.entries(families)) {
  const files = project.getSourceFiles().map((s) => relative(root, s.getFilePath()));
  const inFolder = files.filter((f) => f.startsWith(`runtime/${folder}/`));
  const elsewhere = files.filter((f) => f.startsWith('runtime/') && !f.startsWith(`runtime/${folder}/`) && readFileSync(join(root, f), 'utf8').includes(`'${family}`));
  console.log(`  ${family}: runtime/${folder}/ ${inFolder.length} files; elsewhere in runtime/: ${elsewhere.join(', ') || 'none'}`);
}
