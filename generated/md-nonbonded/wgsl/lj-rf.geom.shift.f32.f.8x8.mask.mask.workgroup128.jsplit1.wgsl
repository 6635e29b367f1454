// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.f.8x8.mask.mask.workgroup128.jsplit1
