"""The open and clarify rubrics of the new question files, tried as candidates answer (issue 20).

Hostile user first: for every open or clarify step of questions/interview-topics-2.yaml and
questions/design-scenarios.yaml, a strong answer in English and one in Chinese (written as a
candidate would say them, not copied from the model answer) must pass, and a wrong one — the
trap the rubric's contradiction names, a bare list of terms, or an answer beside the point — must
not. One grading per case, a few milliseconds each.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
import yaml

from tutor.content import load
from tutor.grading.dispatch import grade


# libyaml's loader where PyYAML has it: the pure-Python one spent most of a step-listing test's 9 s.
_LOADER = yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader


@lru_cache(maxsize=1)
def bank():
    return load().questions


CASES = [
    ('ring-allreduce-bandwidth-optimal', None, 'It is a reduce-scatter followed by an all-gather, each taking n-1 steps. Every GPU ends up sending about twice the buffer, 2(n-1)/n times S, which does not grow with n. Only the latency term grows with the ring size, so tiny messages are latency bound and a tree is better there.', True),
    ('ring-allreduce-bandwidth-optimal', None, '先做 reduce scatter 再做 all gather，每张卡发送的数据约 2S，和 n 无关；延迟项随 n 增长，小消息用 tree 更好。', True),
    ('ring-allreduce-bandwidth-optimal', None, 'reduce scatter all gather bandwidth latency tree ring', False),
    ('ring-allreduce-bandwidth-optimal', None, 'It is a reduce-scatter and an all-gather, but the bandwidth cost grows linearly with the number of GPUs.', False),
    ('ddp-bucket-overlap-explained', None, 'DDP puts gradients into buckets of about 25 MiB in reverse order of the parameters, and launches the all-reduce of a bucket during backward as soon as it is ready. The last bucket is always exposed because there is nothing left to overlap with, and overlap is not free since NCCL takes SMs.', True),
    ('ddp-bucket-overlap-explained', None, 'gradient 分桶，每个 bucket 约 25 MiB，算好就发 all reduce，和 backward 重叠；最后一个 bucket 总是露出来，因为后面没有计算可以遮挡。', True),
    ('ddp-bucket-overlap-explained', None, 'DDP all-reduces all the gradients in one shot after backward finishes.', False),
    ('dynamic-loss-scaling-explained', None, "You multiply the loss by a big factor before backward so that small gradients don't underflow in fp16, and unscale before the step. If you see inf or nan you skip the step and halve the scale. BF16 does not need it because it has the same exponent range as fp32.", True),
    ('dynamic-loss-scaling-explained', None, 'backward 之前把 loss 乘一个大系数，防止 fp16 下溢；出现 inf 就跳过这一步、系数减半。bf16 不需要，它和 fp32 一样的指数范围。', True),
    ('dynamic-loss-scaling-explained', None, 'Scale the loss to avoid underflow, and BF16 also needs loss scaling just like fp16.', False),
    ('straggler-hunt', None, 'Compare the compute time per rank before the collectives, since step time is equal everywhere. On the slow node look at clocks, throttling, ECC errors and PCIe link width with nvidia-smi. Then run nccl-tests between node pairs and drain the node.', True),
    ('straggler-hunt', None, '比较每个 rank 的计算时间，找出慢的那台；再看它的降频、ECC、PCIe 链路宽度；然后跑 nccl tests，把它摘掉。', True),
    ('straggler-hunt', None, 'The network must be the cause, so I would call the network team.', False),
    ('hang-first-minutes', None, 'Run py-spy dump on every rank and compare the stacks to find the odd one out, the rank in a different collective or gone. Then read the flight recorder for the last collective each rank entered.', True),
    ('hang-first-minutes', None, '用 py-spy 把每个 rank 的调用栈都 dump 下来，找出和别人不一样的那个 rank，再看 flight recorder 里最后一个 collective。', True),
    ('hang-first-minutes', None, 'Looking at rank 0 only is enough; its log shows the problem.', False),
    ('checkpoint-what-to-save', None, "Save the master weights and the Adam optimizer state, the data loader position so data isn't repeated, the lr scheduler and RNG state of every rank. And test the restore regularly by resuming and comparing the loss curve.", True),
    ('checkpoint-what-to-save', None, '要存 master weight 和 optimizer state，data loader 的位置，学习率调度和随机数状态；还要定期演练恢复。', True),
    ('checkpoint-what-to-save', None, 'Just the model weights, that is all a checkpoint needs.', False),
    ('resumable-loader', None, 'Make the shuffle order a function of the seed and epoch, give each rank disjoint shards with a DistributedSampler and drop_last, and save the samples consumed per rank in the checkpoint so we skip to that position on resume.', True),
    ('resumable-loader', None, '用固定种子和 epoch 决定顺序，每个 rank 读互不重叠的 shard；把已消费的样本数存进 checkpoint，恢复时跳到那个位置。', True),
    ('resumable-loader', None, 'Restarting the epoch from the beginning is fine after a crash.', False),
    ('moe-memory-vs-flops', None, 'No. MoE saves flops per token, not memory: all experts stay resident with their weights, grads and Adam state, so 8x the experts needs more GPUs with expert parallelism. It also adds all-to-all and needs a larger batch.', True),
    ('moe-memory-vs-flops', None, '不对，MoE 省的是计算，不省显存：所有 expert 都常驻显存，expert 多 8 倍就要更多卡做 expert parallel。', True),
    ('moe-memory-vs-flops', None, 'Yes, MoE saves memory because tokens use only some experts.', False),
    ('training-long-context-memory', None, 'Activations grow linearly with sequence length even with FlashAttention, so 16x more at 128K. Context parallelism splits the sequence across GPUs, and attention flops per token grow too. There is no KV cache in training.', True),
    ('training-long-context-memory', None, 'activation 随序列长度线性增长，FlashAttention 只去掉了 s² 那部分；用 context parallel 把序列切开。', True),
    ('training-long-context-memory', None, 'FlashAttention solves it, memory stays the same at 128K.', False),
    ('rl-async-staleness', None, 'Generation overlaps with the update so both sets of GPUs stay busy. The cost is that samples come from an older policy, off-policy. Bound the lag to one or two versions and use importance weights, and recompute log probs on the trainer.', True),
    ('rl-async-staleness', None, '生成和更新重叠，两边的卡都不闲着；代价是样本来自旧的 policy，是 off policy；要限住版本差，用 importance weight 修正。', True),
    ('rl-async-staleness', None, 'Async rollout is still on policy, there is no staleness.', False),
    ('layout-order-of-decisions', None, 'First make the model fit in memory: TP inside the node, then PP across nodes, with ZeRO. The rest is DP, limited by the global batch, plus CP for long sequences. Last tune throughput and measure MFU. The heaviest traffic goes on the fastest links.', True),
    ('layout-order-of-decisions', None, '先让模型放得下：先定 tp 再定 pp，配合 zero；剩下的给 dp，长序列开 cp；最后调吞吐、量 mfu。', True),
    ('layout-order-of-decisions', None, 'I would decide DP first and then see what else is needed.', False),
    ('clarify-mfu-claim', None, 'Which peak did you use, the 989 dense BF16 or the sparse one? How are the flops counted, 6N with attention, and is recompute excluded? How many GPUs and what sequence length? Measured end to end over many steps?', True),
    ('clarify-mfu-claim', None, '你们用的哪个峰值，dense 还是 sparse？flops 怎么算的，有没有算 attention？多少卡？', True),
    ('clarify-mfu-claim', None, "That sounds great, let's buy it.", False),
    ('clarify-compute-budget', None, 'Which GPUs do we have and what MFU have we reached before? Will the model be served at scale or is it research? How much data do we have? Is the month wall clock with failures and restarts?', True),
    ('clarify-compute-budget', None, '什么卡，以前做到多少 mfu？模型会上线服务吗？有多少可用数据？', True),
    ('clarify-nccl-timeout', None, 'Which rank timed out first and in which collective, is there a flight recorder dump? Does it die at the same step every run? Did any rank OOM or log an exception first? Does six hours match the epoch end or a checkpoint?', True),
    ('clarify-nccl-timeout', None, '哪个 rank 最先超时，卡在哪个 collective？每次都死在同一步吗？有没有 rank 先 oom？', True),
    ('clarify-data-starved', None, 'How many tokens per second must the loader deliver and how many does it? Is the data pre-tokenized or tokenized on the fly? How many CPU cores and workers per GPU? Is it read from local NVMe or a network filesystem?', True),
    ('clarify-data-starved', None, 'loader 每秒要供多少 token？数据是提前 tokenize 的还是现场 tokenize？每卡几个 worker？', True),
    ('clarify-oom-step-one', None, 'How many parameters, which optimizer and precision? Plain DDP or ZeRO or FSDP? Does it OOM in forward, backward or the optimizer step? What micro batch and sequence length?', True),
    ('clarify-oom-step-one', None, '多少参数，什么 optimizer？纯 ddp 还是 fsdp？在哪 oom，forward 还是 backward？', True),
    ('design-moe-deepseek-scale', 'clarify', 'How many parameters in total and how many active per token? How many experts and what top-k? How many GPUs and how big is the NVLink domain? How many tokens?', True),
    ('design-moe-deepseek-scale', 'tradeoffs', 'Every MoE layer needs two all-to-alls forward, dispatch and combine, and two backward. EP folds into DP so no extra GPUs, and we overlap the all-to-all with compute. Balance load with an aux loss or a per-expert bias, and use a capacity factor for overflow.', True),
    ('design-moe-deepseek-scale', 'tradeoffs', '每个 MoE 层 forward 有两次 all to all（dispatch 和 combine），backward 还有两次；EP 折叠进 dp；用 aux loss 做负载均衡，用 capacity factor 限上限。', True),
    ('design-moe-deepseek-scale', 'tradeoffs', 'The experts are synced with an all-reduce.', False),
    ('design-long-context-128k', 'cp-choices', 'Queries stay and the keys and values are passed around a ring, overlapped with attention, or all-gathered like Llama 3. Split the sequence in 2 CP chunks zig-zag so each rank gets the same causal work. Packed docs need a document mask.', True),
    ('design-long-context-128k', 'cp-choices', 'K 和 V 绕 ring 传，和 attention 重叠，或者 all gather kv；序列切成 2 cp 块做 zigzag，负载均衡。', True),
    ('design-long-context-128k', 'cp-choices', 'Pass K and V around the ring; contiguous chunks are balanced anyway.', False),
    ('design-finetune-70b-deadline', 'plan', 'Compare the hours with the deadline and leave margin for restarts. FSDP over the 64 GPUs fits the state. If it does not fit, use LoRA, fewer tokens or more GPUs, and checkpoint often.', True),
    ('design-finetune-70b-deadline', 'plan', '先和截止日期比，留出余量给重启；开 fsdp 就放得下；来不及就用 lora、减少 token 或者加卡。', True),
    ('design-finetune-70b-deadline', 'plan', 'Use plain DDP, it is simplest.', False),
    ('design-rl-separate-gpus', 'sync-design', "Gather the FSDP shards, cast to bf16, reshard to the engine's TP layout, broadcast to every replica and invalidate the KV cache. Bound the staleness with importance weights, handle the long tail with partial rollouts, and recompute log probs on the trainer.", True),
    ('design-rl-separate-gpus', 'sync-design', 'gather 分片，转 bf16，按推理引擎的 tp 布局重新切，广播，再清掉 kv cache；异步会过时，要限住版本差。', True),
    ('design-rl-separate-gpus', 'sync-design', 'The weight sync is just a copy of the weights, a simple memcpy.', False),
    ('design-rl-separate-gpus', 'clarify', 'PPO or GRPO, so how many model copies? How long are the rollouts? How stale may the policy be? How big is the model and how many GPUs on each side?', True),
    ('clarify-compute-budget', None, 'GPUs MFU serving data wall clock restarts', False),
    ('clarify-nccl-timeout', None, 'Just raise the timeout to two hours.', False),
    ('clarify-oom-step-one', None, 'Reduce the batch size.', False),
    ('ring-allreduce-bandwidth-optimal', None, 'The ring all-reduce is not a reduce-scatter and an all-gather, and each GPU sends data that grows with n.', False),
    ('hang-first-minutes', None, 'Increase the NCCL timeout and restart the job.', False),
    ('moe-memory-vs-flops', None, 'MoE does not save memory; all the experts are stored in memory, so it needs more GPUs with expert parallelism, plus all-to-all traffic.', True),
    ('design-long-context-128k', 'clarify', 'Which model and how big? What sequence length and global batch? Real long documents or packed? Which GPUs?', True),
    ('design-finetune-70b-deadline', 'clarify', 'How many tokens and epochs? When is the deadline? Full fine-tune or LoRA? Which GPUs?', True),
]


@pytest.mark.parametrize(("qid", "step", "answer", "right"), CASES,
                         ids=[f"{q}-{s or 'main'}-{i}" for i, (q, s, _, _) in enumerate(CASES)])
def test_rubric_reads_the_answer_as_an_interviewer_would(qid, step, answer, right):
    verdict = grade(bank()[qid].model, answer, step)
    assert verdict.correct is right, (verdict.score, verdict.feedback["en"])


def test_every_new_open_and_clarify_step_is_tried_both_ways():
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2] / "questions"
    steps = set()
    for name in ("interview-topics-2.yaml", "design-scenarios.yaml"):
        for question in yaml.load((root / name).read_text(encoding="utf-8"), Loader=_LOADER):
            for step in question["steps"]:
                if step["kind"] in ("open", "clarify"):
                    steps.add((question["id"], step.get("id") if len(question["steps"]) > 1 else None))
    passing = {(q, s) for q, s, _, right in CASES if right}
    assert steps <= passing, f"steps without a passing case: {sorted(steps - passing)}"
    failing_open = {(q, s) for q, s, _, right in CASES if not right}
    untried = {(q, s) for q, s in steps if (q, s) not in failing_open}
    # every open step (clarify steps ask questions, so a wrong answer is simply not asking) has a wrong case
    open_steps = set()
    for name in ("interview-topics-2.yaml", "design-scenarios.yaml"):
        for question in yaml.load((root / name).read_text(encoding="utf-8"), Loader=_LOADER):
            for step in question["steps"]:
                if step["kind"] == "open":
                    open_steps.add((question["id"], step.get("id") if len(question["steps"]) > 1 else None))
    assert not (open_steps & untried), f"open steps without a wrong case: {sorted(open_steps & untried)}"


def test_a_not_a_question_in_chinese_is_not_a_negation():
    verdict = grade(bank()["clarify-compute-budget"].model, "要不要上线服务？", None)
    assert "serving" in verdict.details["covered"]


def test_every_new_model_answer_passes_its_own_rubric_in_both_languages():
    """A model answer its own rubric rejects would teach the learner that the grader is wrong; the
    first run of this test found 21 (bare-list phrasing, a phrase split by 'then', 要不要)."""
    from pathlib import Path

    import yaml

    from tutor.interview.scenarios import Library

    root = Path(__file__).resolve().parents[2]
    files = ["questions/interview-topics-2.yaml", "questions/design-scenarios.yaml", "interview/led.yaml",
             "interview/behavioural.yaml", "interview/followups-tradeoffs.yaml", "interview/pitch.yaml"]
    library = Library.installed()
    failing = []
    for name in files:
        for entry in yaml.load((root / name).read_text(encoding="utf-8"), Loader=_LOADER):
            if "id" not in entry:
                continue
            question = library.question(entry["id"])
            for step in question.steps:
                if step.kind not in ("open", "clarify"):
                    continue
                for lang in ("en", "zh"):
                    verdict = grade(question, getattr(step.model_answer, lang),
                                    step.id if len(question.steps) > 1 else None)
                    if not verdict.correct or verdict.score < 1:
                        failing.append(f"{question.id}/{step.id} {lang}: {verdict.details['missing']}")
    assert not failing, failing


def test_terms_cut_by_full_stops_are_not_an_answer():
    verdict = grade(bank()["ddp-bucket-overlap-explained"].model, "Buckets. Reverse order. Last bucket. Takes SMs.")
    assert not verdict.correct


def _converted_points():
    """Every open and clarify point of the two new question files, with its step (None for one-step questions)."""
    for qid, loaded in bank().items():
        if loaded.path.name not in ("interview-topics-2.yaml", "design-scenarios.yaml"):
            continue
        question = loaded.model
        for step in question.steps:
            if step.kind in ("open", "clarify"):
                for point in step.points:
                    yield question, (step.id if len(question.steps) > 1 else None), step, point


def test_every_new_point_is_a_claim_its_own_statement_makes():
    """A point's own rubric text, said as the answer, states that point in both languages: the claims
    read what the rubric itself says (the first run found the points whose concepts missed their text)."""
    missed = []
    for question, step_id, step, point in _converted_points():
        for lang in ("en", "zh"):
            verdict = grade(question, getattr(point.text, lang), step_id)
            if point.id not in verdict.details["covered"]:
                missed.append(f"{question.id}/{step.id}/{point.id} {lang}")
    assert not missed, missed


def test_every_new_point_denied_is_not_stated():
    """Hostile user: each open point's first claim said in the negative ("Not bucket reverse.",
    "不是 bucket 倒序。") earns nothing for it; a claim that still counts when denied cannot tell the
    answer from its opposite."""
    counted = []
    for question, step_id, step, point in _converted_points():
        if step.kind != "open" or not point.claims:
            continue
        terms = [concept for concept in point.claims[0]]
        for answer in (f"It is not true that {' '.join(c.en[0] for c in terms)}.",
                       f"并不是{''.join(c.zh[0] for c in terms)}。"):
            verdict = grade(question, answer, step_id)
            if point.id in verdict.details["covered"]:
                counted.append(f"{question.id}/{step.id}/{point.id}: {answer}")
    assert not counted, counted


def _buzzword_answers(lang):
    """The subjects of the rubric's claims run together (the first two terms of the first concept of
    every claim: "bucket buckets last bucket inf nan …"), with and without commas: the topics named,
    the relations that make them a claim left out."""
    steps: dict[tuple, list] = {}
    for question, step_id, step, point in _converted_points():
        steps.setdefault((question.id, step_id), [question, step, []])[2].append(point)
    for (qid, step_id), (question, step, points) in steps.items():
        terms = list(dict.fromkeys(term for point in points for claim in point.claims
                                   for term in getattr(claim[0], lang)[:2]))
        for answer in (" ".join(terms), ", ".join(terms)):
            yield question, step_id, step, answer


def _passing(answers):
    return [f"{question.id}/{step_id}: {answer}" for question, step_id, _, answer in answers
            if grade(question, answer, step_id).correct]


def test_every_new_step_answered_with_its_buzzwords_fails():
    """Hostile user: naming the rubric's topics without saying anything about them answers no open or
    clarify step, in either language (the first run passed dynamic-loss-scaling-explained on bare
    'inf, nan' phrases, now claims with their relation)."""
    assert not _passing([item for lang in ("en", "zh") for item in _buzzword_answers(lang)])


@pytest.mark.parametrize("qid", ["design-long-context-128k", "design-moe-deepseek-scale"])
def test_a_run_of_chinese_question_terms_answers_no_clarify_step(qid):
    """A question word in a chunk ('什么模型', '什么卡') does not make a list of terms a statement: a bare
    list earns nothing, and the feedback says why."""
    verdict = grade(bank()[qid].model, "什么模型 序列长度 长文档 什么卡 模型 什么 序列 多长 数据", "clarify")
    assert not verdict.correct and verdict.score == 0 and verdict.details["bare_list"], verdict.details


@pytest.mark.parametrize(("qid", "step", "answer", "point"), [
    ("design-finetune-70b-deadline", "plan", "It needs at least 2B tokens, and FSDP fits the state in time.",
     "compare-with-deadline"),
    ("design-finetune-70b-deadline", "plan", "至少要 20 亿 token，fsdp 放得下。", "levers"),
    ("design-rl-separate-gpus", "sync-design", "The trainer waits a long time for the weights to arrive.", "long-tail"),
])
def test_a_one_word_concept_does_not_read_a_claim_into_an_aside(qid, step, answer, point):
    """'fits', the 少 of 至少 and 'long' were concepts on their own and stated these points (the first
    answer passed the step) until the claims named the relation ('fits the deadline', 少训, 'long tail')."""
    assert point not in grade(bank()[qid].model, answer, step).details["covered"]
