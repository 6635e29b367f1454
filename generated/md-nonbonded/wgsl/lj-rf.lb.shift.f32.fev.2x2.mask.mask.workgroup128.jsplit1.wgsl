// placeholder md-nonbonded.wgsl.lj-rf.lb.shift.f32.fev.2x2.mask.mask.workgroup128.jsplit1
