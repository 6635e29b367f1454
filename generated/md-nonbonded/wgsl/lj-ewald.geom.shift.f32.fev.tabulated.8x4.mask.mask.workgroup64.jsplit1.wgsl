// placeholder md-nonbonded.wgsl.lj-ewald.geom.shift.f32.fev.tabulated.8x4.mask.mask.workgroup64.jsplit1
