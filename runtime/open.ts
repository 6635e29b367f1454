// open(): the tuned runtime as one object. It reads the tuned artefact once, and hands out one
// handle per family whose methods run the tuned winner for this machine (or the nearest machine
// in the artefact, or the documented default: it says which in one line) on whatever target it
// is, after the family's gate has verified it once in this process. An explicit variant always
// wins. close() ends the session.
import { options } from './args.ts';
import { Session, type OpenOptions } from './session.ts';
import { gemHandle, type GemHandle } from './gem/handle.ts';
import { bigdftHandle, type BigdftHandle } from './bigdft/handle.ts';
import { mdHandle, type MdHandle } from './md/handle.ts';
import type { Device } from './tune/devices.ts';

export type { OpenOptions, Target, Choice, VariantSource } from './session.ts';
export { TARGETS, VerificationError } from './session.ts';

/** An open kernforge session: one handle per family. */
export interface Kernforge {
  /** GEM electrostatic surface potentials. */
  readonly gem: GemHandle;
  /** BigDFT magic-filter and kinetic convolutions, and the local Hamiltonian. */
  readonly bigdft: BigdftHandle;
  /** Cluster-pair non-bonded forces. */
  readonly md: MdHandle;
  /** The devices kernforge finds here (the CPU, and the WebGPU adapter when asked: `{ webgpu: true }`). */
  devices(o?: { webgpu?: boolean }): Promise<Device[]>;
  /** End the session: later calls throw. Worker threads end with each call; the WebGPU device stays for the process. */
  close(): Promise<void>;
}

/**
 * Open kernforge: `const kf = await open(); const r = await kf.gem.potential(atoms, vertices);`.
 * Throws ApiInputError for bad options (unknown targets, a thread count out of range), and
 * TunedFileError when `tuned` names a file that is missing or not a kernforge-tuned file of the
 * schema version this kernforge reads.
 */
export async function open(o?: OpenOptions): Promise<Kernforge> {
  const s = new Session(options<OpenOptions>('open: options', o));
  if (typeof s.tunedPath === 'string') {
    // an artefact named by the caller must be one this kernforge reads: TunedFileError otherwise
    const { readTunedFile } = await import('./tune/tuned.ts');
    const { platform } = await import('./platform.ts');
    readTunedFile(platform().resolve(s.tunedPath));
  }
  return {
    gem: gemHandle(s),
    bigdft: bigdftHandle(s),
    md: mdHandle(s),
    async devices(d = {}) {
      const { cpuDevice, webgpuDevice } = await import('./tune/devices.ts');
      return d.webgpu ? [cpuDevice(), await webgpuDevice()] : [cpuDevice()];
    },
    async close() {
      s.closed = true;
    },
  };
}
