"""GPU memory per training process for termrl's TRL recipes (README "Scaling out").

    python scripts/memory_estimate.py            # the recipes in configs/ (trl-*.yaml + configs/accelerate/)
    python scripts/memory_estimate.py --seq 32768  # the same models at another episode length

An estimate from the model's shape (Qwen3 0.6B / 8B / 32B, numbers of their published configs), the
recipe's sequence length (``agent.max_total_tokens``: a whole multi-turn episode is one sequence),
its micro-batch (``trl.per_device_batch_size``), gradient checkpointing, and how many processes shard
the model (ZeRO-3 / FSDP over ``num_processes`` of the accelerate file; 1 without sharding):

* weights: bf16, 2 bytes/parameter, sharded;
* gradients: bf16, 2 bytes/parameter, sharded;
* optimizer state: fp32 master weights + AdamW's two moments, 12 bytes/parameter, sharded
  (LoRA: only the adapters');
* activations, per sequence in the micro-batch: with gradient checkpointing each layer's input
  (L x S x h x 2 bytes) plus one layer's working set recomputed in the backward pass; without it,
  every layer's working set. A layer's working set (bf16, flash attention: no S^2 scores) is taken as
  2 x S x (4h + 2 d_q + 2 d_kv + 3 I) bytes: norm outputs and residuals, q/k/v and the attention
  output, the MLP's gate, up and product;
* logits: TRL computes them at every completion position (in a multi-turn episode nearly all of S):
  S x V x (2 + 4) bytes (bf16 logits and their fp32 log-softmax), per sequence;
* not counted: CUDA context and allocator slack (budget 3-5 GB), NCCL buffers, DeepSpeed's
  prefetch buckets (a few GB at 32B).

The vLLM server's side: the weights once per tensor-parallel group, and the KV cache, 2 x L x d_kv
x 2 bytes per token, for every episode in flight at full length.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GB = 1e9


@dataclass(frozen=True)
class Shape:
    name: str
    layers: int
    hidden: int
    intermediate: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    tied: bool

    @property
    def params(self) -> int:
        dq, dkv = self.heads * self.head_dim, self.kv_heads * self.head_dim
        attention = self.hidden * dq * 2 + self.hidden * dkv * 2 + 2 * self.head_dim  # q, o, k, v, q/k norms
        mlp = 3 * self.hidden * self.intermediate
        per_layer = attention + mlp + 2 * self.hidden
        embeddings = self.vocab * self.hidden * (1 if self.tied else 2)
        return self.layers * per_layer + embeddings + self.hidden

    def layer_activation_bytes(self, seq: int) -> float:
        dq, dkv = self.heads * self.head_dim, self.kv_heads * self.head_dim
        return 2.0 * seq * (4 * self.hidden + 2 * dq + 2 * dkv + 3 * self.intermediate)

    def kv_bytes_per_token(self) -> int:
        return 2 * self.layers * self.kv_heads * self.head_dim * 2


SHAPES = {
    "0.6B": Shape("Qwen3-0.6B", 28, 1024, 3072, 16, 8, 128, 151936, True),
    "8B": Shape("Qwen3-8B", 36, 4096, 12288, 32, 8, 128, 151936, False),
    "32B": Shape("Qwen3-32B", 64, 5120, 25600, 64, 8, 128, 151936, False),
}

RECIPES = [  # (termrl config, accelerate config, model size, vLLM GPUs and tensor-parallel size)
    ("configs/trl-1gpu-qwen3-0.6b.yaml", "configs/accelerate/1gpu.yaml", "0.6B", (0, 0)),
    ("configs/trl-8gpu-qwen3-8b.yaml", "configs/accelerate/8gpu-zero3.yaml", "8B", (2, 1)),
    ("configs/trl-32gpu-qwen3-32b.yaml", "configs/accelerate/3x8-zero3.yaml", "32B", (8, 4)),
]


@dataclass(frozen=True)
class Estimate:
    recipe: str
    shape: Shape
    processes: int
    sharded: bool
    seq: int
    micro: int
    checkpointing: bool
    lora: bool
    concurrency: int
    vllm: tuple[int, int]

    def parts(self) -> dict[str, float]:
        s, n = self.shape, (self.processes if self.sharded else 1)
        p = s.params
        trainable = p if not self.lora else 0.01 * p  # LoRA adapters: about 1% of the weights
        if self.checkpointing:
            act = s.layers * self.seq * s.hidden * 2 + s.layer_activation_bytes(self.seq)
        else:
            act = s.layers * s.layer_activation_bytes(self.seq)
        return {
            "weights": 2 * p / n,
            "gradients": 2 * trainable / n,
            "optimizer": 12 * trainable / n,
            "activations": act * self.micro,
            "logits": self.seq * s.vocab * 6.0 * self.micro,
        }


def load_estimate(config_path: str, accelerate_path: str, size: str, vllm: tuple[int, int],
                  seq: int | None = None) -> Estimate:
    cfg = yaml.safe_load((ROOT / config_path).read_text())
    acc = yaml.safe_load((ROOT / accelerate_path).read_text())
    trl = cfg.get("trl") or {}
    processes = int(acc.get("num_processes", 1))
    sharded = acc.get("distributed_type") in ("DEEPSPEED", "FSDP") and processes > 1
    return Estimate(config_path, SHAPES[size], processes, sharded, seq or int(cfg["agent"]["max_total_tokens"]),
                    int(trl.get("per_device_batch_size") or 1), bool(trl.get("gradient_checkpointing")),
                    bool((cfg.get("model") or {}).get("lora")), int(cfg.get("max_concurrency", 4)) * processes,
                    vllm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seq", type=int, help="episode length in tokens (default: each recipe's max_total_tokens)")
    args = parser.parse_args()
    estimates = [load_estimate(*r[:3], r[3], seq=args.seq) for r in RECIPES]
    head = (f"{'model':<11}{'params':>8} {'recipe':<34}{'train procs':>12}{'seq':>7}{'ckpt':>6}"
            f"{'weights':>9}{'grads':>8}{'optim':>8}{'activ.':>8}{'logits':>8}{'total/GPU':>11}")
    print(head + "\n" + "-" * len(head))
    for e in estimates:
        parts = e.parts()
        print(f"{e.shape.name:<11}{e.shape.params / 1e9:>7.2f}B {Path(e.recipe).name:<34}"
              f"{e.processes:>5}{' ZeRO-3' if e.sharded else ' (full)':>7}{e.seq:>7}{'yes' if e.checkpointing else 'no':>6}"
              + "".join(f"{parts[k] / GB:>{w}.1f}" for k, w in (("weights", 9), ("gradients", 8), ("optimizer", 8),
                                                                 ("activations", 8), ("logits", 8)))
              + f"{sum(parts.values()) / GB:>9.1f}GB")
    print("GB = 1e9 bytes, per training process (one GPU); add 3-5 GB for the CUDA context and allocator slack.")
    print()
    print(f"{'model':<11}{'vLLM GPUs':>10}{'TP':>4}{'weights/GPU':>13}{'KV per token':>14}{'episodes in flight':>20}"
          f"{'KV at full length/GPU':>23}")
    for e in estimates:
        gpus, tp = e.vllm
        if not gpus:
            kv = e.concurrency * e.seq * e.shape.kv_bytes_per_token()
            print(f"{e.shape.name:<11}{'(none: the trained model generates; KV cache on the training GPU)':<60}"
                  f"{kv / GB:>8.1f}GB for {e.concurrency} episodes")
            continue
        replicas = gpus // tp
        kv_gpu = e.concurrency * e.seq * e.shape.kv_bytes_per_token() / replicas / tp
        print(f"{e.shape.name:<11}{gpus:>10}{tp:>4}{2 * e.shape.params / tp / GB:>11.1f}GB"
              f"{e.shape.kv_bytes_per_token() / 1024:>12.0f}KB{e.concurrency:>20}{kv_gpu / GB:>21.1f}GB")
    print("vLLM pages the KV cache: episodes beyond its memory wait (--gpu_memory_utilization bounds it), so the "
          "last column is the worst case, not a requirement.")


if __name__ == "__main__":
    main()
