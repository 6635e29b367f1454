// Writes runtime/md/settle-simd-bytes.ts from generator/md-settle-wat.ts (`npm run settle-wasm`).
import { writeFileSync } from 'node:fs';
import { settleBytesModule } from '../generator/md-settle-wat.ts';

writeFileSync(new URL('../runtime/md/settle-simd-bytes.ts', import.meta.url), await settleBytesModule());
