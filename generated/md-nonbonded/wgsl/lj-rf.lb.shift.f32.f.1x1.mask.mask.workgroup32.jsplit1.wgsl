// placeholder md-nonbonded.wgsl.lj-rf.lb.shift.f32.f.1x1.mask.mask.workgroup32.jsplit1
