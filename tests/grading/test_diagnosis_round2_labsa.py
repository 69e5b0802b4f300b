"""Lab diagnoses written by hand, second round (s32 labsa, 2026-12-03; none from the labelled
benchmark): terse notes, code walks with line numbers, Chinese, Chinese with English terms,
bullets, the fix in other words, a second valid fix; and wrong ones (wrong culprit, a symptom fix,
a wrong cause in the right vocabulary). Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

CHECKPOINT_RANK0 = [
 ('checkpoint-rank0', 'r0 -> all_gather in data_positions (train.py:42), via save_checkpoint. r1-3 -> backward, DDP grad allreduce of step 5. gather is inside `if ctx.rank == 0` so only r0 ever enters it. fix: hoist data_positions() above the if, keep torch.save on r0', R),
 ('checkpoint-rank0', 'Walking through train.py: main() calls save_checkpoint(ctx, trainer, loader, path, step) at line 69 on every rank when (step+1) % save_every == 0. Inside save_checkpoint, line 47 checks `if ctx.rank == 0:` and only then calls data_positions() (line 48), which does dist.all_gather(positions, mine) on line 42. So rank 0 blocks in that all_gather, while ranks 1, 2 and 3 return immediately from save_checkpoint, start step 5, and block in loss.backward() where DDP waits on the gradient all-reduce buckets. The all_gather needs all four ranks to participate and they never will. Fix: call data_positions on every rank before the rank check; only the torch.save/os.replace stays rank-0 only.', R),
 ('checkpoint-rank0', 'rank 0 卡在 save_checkpoint -> data_positions 里的 dist.all_gather（第42行）。rank 1、2、3 已经进入下一步，在 loss.backward() 里等 DDP 的梯度 all-reduce。原因：all_gather 放在 if ctx.rank == 0 里面，其他 rank 根本不会执行到它，集合通信要所有 rank 都参加才能返回。修复：把 all_gather 移到 if 外面，所有 rank 都调用，只让 rank 0 写文件。', R),
 ('checkpoint-rank0', 'rank 0 在 all_gather 里 hang 住，位置是 save_checkpoint 里的 data_positions；其余三个 rank 在 backward 的 DDP gradient allreduce 里等。root cause：collective 被放在 rank 0 only 的分支里，rank 1-3 skip 了这个 all_gather。fix：所有 rank 先做 all_gather，再由 rank 0 torch.save。', R),
 ('checkpoint-rank0', '- odd one out: rank 0\n- rank 0: dist.all_gather in data_positions, called from save_checkpoint (line 48)\n- ranks 1-3: next step, loss.backward(), DDP gradient all-reduce\n- why: the all_gather sits under `if ctx.rank == 0:`, the other ranks never call it\n- fix: gather outside the if on all ranks; write only on rank 0', R),
 ('checkpoint-rank0', "Rank 0 is stuck in the all_gather of data positions in save_checkpoint; the rest have moved on and sit in DDP's gradient allreduce in backward. Root cause: a rank-conditional collective — the gather lives inside the rank-0 branch, so it is issued by one process out of four. Fix: let every process take part in collecting the positions, and guard only the file write with the rank check.", R),
 ('checkpoint-rank0', 'rank 0 hangs in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce in backward. only rank 0 calls the gather. fix: every rank could keep its own position and write its own small file (positions_rank{r}.pt) so no collective is needed at all, rank 0 writes the model', R),
 ('checkpoint-rank0', 'rank 0: all_gather in data_positions under save_checkpoint. others: DDP allreduce in backward of the next step. the all_gather is only executed by rank 0 because of the rank check, so it waits forever for ranks 1-3. fix: move the `if ctx.rank == 0` inside, around torch.save only.', R),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. torch.save is slow so the gather times out. fix: raise the process group timeout to 30 minutes', W),
 ('checkpoint-rank0', "rank 3 is the odd one: it is in the all_gather in save_checkpoint while ranks 0-2 wait in backward's all-reduce. only rank 3 calls it.", W),
 ('checkpoint-rank0', 'rank 0 is stuck in all_gather inside save_checkpoint; ranks 1-3 wait in the gradient all-reduce. every rank calls the gather too, but rank 0 writes the file at the same time and the gather deadlocks with the disk write.', W),
 ('checkpoint-rank0', 'rank 0 waits in the all_gather in save_checkpoint and the others in the gradient all-reduce; the checkpoint file is too big for the disk, so torch.save never finishes.', W),
 ('checkpoint-rank0', "Rank 0 never returns from dist.all_gather (data_positions, line 42, reached from save_checkpoint). Ranks 1-3 are not in that gather at all: they skipped the if-block and are already in the next step's backward, waiting on DDP's allreduce. A collective can't complete with one participant. Fix: compute positions on all ranks, save on rank 0.", R),
 ('checkpoint-rank0', '0号卡在 all_gather（data_positions，第42行），其他三个 rank 在下一个 step 的 backward 里等梯度同步。因为 save_checkpoint 里只有 rank 0 会去调 data_positions，别的 rank 都跳过了这个 all_gather，它就永远凑不齐。修法：所有 rank 都去收集位置，写盘只在 0 号做。', R),
 ('checkpoint-rank0', 'rank 0 is in all_gather in save_checkpoint; ranks 1-3 in the gradient all-reduce in backward. The other ranks are not participating in the all_gather since it is inside the rank-0 branch. Alternative fix: use dist.gather to rank 0 but call it on every rank.', R),
 ('checkpoint-rank0', 'rank 0 在 save_checkpoint 的 all_gather 里等，其它 rank 在 backward 的 all_reduce 里。all_gather 写在 if ctx.rank == 0 分支里，只有 0 号执行了。修复：所有 rank 都执行 all_gather。', R),
 ('checkpoint-rank0', 'rank 0 is in all_gather inside save_checkpoint, the others in the gradient all-reduce. the other ranks call the gather too but with a different tensor shape, so it never completes.', W),
 ('checkpoint-rank0', 'rank 0 在 save_checkpoint 的 all_gather 里，其他 rank 在梯度 all_reduce 里。其他 rank 也调用了 all_gather，但是 rank 0 写文件太慢。修复：把超时调大。', W),
 ('checkpoint-rank0', 'rank 0 is in the gradient all-reduce in backward; ranks 1-3 are in all_gather in data_positions. only ranks 1-3 call the gather.', W),
 ('checkpoint-rank0', 'rank 0 is in all_gather in save_checkpoint; ranks 1-3 wait in the gradient all-reduce. the gather hangs because gloo cannot all_gather long tensors.', W),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. the gather cannot complete with one participant", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. 其他 rank 不在这个 gather 里", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. all_gather 只有一个进程参与，完成不了", R),
 ('checkpoint-rank0', "rank 0 in all_gather in save_checkpoint; ranks 1-3 in backward's allreduce. 其他 rank 都在这个 gather 里", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), CHECKPOINT_RANK0)
def test_round2_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
