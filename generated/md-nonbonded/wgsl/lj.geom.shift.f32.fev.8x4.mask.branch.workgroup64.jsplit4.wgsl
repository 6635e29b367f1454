// placeholder md-nonbonded.wgsl.lj.geom.shift.f32.fev.8x4.mask.branch.workgroup64.jsplit4
