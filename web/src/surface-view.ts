// The GEM potential on its surface in 3-D (three.js, bundled): one small disc per vertex, facing
// along the vertex normal, sized by the typical vertex spacing, coloured by the potential with
// the colour map of runtime/gem/picture.ts (red negative, white 0, blue positive, clamped at the
// 95th percentile of |phi|), shaded by a light that follows the camera. Drag to rotate, wheel to
// zoom (OrbitControls). The colour bar beside it uses the same map.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { colourScale, potentialColour, vertexSpacing, PICTURE_BACKGROUND } from '../../runtime/gem/picture.ts';

export interface SurfaceData {
  n: number;
  xyz: Float32Array;
  normals: Float32Array;
  phi: ArrayLike<number>;
}

export class SurfaceView {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly light = new THREE.DirectionalLight(0xffffff, 1.3);
  private mesh?: THREE.InstancedMesh;
  private frame = 0;
  /** The colour scale of the surface shown: phi clamped to [-clamp, clamp]. */
  clamp = 0;

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(canvas.clientWidth || canvas.width, canvas.clientHeight || canvas.height, false);
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    const [r, g, b] = PICTURE_BACKGROUND;
    this.scene.background = new THREE.Color().setRGB(r / 255, g / 255, b / 255, THREE.SRGBColorSpace);
    this.camera = new THREE.PerspectiveCamera(35, canvas.width / canvas.height, 0.1, 10000);
    this.scene.add(new THREE.AmbientLight(0xffffff, 0.7));
    this.camera.add(this.light);
    this.light.position.set(0.3, 0.4, 1);
    this.scene.add(this.camera);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.render());
  }

  /** Show a surface coloured by its potential; returns the colour scale's clamp. */
  show(d: SurfaceData): number {
    if (this.mesh) {
      this.scene.remove(this.mesh);
      this.mesh.geometry.dispose();
      (this.mesh.material as THREE.Material).dispose();
      this.mesh.dispose();
    }
    this.clamp = colourScale(d.phi, 95);
    const v = {
      n: d.n,
      x: Float64Array.from({ length: d.n }, (_, i) => d.xyz[3 * i]!),
      y: Float64Array.from({ length: d.n }, (_, i) => d.xyz[3 * i + 1]!),
      z: Float64Array.from({ length: d.n }, (_, i) => d.xyz[3 * i + 2]!),
      nx: new Float64Array(0), ny: new Float64Array(0), nz: new Float64Array(0),
    };
    const spacing = vertexSpacing(v);
    const disc = new THREE.CircleGeometry(1.15 * spacing, 12);
    const material = new THREE.MeshLambertMaterial({ side: THREE.DoubleSide });
    const mesh = new THREE.InstancedMesh(disc, material, d.n);
    const m = new THREE.Matrix4();
    const q = new THREE.Quaternion();
    const z = new THREE.Vector3(0, 0, 1);
    const nrm = new THREE.Vector3();
    const pos = new THREE.Vector3();
    const one = new THREE.Vector3(1, 1, 1);
    const col = new THREE.Color();
    const box = new THREE.Box3();
    for (let i = 0; i < d.n; i++) {
      pos.set(d.xyz[3 * i]!, d.xyz[3 * i + 1]!, d.xyz[3 * i + 2]!);
      nrm.set(d.normals[3 * i]!, d.normals[3 * i + 1]!, d.normals[3 * i + 2]!).normalize();
      q.setFromUnitVectors(z, nrm);
      m.compose(pos, q, one);
      mesh.setMatrixAt(i, m);
      const [r, g, b] = potentialColour(d.phi[i]! / this.clamp);
      mesh.setColorAt(i, col.setRGB(r / 255, g / 255, b / 255, THREE.SRGBColorSpace));
      box.expandByPoint(pos);
    }
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    this.scene.add(mesh);
    this.mesh = mesh;
    const centre = box.getCenter(new THREE.Vector3());
    const radius = box.getSize(new THREE.Vector3()).length() / 2;
    this.controls.target.copy(centre);
    this.camera.position.copy(centre).add(new THREE.Vector3(0.45, 0.35, 1).normalize().multiplyScalar(radius / Math.tan((this.camera.fov * Math.PI) / 360) * 0.95));
    this.camera.near = radius / 100;
    this.camera.far = radius * 10;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.render();
    return this.clamp;
  }

  /** Turn the view about the vertical axis by `degrees` (the tests' and the keyboard's rotation). */
  rotate(degrees: number): void {
    const off = this.camera.position.clone().sub(this.controls.target);
    off.applyAxisAngle(new THREE.Vector3(0, 1, 0), (degrees * Math.PI) / 180);
    this.camera.position.copy(this.controls.target).add(off);
    this.controls.update();
    this.render();
  }

  render(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.renderer.render(this.scene, this.camera));
  }

  /** Render now (before a screenshot). */
  renderNow(): void {
    this.renderer.render(this.scene, this.camera);
  }
}

/** Draw the colour bar (top: +clamp, blue; bottom: -clamp, red) on its canvas, with its end labels. */
export function drawColourBar(box: HTMLElement, clamp: number): void {
  const canvas = box.querySelector('canvas')!;
  const ctx = canvas.getContext('2d')!;
  const h = canvas.height;
  for (let y = 0; y < h; y++) {
    const [r, g, b] = potentialColour(1 - (2 * y) / (h - 1));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(0, y, canvas.width, 1);
  }
  const fmt = (x: number) => (Math.abs(x) >= 100 || Math.abs(x) < 0.01 ? x.toExponential(1) : x.toPrecision(3));
  box.querySelector('.hi')!.textContent = `+${fmt(clamp)}`;
  box.querySelector('.lo')!.textContent = `-${fmt(clamp)}`;
  box.hidden = false;
}
