// placeholder md-nonbonded.wgsl.lj-rf.table.shift.f32.fev.2x2.mask.mask.workgroup32.jsplit1
