// placeholder md-nonbonded.wgsl.lj-ewald.geom.shift.f32.fev.analytical.4x4.mask.mask.workgroup64.jsplit1
