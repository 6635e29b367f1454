// placeholder md-nonbonded.wgsl.lj-ewald.geom.shift.f32.fev.tabulated.4x4.mask.branch.workgroup64.jsplit4
