// placeholder md-nonbonded.wgsl.lj-rf.table.shift.f32.f.8x8.mask.mask.workgroup32.jsplit1
