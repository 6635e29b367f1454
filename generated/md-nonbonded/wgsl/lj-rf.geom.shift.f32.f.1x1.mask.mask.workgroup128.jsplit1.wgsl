// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.f.1x1.mask.mask.workgroup128.jsplit1
