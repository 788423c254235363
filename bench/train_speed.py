"""Per-step speed of the one-head character model: PyTorch vs the C++ trainer, at d = 64.

Run from the repository root after `bash scripts/build-native.sh native`:

    /usr/bin/python3 bench/train_speed.py [--steps 100] [--rounds 2] [--peer both|torch|cpp] [--json]

The PyTorch side is the same model as tests/fixtures/make_learning_fixtures.py (whose
model_loss and initial_parameters it imports), run the way one would write it for speed on
one CPU thread: a whole batch per step as one (B, T+1) index tensor, batched matmuls,
torch.optim.Adam. Both sides train 1/sqrt(d) for the same steps at batch 16 x 64 characters.
The C++ side is build/native/attention-train's own timing of its steps (its CSV). The two are
run alternately `rounds` times and each keeps its fastest round, since the machine is shared;
the ratio printed is PyTorch's time per step over C++'s. With --peer torch (or cpp) only that
side runs, once per round; with --json the result is one JSON line (milliseconds per step, each
round's and the fastest), which is how bench/train-speed.mjs alternates PyTorch with the C++
trainer natively and in Chromium within one run of `npm run bench`.
"""

import argparse
import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures"))  # the fixture script imports its neighbours
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
    arguments.add_argument("--peer", choices=["both", "torch", "cpp"], default="both")
    arguments.add_argument("--json", action="store_true")
    options = arguments.parse_args()
    torch.set_num_threads(1)
    with open(os.path.join(ROOT, "data", "tinyshakespeare.txt"), encoding="utf-8") as corpus:
        text = corpus.read()
    characters = sorted(set(text))
    ids = {c: i for i, c in enumerate(characters)}
    tokens = torch.tensor([ids[c] for c in text], dtype=torch.long)
    rounds = {"torch": [], "cpp": []}
    for _ in range(options.rounds):
        if options.peer in ("both", "torch"):
            rounds["torch"].append(torch_seconds_per_step(tokens, len(characters), options.steps))
        if options.peer in ("both", "cpp"):
            rounds["cpp"].append(cpp_seconds_per_step(options.steps))
    if options.json:
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "steps": options.steps,
                          **{f"{peer}MsPerStep": [1000 * s for s in times] for peer, times in rounds.items() if times}}))
        return
    print("one-head character model, d = %d, batch %d x %d, Adam, %d steps, one thread" % (
        D, BATCH, CONTEXT, options.steps))
    if rounds["torch"]:
        print("  PyTorch %s  %.2f ms/step" % (torch.__version__, 1000 * min(rounds["torch"])))
    if rounds["cpp"]:
        print("  C++ (attention-train)  %.2f ms/step" % (1000 * min(rounds["cpp"])))
    if rounds["torch"] and rounds["cpp"]:
        print("  ratio PyTorch / C++  %.2f" % (min(rounds["torch"]) / min(rounds["cpp"])))


if __name__ == "__main__":
    main()
