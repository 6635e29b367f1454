// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.f.4x8.mask.mask.workgroup32.jsplit1
