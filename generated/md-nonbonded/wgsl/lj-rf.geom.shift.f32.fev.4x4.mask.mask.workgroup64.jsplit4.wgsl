// placeholder md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.4x4.mask.mask.workgroup64.jsplit4
