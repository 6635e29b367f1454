// Writes runtime/md/search-simd-bytes.ts from generator/md-search-wat.ts (`npm run search-wasm`).
import { writeFileSync } from 'node:fs';
import { searchBytesModule } from '../generator/md-search-wat.ts';

writeFileSync(new URL('../runtime/md/search-simd-bytes.ts', import.meta.url), await searchBytesModule());
