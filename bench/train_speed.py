"""Per-step speed of the one-head character model: PyTorch vs the C++ trainer, at d = 64.

Run from the repository root after `bash scripts/build-native.sh native`:

    /usr/bin/python3 bench/train_speed.py [--steps 100] [--rounds 2]

The PyTorch side is the same model as tests/fixtures/make_learning_fixtures.py (whose
model_loss and initial_parameters it imports), run the way one would write it for speed on
one CPU thread: a whole batch per step as one (B, T+1) index tensor, batched matmuls,
torch.optim.Adam. Both sides train 1/sqrt(d) for the same steps at batch 16 x 64 characters.
The C++ side is build/native/attention-train's own timing of its steps (its CSV). The two are
run alternately `rounds` times and each keeps its fastest round, since the machine is shared;
the ratio printed is PyTorch's time per step over C++'s.
"""

import argparse
import csv
import importlib.util
import math
import os
import subprocess
import tempfile
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location(
    "learning_fixtures", os.path.join(ROOT, "tests", "fixtures", "make_learning_fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)

D, BATCH, CONTEXT = 64, 16, 64


def torch_seconds_per_step(tokens, vocabulary, steps):
    parameters = [p.requires_grad_(True) for p in fixtures.initial_parameters(vocabulary, CONTEXT, D, 0)]
    optimizer = torch.optim.Adam(parameters, lr=0.01)
    generator = torch.Generator().manual_seed(0)
    offsets = torch.arange(CONTEXT + 1)
    began = time.perf_counter()
    for _ in range(steps):
        starts = torch.randint(0, len(tokens) - CONTEXT, (BATCH, 1), generator=generator)
        batch = tokens[starts + offsets]  # (B, T+1) in one indexing op
        optimizer.zero_grad()
        fixtures.model_loss(parameters, batch, 1 / math.sqrt(D)).backward()
        optimizer.step()
    return (time.perf_counter() - began) / steps


def cpp_seconds_per_step(steps):
    with tempfile.TemporaryDirectory() as folder:
        table = os.path.join(folder, "speed.csv")
        subprocess.run([os.path.join(ROOT, "build", "native", "attention-train"), "--widths", str(D), "--steps",
                        str(steps), "--batch", str(BATCH), "--context", str(CONTEXT), "--csv", table],
                       check=True, stdout=subprocess.DEVNULL)
        with open(table) as rows:
            row = next(r for r in csv.DictReader(rows) if r["scale"] == "1/sqrt(d)")
    return float(row["seconds"]) / steps


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--steps", type=int, default=100)
    arguments.add_argument("--rounds", type=int, default=2)
    options = arguments.parse_args()
    torch.set_num_threads(1)
    with open(os.path.join(ROOT, "data", "tinyshakespeare.txt"), encoding="utf-8") as corpus:
        text = corpus.read()
    characters = sorted(set(text))
    ids = {c: i for i, c in enumerate(characters)}
    tokens = torch.tensor([ids[c] for c in text], dtype=torch.long)
    torch_best = cpp_best = float("inf")
    for _ in range(options.rounds):
        torch_best = min(torch_best, torch_seconds_per_step(tokens, len(characters), options.steps))
        cpp_best = min(cpp_best, cpp_seconds_per_step(options.steps))
    print("one-head character model, d = %d, batch %d x %d, Adam, %d steps, one thread" % (
        D, BATCH, CONTEXT, options.steps))
    print("  PyTorch %s  %.2f ms/step" % (torch.__version__, 1000 * torch_best))
    print("  C++ (attention-train)  %.2f ms/step" % (1000 * cpp_best))
    print("  ratio PyTorch / C++  %.2f" % (torch_best / cpp_best))


if __name__ == "__main__":
    main()
