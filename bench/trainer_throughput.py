"""One GRPO update on an identical batch: termrl's ``Trainer.update`` vs TRL's ``GRPOTrainer``.

What is measured
----------------
The optimisation step alone -- no generation, no reward, no data loading. Both sides get the same
SmolLM2-135M-Instruct (the embedded GGUF, float32, CPU), the same batch and the same loss:

* batch: ``groups x group_size`` sequences (default 2 x 4) of ``prompt_len + completion_len``
  (default 256 + 128) real token ids (windows of this repository's README and sources, tokenized
  with the model's tokenizer); random rewards turned into group-normalised advantages with
  ``termrl.train.grpo.group_advantages``; old log-probs computed once by each side with its own
  model before timing, so the ratio is 1, as in on-policy GRPO;
* loss: clipped surrogate with clip-low 0.2 / clip-high 0.28, token-mean aggregation over the
  batch (termrl ``token_mean``, one mini-batch; TRL ``loss_type="dapo"``, which divides by the
  number of completion tokens of the batch -- identical here to ``"bnpo"``), no KL (TRL
  ``beta=0``), temperature 1, AdamW lr 2e-5, betas (0.9, 0.99), no weight decay, grad-norm
  clipping at 1.0.

termrl: the real ``Trainer.update(samples)`` on a Trainer built with ``Trainer.__new__`` (model,
optimizer and config set as ``Trainer.__init__`` sets them; no Docker, no tasks). Each group's
sequences run as one micro-batch on one copy of their shared prompt (``termrl.train.forward``);
the ``termrl-1seq`` row turns that off (one full forward/backward per sequence) to show what it is
worth. Both sides see the same fact: a GRPO group's G sequences share their prompt (that is what
a group is); TRL's batch simply does not use it. The gain shrinks as the prompt's share of each
sequence does (try ``--prompt-len 64 --completion-len 320``).

TRL: ``GRPOTrainer`` built with a dummy dataset and reward function; one update is what its
training loop does per step with ``gradient_accumulation_steps=1``: ``compute_loss(model, inputs)``
on the dict ``_generate_and_score_completions`` would return, ``backward``, grad-norm clipping,
``optimizer.step`` (TRL's own optimizer: ``create_optimizer``). Two TRL rows: gradient
checkpointing off (same compute as termrl), and on (TRL's default).

Each method runs in its own fresh process (spawned before any timing, one after the other, so
their memory figures do not mix); the parent then asks them for one update at a time, in rotating
order, so machine noise hits all alike. Per method: one warm-up update, then ``--n`` timed ones;
tokens/s = all tokens forwarded (prompt + completion, per sequence, once) / the median time.
Memory: resident set size right before the first update (model, trainer, batch loaded), the
high-water mark during the updates (``/proc/self/status`` VmHWM, reset before the first update),
their difference (the update's own memory: gradients, optimizer state, activations), and the
process's absolute peak (``ru_maxrss``, model loading included).

Run:
    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/trainer_throughput.py
Options: --n 3 --threads 2 --groups 2 --group-size 4 --prompt-len 256 --completion-len 128
         --methods termrl,termrl-1seq,trl,trl-ckpt
         --rollouts runs/learning/rollouts.jsonl --step 20: instead of text windows, the real
         episodes of one step of a training run (multi-turn: the model's turns are the trained
         tokens, tool observations between them are attended but carry no loss; for TRL that is
         its own multi-turn ``tool_mask``)
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import multiprocessing as mp
import os
import resource
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch

REPO = Path(__file__).resolve().parent.parent
METHODS = {
    "termrl": "termrl Trainer.update",
    "termrl-1seq": "termrl, one sequence per pass",
    "trl": "TRL GRPOTrainer, no grad ckpt",
    "trl-ckpt": "TRL GRPOTrainer, grad ckpt (default)",
}
LR, BETAS, WEIGHT_DECAY, MAX_GRAD_NORM = 2e-5, (0.9, 0.99), 0.0, 1.0
CLIP_LOW, CLIP_HIGH, TEMPERATURE = 0.2, 0.28, 1.0


@dataclass(frozen=True)
class Batch:
    tokens: list[torch.Tensor]
    """Per sequence: its token ids."""
    masks: list[torch.Tensor]
    """Per sequence: 1 for a model token (trained), 0 for prompt and observation tokens."""
    advantages: torch.Tensor
    """[B] group-relative advantages."""
    group_size: int
    """Sequences k * group_size ... (k + 1) * group_size - 1 form group k (they share a prompt)."""

    @property
    def n_tokens(self) -> int:
        return sum(len(t) for t in self.tokens)

    def split(self) -> tuple[list[torch.Tensor], list[torch.Tensor], list[torch.Tensor]]:
        """TRL's view: prompt = up to the first model token, completion = the rest (with its mask)."""
        from termrl.train.forward import first_target

        cuts = [first_target(m) for m in self.masks]
        return ([t[:c] for t, c in zip(self.tokens, cuts)], [t[c:] for t, c in zip(self.tokens, cuts)],
                [m[c:] for m, c in zip(self.masks, cuts)])


# -- shared setup -----------------------------------------------------------------------------


def load_model_and_tokenizer():
    """The embedded SmolLM2 GGUF in float32, loaded the way termrl's hf policy loads it."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from termrl.policies.model import resolve_model

    loc = resolve_model(None)
    kwargs = {"local_files_only": True, "gguf_file": loc.gguf_file}
    tokenizer = AutoTokenizer.from_pretrained(str(loc.directory), **kwargs)
    model = AutoModelForCausalLM.from_pretrained(str(loc.directory), dtype=torch.float32, **kwargs)
    # The GGUF is dequantized to float32 on load, but the model keeps the GGUF "quantizer" marks, and
    # transformers' Trainer refuses to fine-tune a model marked quantized. termrl trains it as is.
    model.is_quantized, model.hf_quantizer = False, None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    return model, tokenizer


def build_batch(tokenizer, groups: int, group_size: int, prompt_len: int, completion_len: int,
                seed: int = 0) -> Batch:
    """Windows of real text as prompts and completions; random rewards -> advantages."""
    from termrl.train.grpo import group_advantages

    sources = [REPO / "README.md", *sorted((REPO / "src" / "termrl").rglob("*.py"))]
    ids = tokenizer("\n".join(p.read_text() for p in sources), add_special_tokens=False)["input_ids"]
    width = prompt_len + completion_len
    if len(ids) < width + 1:
        raise ValueError(f"only {len(ids)} tokens of text to cut {width}-token windows from -- shorten "
                         "--prompt-len / --completion-len")
    gen = torch.Generator().manual_seed(seed)
    ids = torch.tensor(ids)
    rows, advantages = [], []
    for _ in range(groups):
        prompt_at = int(torch.randint(0, len(ids) - prompt_len, (1,), generator=gen))
        prompt = ids[prompt_at:prompt_at + prompt_len]  # a group shares its prompt
        for _ in range(group_size):
            at = int(torch.randint(0, len(ids) - completion_len, (1,), generator=gen))
            rows.append((prompt, ids[at:at + completion_len]))
        advantages.append(group_advantages(torch.rand(group_size, generator=gen)))
    return Batch([torch.cat([p, c]) for p, c in rows],
                 [torch.cat([torch.zeros(len(p)), torch.ones(len(c))]) for p, c in rows], torch.cat(advantages),
                 group_size)


def batch_from_rollouts(path: Path, step: int) -> Batch:
    """The episodes of one training step of a termrl run (``OUT/rollouts.jsonl``): real multi-turn
    sequences (prompt, then the model's turns interleaved with tool observations), advantages from
    their rewards; groups that lost an episode to an error are left out (TRL needs full groups)."""
    import json

    from termrl.train.grpo import group_advantages
    from termrl.train.trainer import sample_from_episode
    from termrl.types import episode_from_row

    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    groups: dict[str, list] = {}
    for row in rows:
        if row.get("step") == step:
            groups.setdefault(row["task"], []).append(episode_from_row(row))
    if not groups:
        raise SystemExit(f"{path}: no episodes of step {step} -- pick a step the run reached")
    size = max(len(g) for g in groups.values())
    tokens, masks, advantages = [], [], []
    for group in groups.values():
        samples = [sample_from_episode(r) if r.error is None else None for r in group]
        if len(group) < size or any(s is None for s in samples):
            continue
        tokens += [s.tokens for s in samples]
        masks += [s.mask for s in samples]
        advantages.append(group_advantages(torch.tensor([r.reward for r in group])))
    if not tokens:
        raise SystemExit(f"{path}: step {step} has no group whose {size} episodes all have model tokens")
    return Batch(tokens, masks, torch.cat(advantages), size)


# -- the two methods --------------------------------------------------------------------------


class _NoPolicy:
    """Stands in for HFPolicy: ``update`` only needs ``exclusive()`` (no generation runs here)."""

    @contextmanager
    def exclusive(self):
        yield


def termrl_update(model, tokenizer, batch: Batch, micro_batch_tokens: int | None = None):
    """A Trainer with exactly what ``Trainer.update`` reads; returns a no-arg update callable."""
    from termrl.train.config import TrainConfig
    from termrl.train.trainer import Sample, Trainer

    cfg = TrainConfig()
    cfg.agent.temperature = TEMPERATURE
    g, o = cfg.grpo, cfg.optim
    g.clip_low, g.clip_high, g.aggregation, g.kl_coef, g.mini_batches = CLIP_LOW, CLIP_HIGH, "token_mean", 0.0, 1
    g.group_size = batch.group_size
    if micro_batch_tokens is not None:
        g.micro_batch_tokens = micro_batch_tokens
    o.lr, o.betas, o.weight_decay, o.max_grad_norm = LR, list(BETAS), WEIGHT_DECAY, MAX_GRAD_NORM
    trainer = Trainer.__new__(Trainer)
    trainer.config, trainer.model, trainer.ref_model, trainer.policy = cfg, model, None, _NoPolicy()
    params = [p for p in model.parameters() if p.requires_grad]  # as Trainer.__init__ builds it
    trainer.optimizer = torch.optim.AdamW(params, lr=o.lr, weight_decay=o.weight_decay, betas=tuple(o.betas),
                                          fused=True)  # as Trainer.__init__ builds it

    samples = []
    model.eval()
    for k, (tokens, mask, adv) in enumerate(zip(batch.tokens, batch.masks, batch.advantages.tolist())):
        sample = Sample(tokens, mask, torch.zeros(len(tokens)), adv, group=f"group-{k // batch.group_size}")
        with torch.no_grad():  # the sampler's log-probs: the current model's (ratio 1)
            logp = trainer._logps(model, [sample], entropy=False)[0][0]
        sample.rollout_logp[1:][mask[1:].bool()] = logp  # _logps returns the model tokens' values only
        samples.append(sample)

    def update() -> dict[str, float]:
        stats = trainer.update(samples)
        return {"loss": stats["loss"], "grad_norm": stats["grad_norm"]}

    return update


def trl_update(model, tokenizer, batch: Batch, checkpointing: bool):
    """A GRPOTrainer and the inputs its generation step would hand to ``compute_loss``."""
    from trl import GRPOConfig, GRPOTrainer

    from datasets import Dataset

    prompts, completions, completion_masks = batch.split()
    b = len(prompts)
    # TRL's layout: prompts left-padded, completions right-padded, each with its mask.
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    prompt_ids = torch.full((b, max(len(p) for p in prompts)), pad, dtype=torch.long)
    prompt_mask = torch.zeros_like(prompt_ids)
    completion_ids = torch.full((b, max(len(c) for c in completions)), pad, dtype=torch.long)
    completion_mask = torch.zeros_like(completion_ids)  # 1 = a real token (attended), 0 = padding
    tool_mask = torch.zeros_like(completion_ids)  # TRL's multi-turn mask: 0 = tool output (no loss)
    for i, (p, c, m) in enumerate(zip(prompts, completions, completion_masks)):
        prompt_ids[i, prompt_ids.shape[1] - len(p):], prompt_mask[i, prompt_ids.shape[1] - len(p):] = p, 1
        completion_ids[i, :len(c)], completion_mask[i, :len(c)], tool_mask[i, :len(c)] = c, 1, m.long()
    args = GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="trl-bench-"), report_to="none", save_strategy="no", use_cpu=True,
        bf16=False, fp16=False, gradient_checkpointing=checkpointing,
        per_device_train_batch_size=b, gradient_accumulation_steps=1, num_generations=batch.group_size,
        max_completion_length=completion_ids.shape[1], temperature=TEMPERATURE,
        loss_type="dapo", beta=0.0, epsilon=CLIP_LOW, epsilon_high=CLIP_HIGH, num_iterations=1,
        learning_rate=LR, adam_beta1=BETAS[0], adam_beta2=BETAS[1], weight_decay=WEIGHT_DECAY,
        max_grad_norm=MAX_GRAD_NORM, seed=0,
    )
    trainer = GRPOTrainer(model=model, reward_funcs=lambda completions, **_: [0.0] * len(completions), args=args,
                          train_dataset=Dataset.from_dict({"prompt": ["unused"] * b}), processing_class=tokenizer)
    model = trainer.model
    if checkpointing:  # what transformers' training loop does before its first step
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=args.gradient_checkpointing_kwargs)
    trainer.current_gradient_accumulation_steps = 1  # set by the training loop per accumulation window
    optimizer = trainer.create_optimizer()
    inputs = {
        "prompt_ids": prompt_ids, "prompt_mask": prompt_mask,
        "completion_ids": completion_ids, "completion_mask": completion_mask,
        "advantages": batch.advantages, "num_items_in_batch": (completion_mask * tool_mask).sum(),
    }
    if not bool(tool_mask[completion_mask.bool()].all()):  # multi-turn: as TRL's tool-calling loop hands it
        inputs["tool_mask"] = tool_mask
    with torch.no_grad():  # as _generate_and_score_completions computes old_per_token_logps
        inputs["old_per_token_logps"] = trainer._get_per_token_logps_and_entropies(
            model, torch.cat([prompt_ids, completion_ids], 1), torch.cat([prompt_mask, completion_mask], 1),
            completion_ids.shape[1])[0]
    model.train()

    def update() -> dict[str, float]:
        optimizer.zero_grad(set_to_none=True)
        loss = trainer.compute_loss(model, inputs)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        optimizer.step()
        return {"loss": float(loss.detach()), "grad_norm": float(grad_norm)}

    return update, type(optimizer).__name__ + ("(fused)" if optimizer.defaults.get("fused") else "")


# -- worker processes -------------------------------------------------------------------------


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"/proc/self/status has no {field} line (Linux only)")


def _worker(method: str, batch: Batch, threads: int, conn) -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    t0 = time.perf_counter()
    model, tokenizer = load_model_and_tokenizer()
    info = {"load_s": time.perf_counter() - t0, "optimizer": "AdamW"}
    if method == "termrl":
        update = termrl_update(model, tokenizer, batch)
    elif method == "termrl-1seq":  # micro-batches of one sequence: no shared prefix, no batching
        update = termrl_update(model, tokenizer, batch, micro_batch_tokens=0)
    else:
        update, info["optimizer"] = trl_update(model, tokenizer, batch, checkpointing=method == "trl-ckpt")
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # hand back what setup freed, so the baseline is what is live
    info["rss_before_kb"] = _status_kb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM: from here on it is the updates' peak
    conn.send(info)
    while conn.recv() == "step":
        t = time.perf_counter()
        stats = update()
        conn.send({"seconds": time.perf_counter() - t, **stats})
    conn.send({"hwm_kb": _status_kb("VmHWM"), "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss})


# -- the parent: interleave, report -----------------------------------------------------------


def _recv(method: str, proc, conn):
    """The worker's next message; a worker that died (e.g. killed for memory) stops the benchmark."""
    while not conn.poll(1.0):
        if not proc.is_alive():
            raise SystemExit(f"the {method} worker died (exit code {proc.exitcode}) -- see its traceback above")
    return conn.recv()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=3, help="timed updates per method (after one warm-up)")
    parser.add_argument("--threads", type=int, default=2, help="torch.set_num_threads in every worker")
    parser.add_argument("--groups", type=int, default=2)
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--prompt-len", type=int, default=256)
    parser.add_argument("--completion-len", type=int, default=128)
    parser.add_argument("--rollouts", help="a run's rollouts.jsonl: time real multi-turn episodes instead")
    parser.add_argument("--step", type=int, default=1, help="with --rollouts: the training step whose episodes")
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, of {', '.join(METHODS)}")
    args = parser.parse_args()
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise SystemExit(f"unknown method(s) {unknown}: choose from {', '.join(METHODS)}")

    from transformers import AutoTokenizer

    from termrl.policies.model import resolve_model

    loc = resolve_model(None)
    tokenizer = AutoTokenizer.from_pretrained(str(loc.directory), gguf_file=loc.gguf_file, local_files_only=True)
    if args.rollouts:
        batch = batch_from_rollouts(Path(args.rollouts), args.step)
        lengths = [len(t) for t in batch.tokens]
        model_tokens = int(sum(m[1:].sum() for m in batch.masks))
        shape = (f"{len(lengths)} episodes ({len(lengths) // batch.group_size} groups x {batch.group_size}) of step "
                 f"{args.step} of {args.rollouts}, {min(lengths)}-{max(lengths)} tokens each, {batch.n_tokens} "
                 f"tokens, {model_tokens} of them model tokens")
    else:
        batch = build_batch(tokenizer, args.groups, args.group_size, args.prompt_len, args.completion_len)
        shape = (f"{len(batch.tokens)} sequences ({args.groups} groups x {args.group_size}) of {args.prompt_len} "
                 f"prompt + {args.completion_len} completion tokens = {batch.n_tokens} tokens")
    del tokenizer
    print(f"batch: {shape}; float32, CPU, {args.threads} torch threads; {args.n} timed updates after 1 warm-up",
          flush=True)

    ctx = mp.get_context("spawn")
    workers, info = {}, {}
    for m in methods:  # one at a time: loading and setup never overlap
        parent_end, child_end = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(m, batch, args.threads, child_end), daemon=True)
        proc.start()
        workers[m] = (proc, parent_end)
        info[m] = _recv(m, proc, parent_end)
        print(f"  {m}: loaded in {info[m]['load_s']:.1f}s, rss {info[m]['rss_before_kb'] / 1024:.0f} MiB", flush=True)

    runs: dict[str, list[dict]] = {m: [] for m in methods}
    for r in range(args.n + 1):
        order = methods[r % len(methods):] + methods[:r % len(methods)]  # rotate who goes first
        for m in order:
            workers[m][1].send("step")
            runs[m].append(_recv(m, *workers[m]))
            print(f"  round {r}{' (warm-up)' if r == 0 else ''} {m}: {runs[m][-1]['seconds']:.2f}s", flush=True)
    for m in methods:
        proc, conn = workers[m]
        conn.send("done")
        info[m].update(_recv(m, proc, conn))
        proc.join()

    rows = {}
    for m in methods:
        times = [x["seconds"] for x in runs[m][1:]]
        med = statistics.median(times)
        rows[m] = {
            "tok_s": batch.n_tokens / med, "median_s": med, "min_s": min(times), "max_s": max(times),
            "before": info[m]["rss_before_kb"] / 1024, "peak": info[m]["hwm_kb"] / 1024,
            "delta": (info[m]["hwm_kb"] - info[m]["rss_before_kb"]) / 1024, "abs": info[m]["maxrss_kb"] / 1024,
            "grad_norm": runs[m][0]["grad_norm"], "loss": runs[m][0]["loss"], "optim": info[m]["optimizer"],
        }
    print()
    head = (f"{'method':<38}{'tok/s':>8}{'median s':>10}{'min-max s':>16}{'RSS before':>12}{'upd. peak':>11}"
            f"{'upd. delta':>12}{'abs peak':>10}{'grad norm':>11}")
    print(head + "\n" + "-" * len(head))
    for m, x in rows.items():
        print(f"{METHODS[m]:<38}{x['tok_s']:>8.1f}{x['median_s']:>10.2f}{x['min_s']:>9.2f}-{x['max_s']:<6.2f}"
              f"{x['before']:>10.0f}Mi{x['peak']:>9.0f}Mi{x['delta']:>10.0f}Mi{x['abs']:>8.0f}Mi"
              f"{x['grad_norm']:>11.4f}")
    print("memory: RSS before = after model/trainer/batch setup; upd. peak = VmHWM over the updates; "
          "upd. delta = peak - before; abs peak = ru_maxrss (model loading included). grad norm: warm-up update "
          "(same weights, same batch: should agree).")
    if "termrl" in rows:
        t = rows["termrl"]
        for m in (m for m in rows if m != "termrl"):
            x = rows[m]
            print(f"termrl / {m:<9} tokens/s {t['tok_s'] / x['tok_s']:.2f}x   update memory (delta) "
                  f"{t['delta'] / x['delta']:.2f}x   update peak {t['peak'] / x['peak']:.2f}x   absolute peak "
                  f"{t['abs'] / x['abs']:.2f}x")
    print("optimizers: " + ", ".join(f"{m} {rows[m]['optim']}" for m in rows))


if __name__ == "__main__":
    main()
