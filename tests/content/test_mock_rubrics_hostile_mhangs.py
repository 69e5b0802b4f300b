"""Hang stages against near misses and right answers written by hand as a hostile candidate would
(2026-12-03; none from the labelled benchmark). Accepted before their contradictions: the roles of
hang-checkpoint-rank0 reversed (rank 0 skips the gather, ranks 1-7 call it), and its fix moving the file
write out of `if rank == 0` while the gather stays there. Each case: (scenario id, step id, answer, right)."""

from __future__ import annotations

import pytest

from tests.content.interview_library import library
from tutor.grading.dispatch import grade

RIGHT, WRONG = True, False
CK = "hang-checkpoint-rank0"

CASES = [
    (CK, 'why', 'Ranks 1-7 call an all_gather that rank 0 skips, and rank 0 went on to the gradient all-reduce, so they wait on each other. Step 1200 is the checkpoint step.',
     WRONG),
    (CK, 'why', 'Rank 0 is saving the checkpoint at step 1200 and the write to disk is slow, so the other ranks wait in the all-reduce until the watchdog fires.',
     WRONG),
    (CK, 'why', "save_checkpoint on rank 0 takes longer than the NCCL timeout at step 1200, so the others' all-reduce times out before rank 0 finishes gathering.",
     WRONG),
    (CK, 'why', "GPU utilization is 100%, so the GPUs are still computing: rank 0's all_gather of the full 1.3B state is just huge and takes a long time at the checkpoint step 1200.",
     WRONG),
    (CK, 'why', 'It could be that only rank 0 calls the all_gather, or it could be a bad GPU that freezes at step 1200.',
     WRONG),
    (CK, 'why', 'If the all_gather were only called by rank 0 it would hang; step 1200 is probably just the checkpoint step.',
     WRONG),
    (CK, 'why', 'rank 0, all_gather, save_checkpoint, if rank == 0, all-reduce, deadlock, step 1200 checkpoint.',
     WRONG),
    (CK, 'why', 'The all_gather is not under if rank == 0, every rank calls it; rank 0 just reaches it late at the checkpoint step 1200, after the others time out.',
     WRONG),
    (CK, 'why', 'rank 0 在存 checkpoint，写盘太慢，其他 rank 在 all-reduce 里等到超时；1200 步正好是存 checkpoint 的步。',
     WRONG),
    (CK, 'why', 'At step 1200 the loss goes NaN on rank 0 and its all_gather of NaN gradients blocks, while the others wait in the all-reduce. It is the checkpoint step too.',
     WRONG),
    (CK, 'why', '只有 rank 0 调用 all_gather 没错，但这不会 hang；hang 是因为第 1200 步 learning rate warmup 结束，loss 变 nan。',
     WRONG),
    (CK, 'why', "Different collectives, yes, but the root cause is rank 0's GPU: a faulty NVLink makes its all_gather never finish, always at step 1200.",
     WRONG),
    (CK, 'why', 'The ranks are in different collectives because rank 0 runs the gather with a different tensor shape than the others; step 1200 is the checkpoint step.',
     WRONG),
    (CK, 'why', "all_gather under if rank==0: only rank 0 calls it, ranks 1-7 are in the next step's all-reduce. Mismatched collectives; 1200 = checkpoint interval.",
     RIGHT),
    (CK, 'why', 'save_checkpoint 里的 all_gather 只有 rank 0 调用，其他 rank 跳过它进了下一步 backward 的 all-reduce，两边在不同的 collective 里互相等。1200 步是存 checkpoint 的步，是代码问题。',
     RIGHT),
    (CK, 'why', "So looking at the stacks, rank 0 is sitting in save_checkpoint, gather_full_state, all_gather, while everybody else is in backward. My guess is the checkpoint code is wrapped in an if rank == 0 block, which is fine for writing the file, but the gather inside it is a collective and the other seven ranks never call it: they went straight on to the next step, and DDP's gradient all-reduce there is waiting for rank 0. So each side waits on the other forever, that's the deadlock, and the 100% util is just NCCL spinning. It's always 1200 because that's when we checkpoint.",
     RIGHT),
    (CK, 'why', 'rank 0 自己进了 all_gather（在 if rank == 0 里），others skip it and sit in the gradient all-reduce，不匹配的 collective 互相等。1200 就是 checkpoint interval。',
     RIGHT),
    (CK, 'why', "The gather in save_checkpoint runs only on rank 0; the other ranks never call it and block in DDP's all-reduce of the next step, so the two collectives never match. Step 1200 is simply the checkpoint step, deterministic code, not hardware.",
     RIGHT),
    (CK, 'why', "rank 0 skipped the gather and is waiting in the next step's all-reduce, while ranks 1-7 sit in the all_gather; checkpoint step 1200.",
     WRONG),
    (CK, 'why', '其他 rank 都调用了 all_gather，只有 rank 0 跳过了，进了下一步的 all-reduce，所以互相等；1200 步存 checkpoint。',
     WRONG),
    (CK, 'why', "Only rank 0 calls the all_gather, ranks 1-7 skipped it and wait in the next step's all-reduce: different collectives. 1200 is the checkpoint step.",
     RIGHT),
    (CK, 'fix', 'Raise the NCCL timeout to an hour so rank 0 has time to finish the gather, and set TORCH_DISTRIBUTED_DEBUG=DETAIL next time.',
     WRONG),
    (CK, 'fix', 'Add a dist.barrier() right after save_checkpoint so all ranks sync up before the next step; keep the timeout short with the flight recorder on.',
     WRONG),
    (CK, 'fix', 'Wrap save_checkpoint in a try/except and retry the gather, and auto-restart the job from the last checkpoint when the watchdog fires.',
     WRONG),
    (CK, 'fix', 'Either make every rank call the gather or just raise the timeout, both work; the flight recorder helps next time.',
     WRONG),
    (CK, 'fix', "Maybe if every rank called the gather it would work, but I'd just restart the job for now.",
     WRONG),
    (CK, 'fix', 'every rank, all_gather, outside if rank == 0, sharded checkpoint, flight recorder, TORCH_DISTRIBUTED_DEBUG=DETAIL.',
     WRONG),
    (CK, 'fix', '把 NCCL timeout 调大到 2 小时，让 rank 0 有时间存完；下次开 TORCH_DISTRIBUTED_DEBUG=DETAIL 检查。',
     WRONG),
    (CK, 'fix', 'Only rank 0 should call the gather; make ranks 1-7 wait in a barrier in the else branch until rank 0 finishes, and keep the timeout short.',
     WRONG),
    (CK, 'fix', "Make the checkpoint save async in a background thread on rank 0 so the training loop doesn't block on it; keep the timeout short with the flight recorder on.",
     WRONG),
    (CK, 'fix', "Unset TORCH_NCCL_BLOCKING_WAIT so the collective doesn't block, and keep a short timeout with the flight recorder dumping on timeout.",
     WRONG),
    (CK, 'fix', "Change the checkpoint interval from 1200 to 1000 steps so it doesn't land on the bad step, and run past step 1200 to verify.",
     WRONG),
    (CK, 'fix', 'Move the file write out of the if rank == 0 so every rank writes the checkpoint, and keep the gather on rank 0; short timeout plus flight recorder.',
     WRONG),
    (CK, 'fix', '只让 rank 0 调用 gather，其他 rank 加一个 barrier 等它；timeout 设短，开 flight recorder。',
     WRONG),
    (CK, 'fix', 'Hoist the all_gather out of `if rank == 0` so all ranks call it, write only on rank 0. Short PG timeout + flight recorder dump, TORCH_DISTRIBUTED_DEBUG=DETAIL; save at step 10 to test.',
     RIGHT),
    (CK, 'fix', '让所有 rank 都调用 gather，只在 rank 0 写文件；或者用 torch.distributed.checkpoint 存分片 checkpoint。timeout 设短，开 flight recorder，超时 dump；先提前存一次 checkpoint 验证。',
     RIGHT),
    (CK, 'fix', "OK so the core problem is the gather is a collective and it lives inside the rank 0 branch, so the fix is to pull the gather out of that branch so that every rank calls it, and then only the actual torch.save stays under if rank == 0. Alternatively you'd switch to a sharded checkpoint where each rank writes its own piece. For next time, I'd keep the process group timeout at a few minutes, not the default, and turn on the flight recorder with dump on timeout, and I'd run a smoke test with TORCH_DISTRIBUTED_DEBUG=DETAIL which checks the collectives match. And verify it by checkpointing at step 5 and running past it.",
     RIGHT),
    (CK, 'fix', 'Use torch.distributed.checkpoint: every rank writes its own shard, so there is no rank-0-only collective. Run CI once with TORCH_DISTRIBUTED_DEBUG=DETAIL to catch mismatched collectives, and keep the timeout short with the flight recorder on.',
     RIGHT),
    (CK, 'fix', 'gather 挪到 if rank == 0 外面，all ranks call it, 只有写文件留在 rank 0。timeout 调小到几分钟 + flight recorder dump，CI 里跑一遍 checkpoint 逻辑。',
     RIGHT),
    (CK, 'fix', '把写文件挪出 if rank == 0，每个 rank 都写 checkpoint，gather 还在 rank 0 上不动；timeout 设短。',
     WRONG),
    (CK, 'fix', 'Keep the gather on all ranks and only the write on rank 0: move the all_gather out of the if. Short timeout, flight recorder on.',
     RIGHT),
    (CK, 'fix', '让所有 rank 都调用 gather 而写文件留在 rank 0；timeout 设短，开 flight recorder，提前存一次 checkpoint 验证。',
     RIGHT),
]


@pytest.mark.parametrize(("scenario", "step", "answer", "right"), CASES)
def test_hand_written_near_misses_and_right_answers(scenario, step, answer, right):
    assert grade(library().interview.scenarios[scenario].model, answer, step, 0).correct is right
