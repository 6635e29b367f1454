// placeholder md-nonbonded.wgsl.lj-rf.table.shift.f32.fev.4x8.mask.mask.workgroup128.jsplit1
