"""Per-step speed of the two-layer copying-head model in PyTorch, at the recipe attention-grow uses.

Run from the repository root (bench/grow-speed.mjs runs it with LD_LIBRARY_PATH at Debian's
openblas-serial folder):

    /usr/bin/python3 bench/grow_speed.py [--d 32] [--context 96] [--batch 16] [--repeated 8]
        [--random 8] [--steps 100] [--rounds 1] [--json]

The model is tests/fixtures/make_layered_fixtures.py's (its initial_parameters and layered_loss
are imported): 2 layers, pre-LayerNorm, 1/sqrt(d), as cpp/learning/layered/layered_model.hpp.
A step is what attention-grow's step is: draw the batch (the natural windows, then `repeated`
windows each a string of 16-64 characters tiled to fill the window, the last `random` of them a
uniform random string, the others a snippet of the text), forward, backward, torch.optim.Adam
at 0.01; written the way one would for speed on one CPU thread (whole-batch index tensors,
batched matmuls). Each round times `steps` steps after 10 untimed ones; the JSON line carries
every round's ms/step (wall clock, and the thread's CPU time), the BLAS the process loaded and its rate on a 4096x64x64 product
(bench/train_speed.py's blas_in_use and matmul_gflops).
"""

import argparse
import json
import math
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures"))
sys.path.insert(0, HERE)
import make_layered_fixtures as layered  # noqa: E402
from train_speed import blas_in_use, matmul_gflops  # noqa: E402

SHORTEST, LONGEST = 16, 64


def load_tokens():
    with open(os.path.join(ROOT, "data", "tinyshakespeare.txt"), encoding="utf-8") as source:
        text = source.read()
    characters = sorted(set(text), key=lambda c: c.encode("utf-8"))
    ids = {c: i for i, c in enumerate(characters)}
    tokens = torch.tensor([ids[c] for c in text], dtype=torch.long)
    return len(characters), tokens[: len(tokens) * 9 // 10]


def training_batch(options, train, vocabulary, generator):
    """(batch, context + 1) tokens: natural windows, then snippets, then random strings, tiled."""
    offsets = torch.arange(options.context + 1)
    natural_count = options.batch - options.repeated
    starts = torch.randint(0, len(train) - options.context, (natural_count, 1), generator=generator)
    lengths = torch.randint(SHORTEST, LONGEST + 1, (options.repeated, 1), generator=generator)
    snippet_starts = torch.randint(0, len(train) - LONGEST, (options.repeated, 1), generator=generator)
    strings = train[snippet_starts + torch.arange(LONGEST)]
    random_rows = options.repeated - options.random
    strings[random_rows:] = torch.randint(0, vocabulary, (options.random, LONGEST), generator=generator)
    repeated = strings.gather(1, offsets % lengths)
    return torch.cat([train[starts + offsets], repeated])


def seconds_per_step(options, vocabulary, train):
    parameters = layered.leaves_of(
        layered.initial_parameters(vocabulary, options.context, options.d, 2, True, 0))
    optimizer = torch.optim.Adam(list(parameters.values()), lr=0.01)
    generator = torch.Generator().manual_seed(0)
    factor = 1 / math.sqrt(options.d)

    def step():
        optimizer.zero_grad()
        batch = training_batch(options, train, vocabulary, generator)
        layered.layered_loss(parameters, batch, factor, 2, True).backward()
        optimizer.step()

    for _ in range(10):
        step()
    began, cpu_began = time.perf_counter(), time.thread_time()
    for _ in range(options.steps):
        step()
    return ((time.perf_counter() - began) / options.steps, (time.thread_time() - cpu_began) / options.steps)


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in (("d", 32), ("context", 96), ("batch", 16), ("repeated", 8), ("random", 8),
                          ("steps", 100), ("rounds", 1)):
        arguments.add_argument("--" + name, type=int, default=default)
    arguments.add_argument("--json", action="store_true")
    options = arguments.parse_args()
    torch.set_num_threads(1)
    vocabulary, train = load_tokens()
    rounds = [seconds_per_step(options, vocabulary, train) for _ in range(options.rounds)]
    result = {"torch": torch.__version__, "threads": torch.get_num_threads(), "steps": options.steps,
              "blas": blas_in_use(), "matmulGflops": matmul_gflops(),
              "torchMsPerStep": [1000 * wall for wall, _ in rounds],
              "torchCpuMsPerStep": [1000 * cpu for _, cpu in rounds]}
    if options.json:
        print(json.dumps(result))
        return
    print("two-layer copying-head model, d = %d, batch %d x %d (%d repeated, %d random), Adam, one thread" % (
        options.d, options.batch, options.context, options.repeated, options.random))
    print("  PyTorch %s  %s ms/step, CPU %s  (BLAS: %s, %s; 4096x64x64 product %.1f GFLOP/s)" % (
        result["torch"], ", ".join("%.2f" % r for r in result["torchMsPerStep"]),
        ", ".join("%.2f" % r for r in result["torchCpuMsPerStep"]), result["blas"]["name"],
        result["blas"]["library"], result["matmulGflops"]))


if __name__ == "__main__":
    main()
