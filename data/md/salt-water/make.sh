#!/usr/bin/env bash
# Rebuilds kernforge's bundled salt-water system: SPC/E water with 0.15 M NaCl (OPLS-AA ions),
# about 3,000 waters in a 4.5 nm cube, equilibrated 10 ps at 300 K with PME.
#   bash data/md/salt-water/make.sh        (from anywhere; needs GROMACS 2022's gmx)
# Writes conf.gro (positions with 6 decimals, velocities with 7) and topol.top (this folder's
# topol.head + the molecule counts) here. GROMACS reads the force field from
# data/md/ff (GMXLIB), the subset kernforge ships, so both read the same parameters.
# Steps (the exact commands are below):
#   1. gmx solvate: spc216.gro copies in a 4.5 nm cube
#   2. gmx grompp + gmx genion -conc 0.15 -neutral: replace waters by Na+ and Cl- (seeded)
#   3. gmx grompp/mdrun: steepest descent (em.mdp), then 10 ps seeded NVT (nvt.mdp), PME
#   4. gmx trjconv -pbc mol: the last trr frame with whole molecules -> last.g96 (9 decimals) ->
#      conf.gro with 6 decimals by test/fixtures/gromacs/spce/g96-to-gro.ts (kernforge's writeGro;
#      gmx writes .gro with 3, which leaves the SETTLE geometry off by up to 5e-4 nm)
# mdrun in mixed precision with threads is not bitwise reproducible: a rebuild gives an
# equivalent box, not the identical file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(gmx -quiet --version 2>/dev/null | sed -n 's/^Data prefix: *//p')/share/gromacs/top"
[ -f "$top/spc216.gro" ] || top=/usr/share/gromacs/top
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export GMX_MAXBACKUP=-1
export GMXLIB="$here/../ff"
q() { "$@" >>"$work/log.txt" 2>&1 || { tail -40 "$work/log.txt"; exit 1; }; }

q gmx solvate -cs "$top/spc216.gro" -box 4.5 4.5 4.5 -o solv.gro
nmol=$(( $(sed -n 2p solv.gro) / 3 ))
{ cat "$here/topol.head"; echo "SOL $nmol"; } > topol.top
q gmx grompp -f "$here/em.mdp" -c solv.gro -p topol.top -o ions.tpr -maxwarn 1   # warning: net charge 0 is fine; allows the genion step
echo SOL | q gmx genion -s ions.tpr -o ions.gro -p topol.top -pname NA -nname CL -conc 0.15 -neutral -seed 20261124
q gmx grompp -f "$here/em.mdp" -c ions.gro -p topol.top -o em.tpr
q gmx mdrun -s em.tpr -deffnm em -ntmpi 1 -ntomp 2
q gmx grompp -f "$here/nvt.mdp" -c em.gro -p topol.top -o nvt.tpr
q gmx mdrun -s nvt.tpr -deffnm nvt -ntmpi 1 -ntomp 2
echo 0 | q gmx trjconv -f nvt.trr -s nvt.tpr -o last.g96 -pbc mol -dump 10
(cd "$here/../../../test/fixtures/gromacs/spce" && npx tsx g96-to-gro.ts "$work/last.g96" "$work/conf.gro" 6)
sed -i "1s/.*/SPC\/E water with 0.15 M NaCl (OPLS-AA ions), 10 ps NVT at 300 K (kernforge data\/md\/salt-water\/make.sh)/" conf.gro
cp conf.gro "$here/conf.gro"
cp topol.top "$here/topol.top"
grep -E '^(SOL|NA|CL) ' topol.top
echo "salt water written to $here"
