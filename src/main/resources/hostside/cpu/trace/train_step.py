"""hostside's built-in training step: what `hostside cpu --trace` traces when no command is given.

A small MLP trained on a synthetic TensorDataset through a DataLoader with 2 worker processes,
pinned host memory when CUDA is available, on CUDA if available else the CPU: a few warm-up steps
(the workers start, CUDA sets itself up), then 50 steps. It logs the loss every step (loss.item()),
as most loops do, so each step synchronises with the GPU.

The 50 steps are marked for hostside's trace reader: one failing stat() of a path that does not
exist before them and one after (with the step count), which the trace shows and nothing else
notices.

Arguments: --steps N (50), --warmup N (5), --batch N (256), --workers N (2), --width N (1024).
"""
import argparse
import os
import sys
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


MARK = "/.hostside-trace-mark/"


def mark(what):
    try:
        os.stat(MARK + what)
    except OSError:
        pass


def main():
    p = argparse.ArgumentParser(prog="train_step.py")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--width", type=int, default=1024)
    a = p.parse_args()

    cuda = torch.cuda.is_available()
    device = torch.device("cuda" if cuda else "cpu")
    torch.manual_seed(0)

    total = a.warmup + a.steps
    n = total * a.batch
    features, classes = 512, 10
    data = TensorDataset(torch.randn(n, features), torch.randint(0, classes, (n,)))
    loader = DataLoader(data, batch_size=a.batch, shuffle=True, num_workers=a.workers,
                        pin_memory=cuda, drop_last=True)

    model = nn.Sequential(
        nn.Linear(features, a.width), nn.ReLU(),
        nn.Linear(a.width, a.width), nn.ReLU(),
        nn.Linear(a.width, classes),
    ).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    def begin():
        if cuda:
            torch.cuda.synchronize()
        mark("steps-begin")
        return time.perf_counter()

    steps, last = 0, float("nan")
    start = begin() if a.warmup == 0 else time.perf_counter()
    batches = iter(loader)  # held until after the end mark: the workers' shutdown is no step
    for x, y in batches:
        x = x.to(device, non_blocking=cuda)
        y = y.to(device, non_blocking=cuda)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        last = loss.item()
        steps += 1
        if steps == a.warmup:
            start = begin()
        if steps >= total:
            break
    if cuda:
        torch.cuda.synchronize()
    took = time.perf_counter() - start
    timed = max(steps - a.warmup, 0)
    mark(f"steps-end/{timed}")
    del batches
    print(f"hostside train_step: {timed} steps of {a.batch} on {device} in {took:.2f} s "
          f"({1000 * took / max(timed, 1):.1f} ms a step) after {min(steps, a.warmup)} warm-up steps, "
          f"last loss {last:.3f}", flush=True)
    return 0 if timed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
