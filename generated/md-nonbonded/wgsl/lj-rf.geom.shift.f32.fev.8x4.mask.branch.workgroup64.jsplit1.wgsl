// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.branch.workgroup64.jsplit1
