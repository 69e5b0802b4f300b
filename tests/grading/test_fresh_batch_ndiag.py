"""Lab diagnoses written by hand for the tuning misses of the s33 fresh labelled batches (hang labs;
none copied from the labelled benchmark): a sentence ended inside its code span, a rank cut off at its
comma after a preposition ("…, from rank 0"), an aside's tail before the next rank, a fix said first
or in words ("The fix first: …", "To fix it I would …"), "they" for the others just named, an error
message or stack quoted as evidence, a count of collectives ("has only 3 all-reduces"), and the
rubric's particular phrasings (wrong fixes: a larger memory limit, empty_cache, padding the documents); right ones and wrong ones beside each. Each case: (lab, answer, right)."""

from __future__ import annotations

import pytest

from tests.grading.diagnosing import diagnose

R, W = True, False

READER = [
 # a sentence ended inside its code span
 ('long-batch', 'Root cause: rank 1, `torch.OutOfMemoryError: CUDA out of memory (simulated). Tried to allocate 0.58 MiB. GPU 1 has a total capacity of 0.39 MiB.` Ranks 0, 2, 3 wait in the gradient all_reduce in backward at train.py:50. Its batch holds a 600-token document and make_batch pads the batch to it. Fix: cut every document to cfg.max_len.', R),
 ('long-batch', 'Root cause: rank 2, `torch.OutOfMemoryError: CUDA out of memory (simulated). GPU 2 has a total capacity of 0.39 MiB.` Ranks 0, 1, 3 wait in the gradient all_reduce in backward at train.py:50. Its batch holds a 600-token document and make_batch pads the batch to it. Fix: cut every document to cfg.max_len.', W),
 # a rank after a preposition, cut off at its comma, is the object
 ('pp-sendrecv', "Rank 0 calls recv first, from rank 1. Rank 1 also calls recv first, from rank 0. Each waits for the other's send, so both sit in recv at train.py:109 in sync_tied_embedding, because both receive before they send.", R),
 ('pp-sendrecv', "Rank 0 is stuck in send, to rank 1. Rank 1 is in recv, from rank 0. Rank 0's send never completes because rank 1 receives before it sends.", W),
 # the tail of an aside is no bare subject
 ('exit-hang', 'still there: rank 1 (pid 4242, --upload-rank 1), rank 0 exited 0. its non-daemon uploader thread waits in queue.get and the interpreter joins it at exit. close() is only called on the error path, so the stop item is never queued. fix: call uploader.close() in a finally block.', R),
 ('exit-hang', 'still there: rank 0 (pid 4242, --upload-rank 1), rank 1 exited 0. its non-daemon uploader thread waits in queue.get and the interpreter joins it at exit. close() is only called on the error path, so the stop item is never queued. fix: call uploader.close() in a finally block.', W),
 # a fix said in words, or first
 ('pp-sendrecv', 'Both ranks sit in recv at train.py:109 in sync_tied_embedding, because each calls recv before its send, so both receive first. To fix it I would order the pair by rank, rank 0 sending first and rank 1 receiving first.', R),
 ('pp-sendrecv', 'Rank 0 sits in send at train.py:109 and rank 1 in recv, because rank 1 receives first. To fix it I would order the pair by rank, rank 0 sending first and rank 1 receiving first.', W),
 ('checkpoint-rank0', 'The fix first: every rank calls data_positions, only rank 0 writes the file. Here is what happened: rank 0 waits in all_gather in data_positions under save_checkpoint, and ranks 1-3 went on and wait in the gradient all-reduce in backward. Only rank 0 calls the gather.', R),
 # "they": the others named just before as what the rank waits for
 ('checkpoint-rank0', 'Rank 0 posted the all_gather in data_positions and waited for the other three. They had skipped the body of save_checkpoint and sit in the gradient all-reduce of the next backward. Only rank 0 calls the gather, inside save_checkpoint.', R),
 ('checkpoint-rank0', 'Rank 0 posted the all_gather in data_positions and waited for the other three. They sit in the all_gather in data_positions too. The gather hangs because torch.save is slow.', W),

 # quoted evidence places its own rank only; a count of collectives is no place
 ('stalled-loader', 'rank 0 raised "Timed out waiting 3000ms for recv operation" in loss.backward(), the gradient all-reduce at train.py:127. rank 1 has only 3 all-reduces: its main thread waits in the DataLoader for its first batch. The background write holds the lock while the workers are forked, so each worker inherits the lock held. Fix: copy the cache under the lock and write the copy without it.', R),
 ('stalled-loader', 'rank 1 raised "Timed out waiting 3000ms for recv operation" in loss.backward(), the gradient all-reduce at train.py:127. rank 0 has only 3 all-reduces: its main thread waits in the DataLoader for its first batch. The background write holds the lock while the workers are forked, so each worker inherits the lock held. Fix: copy the cache under the lock and write the copy without it.', W),
 ('stalled-loader', 'rank 0 waits in the gradient all-reduce in backward (train.py:127). py-spy on rank 1: "MainThread (idle) Queue.get, _BaseDataLoaderIter.__next__, main (train.py:127)", so rank 1 is stuck getting its first batch. The background write holds the lock while the workers are forked, so each worker inherits the lock held. Fix: copy the cache under the lock and write the copy without it.', R),
 ('checkpoint-rank0', 'rank 0 is stuck, its stack reads "dist.all_gather in data_positions (train.py:42) from save_checkpoint"; ranks 1-3 wait in the gradient all-reduce of the next backward. Only rank 0 calls the gather.', R),
 # a count of ranks as its own clause's subject, after a part placed alone
 ('group-order', "rank 1's grads all_reduce in average_gradients is on pg 2, the others' on pg 1, and all four time out at train.py:70. On rank 1 the MetricsWriter creates the metrics group before the grads group, so its grads group is another process group than the others'. Fix: every rank creates grads, then metrics, and the writer is handed the metrics group.", R),
 ('group-order', "rank 1 waits in the all_reduce in average_gradients on pg 2. The others wait in the broadcast. On rank 1 the MetricsWriter creates the metrics group before the grads group, so its grads group is another process group than the others'. Fix: every rank creates grads, then metrics, and the writer is handed the metrics group.", W),
 # a fix said first, then the story with no label of its own: the fix is its own sentence
 ('stalled-loader', "Fix first: never hold the cache lock across the write. Copy the tokens under the lock and write the copy without it. Rank 0 waits in the gradient all-reduce in backward; rank 1 waits in its DataLoader for the next batch, because its workers were forked while the background write held the lock, so each worker inherits the lock held.", R),
 ('stalled-loader', "Fix first: never hold the cache lock across the write. Copy the tokens under the lock and write the copy without it. Rank 1 waits in the gradient all-reduce in backward; rank 0 waits in its DataLoader for the next batch, because its workers were forked while the background write held the lock, so each worker inherits the lock held.", W),
 ('collective-order', "The fix is to put both branches in one order: everyone gathers first, then rank 0 broadcasts. Rank 0 waits in broadcast in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens, because the two branches call the collectives in opposite orders.", R),
]

RUBRIC = [
 # the rubric's own phrasings (checkpoint-rank0, crashed-rank, gather-sizes, collective-order, exit-hang, stalled-loader)
 ('checkpoint-rank0', 'rank 0 waits in all_gather in data_positions; ranks 1-3 wait in the gradient all-reduce in backward. save_checkpoint sends only rank 0 into data_positions.', R),
 ('checkpoint-rank0', 'rank 0 waits in all_gather in data_positions; ranks 1-3 wait in the gradient all-reduce in backward. save_checkpoint sent not only rank 0 but every rank into data_positions.', W),
 ('crashed-rank', "Rank 0 died first of OutOfMemoryError at step 5; ranks 1-3 were waiting for it in the DDP all_reduce. It is the predictions list: rank 0 keeps every step's logits, so its memory grows. Fix: give it more room with --device-memory-kib 640.", W),
 ('crashed-rank', "Rank 0 died first of OutOfMemoryError at step 5; ranks 1-3 were waiting for it in the DDP all_reduce. It is the predictions list: rank 0 keeps every step's logits, so its memory grows. Fix: call torch.cuda.empty_cache() after every step.", W),
 ('crashed-rank', "Rank 0 died first of OutOfMemoryError at step 5, it needs more memory than the device has; ranks 1-3 were waiting for it in the DDP all_reduce. It is the predictions list: rank 0 keeps every step's logits, so its memory grows until --device-memory-kib is used up. Fix: keep only the count of right predictions and of real tokens.", R),
 ('gather-sizes', "The root-cause rank died of SIGABRT inside gloo's all_gather at train.py:62. Each rank skips the documents shorter than min_tokens, so the ranks scored different numbers of documents and pass tensors of different sizes to all_gather. Fix: pad every rank's losses to the max_len of the documents.", W),
 ('gather-sizes', "The root-cause rank died of SIGABRT inside gloo's all_gather at train.py:62. Each rank skips the documents shorter than min_tokens, so the ranks scored different numbers of documents and pass tensors of different sizes to all_gather. Fix: all_gather the counts first, pad each rank's losses to the largest count, gather, then trim each part back.", R),
 ('gather-sizes', "The root-cause rank died of SIGABRT in gloo. The loss of a document is a tensor as long as the document, so the ranks pass tensors of different sizes to all_gather and the counts differ. Fix: gather the counts first, pad to the max, gather, trim.", W),
 ('gather-sizes', "The root cause is rank 2: its exit is a signal, not an exit code with a traceback; the others got a gloo error in all_gather at train.py:62. The ranks scored different numbers of documents (short ones skipped), so they pass tensors of different sizes. Fix: gather the counts first, pad to the largest count, gather, trim.", R),
 ('gather-sizes', "The root cause rank exited with a Python traceback, not a signal; the others got a gloo error in all_gather at train.py:62. The ranks scored different numbers of documents (short ones skipped), so they pass tensors of different sizes. Fix: gather the counts first, pad to the largest count, gather, trim.", W),
 ('collective-order', "rank 0 waits in broadcast in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens. The two branches call the collectives in opposite orders. Fix: gather the counts on every rank first, let rank 0 compute the rate, then broadcast it from rank 0.", R),
 ('collective-order', "rank 0 waits in broadcast in sync_schedule; ranks 1-3 wait in all_gather in gather_tokens. The two branches call the collectives in opposite orders. Fix: on every rank, broadcast first from rank 0, then gather the counts.", W),
 ('collective-order', "rank 0 停在 sync_schedule 的 broadcast，rank 1-3 停在 gather_tokens 的 all_gather，两个分支调用 collective 的顺序相反。修法：每个 rank 先 gather 各自的 token 数，由 rank 0 算学习率，再广播。", R),
 ('exit-hang', "Rank 1's process is still there after training done, rank 0 exited with 0. Its main thread waits in Thread.join for the non-daemon checkpoint-uploader thread, blocked in queue.get. close() is only called when the loop raises, so the None never comes. Fix: call uploader.close() in a finally block.", R),
 ('exit-hang', "Rank 1's process is still there after training done, rank 0 exited with 0. Its main thread waits in Thread.join for the non-daemon checkpoint-uploader thread, blocked in queue.get. close() is called when the loop ends, but the upload is too slow. Fix: call uploader.close() in a finally block.", W),
 ('stalled-loader', "rank 0 waits in the gradient all-reduce in backward; rank 1 waits in its DataLoader for the next batch. The workers were forked during that write, copying the lock in its locked state. Fix: copy the cache under the lock, write the copy without it.", R),
 ('stalled-loader', "rank 0 waits in the gradient all-reduce in backward; rank 1 waits in its DataLoader for the next batch. The workers were forked after the write ended, so the lock was free; the disk is just slow. Fix: copy the cache under the lock, write the copy without it.", W),
 ('stalled-loader', "rank 0 waits in the gradient all-reduce in backward; rank 1 waits in its DataLoader for the next batch. save_in_background takes the lock and releases it in the writer thread; epoch 1's workers fork while it is held, so each child has a locked lock and no thread to unlock it. Fix: snapshot under the lock, write without it.", R),
 ('timeout-at-item', "Rank 1's batch had document 21 cut, so only rank 1 issued funcol.all_reduce of the cut tokens in Metrics.add; that call returned at once. At the next log the others' stats all_reduce paired with it and every rank timed out at .item(). Fix: keep the cut count in a local sum and all_reduce loss, tokens and cut together in log on every rank.", R),
 ('timeout-at-item', "Rank 1's batch had document 21 cut, so only rank 1 issued funcol.all_reduce of the cut tokens in Metrics.add; the .item() is slow on rank 1 because it waits for the GPU. Fix: keep the cut count in a local sum and all_reduce loss, tokens and cut together in log on every rank.", W),
]


@pytest.mark.parametrize(("lab", "answer", "right"), READER + RUBRIC)
def test_fresh_batch_diagnoses(lab, answer, right):
    assert diagnose(lab, answer)["correct"] is right
