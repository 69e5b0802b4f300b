"""Labs: real multi-process jobs under torch.distributed, run, watched and checked (DESIGN §7).

Core side (never imports torch): `runner` (LabRun, RunSpec and the run events), `launch`
(the torchrun command), `evidence`, `stacks`, `procs`, `events`, `catalog`, `workspace`,
`checks` (check_lab, and the engine figures a check compares with), `diagnose`, `watch`.
Rank side (imports torch, runs only inside rank processes): `tutor.labs.rank`.
This package's own import stays empty so that a rank process pays nothing for it.
"""
