#!/usr/bin/env python3
"""A small PyTorch training step (convolution, linear layers, cross entropy, backward, SGD) in
deterministic mode: cuDNN's, cuBLAS's and PyTorch's own kernels (SASS only in the wheels). Prints
checksums that must be identical with and without Ocelot. Exit 77 without PyTorch or a GPU.

TORCH_STEP_TIMING=N: after that, N more steps are timed (synchronized) and their time goes to stderr
as `torch_step: N steps in X ms` (gpu-batch compares it with and without Ocelot)."""
import os
import sys
import time

try:
    import torch
except ImportError as e:
    print("SKIP: no PyTorch (%s)" % e)
    sys.exit(77)


def main():
    if not torch.cuda.is_available():
        print("SKIP: PyTorch sees no GPU")
        return 77
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(8 * 16 * 16, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    inputs = torch.randn(16, 3, 32, 32, device="cuda")
    labels = torch.randint(0, 10, (16,), device="cuda")
    for step in range(3):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        loss.backward()
        optimizer.step()
        print("step %d loss %.8f" % (step, loss.item()))
    checksum = sum(float(p.double().sum()) for p in model.parameters())
    print("parameter checksum %.10f" % checksum)
    print("cumsum %.4f sort %.4f" % (float(inputs.flatten().cumsum(0)[-1]),
                                     float(inputs.flatten().sort().values[100])))
    timed = int(os.environ.get("TORCH_STEP_TIMING", "0"))
    if timed > 0:
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(timed):
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(inputs), labels).backward()
            optimizer.step()
        torch.cuda.synchronize()
        print("torch_step: %d steps in %.3f ms" % (timed, (time.perf_counter() - start) * 1e3),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
