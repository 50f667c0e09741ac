"""A small bank with probes, for the interview rules and service.

Topic ``gpu``: ``mp`` (mixed precision) has a heavy core point ``activations`` (weight 2) and
a light one ``tensor-cores`` (weight 1), each with a probe, a misconception ``halves-all``
with a probe, and an authored follow-up ``mp-loss-scale``. ``bare`` has a core point and a
misconception without probes and no follow-up. Topic ``net``: ``ring`` (no probes, one
follow-up).
"""

from __future__ import annotations

from pathlib import Path

from viva.bank import Bank, load_bank

GPU_TOPIC = "id: gpu\ntitle: GPUs\norder: 1\nsummary: Hardware.\n"
NET_TOPIC = "id: net\ntitle: Networks\norder: 2\nsummary: Links.\n"
SECTION = "---\nid: {id}\ntitle: {title}\n---\n# {title}\n\n{body}\n"

GPU_QUESTIONS = """\
questions:
  - id: mp
    prompt: What does mixed precision training save?
    answer: Activations are stored in 16 bits, halving their memory, and matmuls run on tensor cores.
    points:
      - id: activations
        text: Activations are stored in 16 bits, halving their memory.
        weight: 2
        accept: [activations in 16 bits, halving activation memory]
        probe:
          id: mp-activations-probe
          prompt: Which tensors shrink in mixed precision?
          answer: Activations and gradients are stored in 16 bits.
          points:
            - id: act-grad-16
              text: Activations and gradients are stored in 16 bits.
              accept: [activations and gradients]
            - id: weights-fp32
              text: A master copy of the weights stays in FP32.
              accept: [master copy]
      - id: tensor-cores
        text: Matrix multiplies run on tensor cores.
        accept: [tensor cores]
        probe:
          id: mp-tensor-probe
          prompt: Which units do the 16-bit matrix multiplies use?
          answer: Tensor cores do the 16-bit matrix multiplies.
          points:
            - id: tc
              text: Tensor cores do the 16-bit matrix multiplies.
              accept: [tensor cores]
            - id: bf16
              text: Inputs are BF16 or FP16.
              accept: [BF16]
    misconceptions:
      - id: halves-all
        text: Mixed precision halves all training memory.
        correction: Adam's FP32 master weights and moments stay at 12 bytes per parameter.
        accept: [halves all the memory, halves all training memory]
        probe:
          id: mp-optimizer-probe
          prompt: You said mixed precision halves memory. Does it halve Adam's optimizer state?
          answer: No, the moments and master weights stay in FP32.
          points:
            - id: state-fp32
              text: The optimizer moments and master weights stay in FP32.
              accept: [stay in FP32]
            - id: twelve
              text: That is 12 bytes per parameter.
              accept: [12 bytes]
    follow_ups:
      - id: mp-loss-scale
        prompt: Why does FP16 training need loss scaling?
        answer: Small gradients underflow in FP16, so the loss is scaled up before backward.
        points:
          - id: underflow
            text: Small gradients underflow in FP16.
            accept: [underflow]
          - id: scale-up
            text: The loss is scaled up before the backward pass.
            accept: [scaled up]
  - id: bare
    prompt: What is HBM?
    answer: HBM is stacked DRAM beside the GPU die with terabytes per second of bandwidth.
    points:
      - id: stacked
        text: HBM is stacked DRAM beside the GPU die.
        accept: [stacked DRAM]
      - id: bandwidth
        text: It gives terabytes per second of bandwidth.
        accept: [terabytes per second]
    misconceptions:
      - id: on-die
        text: HBM is an on-chip SRAM cache.
        correction: HBM is off-chip DRAM in the same package; SRAM is the on-chip memory.
        accept: [on-chip SRAM cache]
"""

NET_QUESTIONS = """\
questions:
  - id: ring
    prompt: How does ring all-reduce work?
    answer: Each GPU sends a chunk to its neighbour, reduce-scatter then all-gather.
    points:
      - id: chunks
        text: Each GPU sends a chunk to its neighbour around the ring.
        accept: [neighbour]
      - id: phases
        text: It runs a reduce-scatter then an all-gather.
        accept: [reduce-scatter]
    follow_ups:
      - id: ring-cost
        prompt: What does ring all-reduce cost in bandwidth?
        answer: About twice the data size per GPU, independent of the number of GPUs.
        points:
          - id: twice
            text: About twice the data per GPU.
            accept: [twice]
          - id: flat
            text: The cost does not grow with the number of GPUs.
            accept: [independent of the number]
  - id: tree
    prompt: When is a tree all-reduce better than a ring?
    answer: For small messages, because its latency grows with the log of the GPU count.
    points:
      - id: latency
        text: Its latency grows with the log of the GPU count.
        accept: [log of the GPU count]
      - id: small
        text: It suits small messages.
        accept: [small messages]
"""


def write_interview_bank(root: Path) -> Path:
    files = {
        "gpu/topic.yaml": GPU_TOPIC,
        "gpu/01-basics.md": SECTION.format(id="basics", title="Basics", body="Mixed precision and HBM."),
        "gpu/01-basics.yaml": GPU_QUESTIONS,
        "net/topic.yaml": NET_TOPIC,
        "net/01-rings.md": SECTION.format(id="rings", title="Rings", body="Ring all-reduce."),
        "net/01-rings.yaml": NET_QUESTIONS,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def interview_bank(root: Path) -> Bank:
    bank, errors = load_bank(write_interview_bank(root))
    assert not errors, errors
    return bank
