// Canonical variant keys: `<family>.<token of each axis present, in the spec's order>`
// (generator/space.ts variantKey). The generator requires `target` as every spec's first axis,
// so a key's family and target are its first two fields; every other axis is read through the
// spec (variantParams in runtime/variants.ts), never by position.

/** The family of a key (its first field). */
export function keyFamily(key: string): string {
  return key.slice(0, Math.max(0, key.indexOf('.')));
}

/** The target of a key: the value of its first axis, `target` in every spec (ts, wasm, wgsl, gpujs). */
export function keyTarget(key: string): string {
  const i = key.indexOf('.');
  const j = key.indexOf('.', i + 1);
  return i < 0 ? '' : key.slice(i + 1, j < 0 ? undefined : j);
}

/** The key without its family (`what: 'family'`), or without family and target (`'target'`), for display. */
export function shortKey(key: string, what: 'family' | 'target' = 'family'): string {
  const rest = key.slice(key.indexOf('.') + 1);
  return what === 'family' ? rest : rest.slice(rest.indexOf('.') + 1);
}
