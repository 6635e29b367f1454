// placeholder md-nonbonded.wgsl.lj-rf.lb.shift.f32.fev.1x1.mask.mask.workgroup128.jsplit1
