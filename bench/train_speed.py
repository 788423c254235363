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

PyTorch's speed here depends on the BLAS the process loaded: Debian's python3-torch links
libblas.so.3, which is the reference BLAS unless something else is selected (about 3 GFLOP/s
for a 4096 x 64 x 64 product on one thread, against 20-40 with OpenBLAS). The BLAS is chosen
outside this script (bench/train-speed.mjs runs it twice, with LD_LIBRARY_PATH at Debian's
openblas-serial folder and at the reference BLAS's folder); this script reports what it got,
read from its own /proc/self/maps, and that product's rate.
"""

import argparse
import ctypes
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


def blas_in_use():
    """The BLAS this process loaded (torch loads it with itself), from /proc/self/maps:
    {"name": "OpenBLAS" | "reference BLAS" | "MKL" | "unknown", "library": path, "config": ...}."""
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5].startswith("/"):
                paths.add(fields[5])
    named = lambda prefix: sorted(p for p in paths if os.path.basename(p).startswith(prefix))
    if named("libopenblas"):
        library = named("libopenblas")[0]
        try:
            config = ctypes.CDLL(library).openblas_get_config
            config.restype = ctypes.c_char_p
            details = config().decode()
        except (OSError, AttributeError):
            details = ""
        return {"name": "OpenBLAS", "library": library, "config": details}
    if named("libmkl"):
        return {"name": "MKL", "library": named("libmkl")[0], "config": ""}
    if named("libblas.so"):
        # Debian's libblas3 (netlib's reference implementation) installs into a blas/ folder.
        library = named("libblas.so")[0]
        name = "reference BLAS" if os.path.basename(os.path.dirname(library)) == "blas" else "unknown"
        return {"name": name, "library": library, "config": ""}
    return {"name": "unknown", "library": "", "config": ""}


def matmul_gflops(rows=4096, depth=64, columns=64, seconds=0.3):
    """One thread's rate on a (rows x depth) . (depth x columns) float32 product: the best of
    three batches of about `seconds` / 3, after a warm-up."""
    a, b = torch.randn(rows, depth), torch.randn(depth, columns)
    for _ in range(3):
        torch.mm(a, b)
    best = 0.0
    for _ in range(3):
        calls, began = 0, time.perf_counter()
        while time.perf_counter() - began < seconds / 3:
            torch.mm(a, b)
            calls += 1
        best = max(best, 2 * rows * depth * columns * calls / (time.perf_counter() - began) / 1e9)
    return best


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
    blas = blas_in_use() if rounds["torch"] else None
    gflops = matmul_gflops() if rounds["torch"] else None
    if options.json:
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "steps": options.steps,
                          "blas": blas, "matmulGflops": gflops,
                          **{f"{peer}MsPerStep": [1000 * s for s in times] for peer, times in rounds.items() if times}}))
        return
    print("one-head character model, d = %d, batch %d x %d, Adam, %d steps, one thread" % (
        D, BATCH, CONTEXT, options.steps))
    if rounds["torch"]:
        print("  PyTorch %s  %.2f ms/step  (BLAS: %s, %s; 4096x64x64 product %.1f GFLOP/s)" % (
            torch.__version__, 1000 * min(rounds["torch"]), blas["name"], blas["library"], gflops))
    if rounds["cpp"]:
        print("  C++ (attention-train)  %.2f ms/step" % (1000 * min(rounds["cpp"])))
    if rounds["torch"] and rounds["cpp"]:
        print("  ratio PyTorch / C++  %.2f" % (min(rounds["torch"]) / min(rounds["cpp"])))


if __name__ == "__main__":
    main()
