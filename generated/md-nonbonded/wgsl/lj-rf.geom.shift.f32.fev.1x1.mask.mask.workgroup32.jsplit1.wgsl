// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.1x1.mask.mask.workgroup32.jsplit1
