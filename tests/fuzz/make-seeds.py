#!/usr/bin/env python3
"""Writes the small committed seed corpora under tests/fuzz/corpus/<target>/.

Run from the repository root after changing an input layout of a target:
    python3 tests/fuzz/make-seeds.py
Each seed follows the layout its target's header comment describes.
"""
import json
import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

PY = open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "device", "train_aliases.py"), "rb").read()

CU = b"""#include <cuda_runtime.h>
#include <cublas_v2.h>
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}
void run(float* h, int n) {
  float* d; cudaMalloc(&d, n * 4);
  cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
}
"""

REQ = b"""# deps
torch==2.1.0+cu121
flash-attn>=2.5 ; platform_system == "Linux"
xformers==0.0.23
--extra-index-url https://download.pytorch.org/whl/cu121
-r base.txt
apex @ git+https://github.com/NVIDIA/apex
triton
"""

TOML = b"""[project]
name = "x"
dependencies = ["torch>=2.1", "flash-attn", 'xformers==0.0.23']
[project.optional-dependencies]
gpu = ["triton", "nvidia-nccl-cu12"]
[tool.poetry.dependencies]
torch = {version = "2.1.0", source = "cu121"}
"""

SETUP = b"""from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension
setup(name="x", install_requires=["torch", "flash-attn"],
      ext_modules=[CUDAExtension("x._C", ["a.cu"])], cmdclass={"build_ext": BuildExtension})
"""

CFG = b"""[options]
install_requires =
    torch>=2.1
    xformers
"""

ENV = b"""name: x
dependencies:
  - pytorch-cuda=12.1
  - pip:
    - flash-attn==2.5.9
"""

ATTN = b"""import torch
import torch.nn.functional as F
from flash_attn import flash_attn_func
import xformers.ops as xops
import triton
import triton.language as tl
import torch.distributed as dist

@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)

def f(q, k, v):
    dist.init_process_group("nccl")
    inv = 1.0 / (10000 ** (torch.arange(0, 64, 2, dtype=torch.float64) / 64))
    m = torch.compile(lambda x: x)
    return flash_attn_func(q, k, v), xops.memory_efficient_attention(q, k, v), F.scaled_dot_product_attention(q, k, v)
"""


def put(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def msg(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def lsp_stream():
    uri = "file:///w/train.py"
    return [
        msg({"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": PY.decode()}}}),
        msg({"jsonrpc": "2.0", "method": "textDocument/didChange",
             "params": {"textDocument": {"uri": uri, "version": 2},
                        "contentChanges": [{"range": {"start": {"line": 30, "character": 4},
                                                      "end": {"line": 30, "character": 9}}, "text": "x = torch.cuda.current_device()\n"}]}}),
        msg({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction",
             "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 60, "character": 0}},
                        "context": {"diagnostics": []}}}),
        msg({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 42, "character": 15}}}),
        msg({"jsonrpc": "2.0", "id": 4, "method": "workspace/executeCommand",
             "params": {"command": "ascend.fixAll", "arguments": [uri]}}),
        msg({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
             "params": {"settings": {"ascend-lsp": {"select": ["ASC2"], "lang": "zh", "target": {"chip": "310P"}}}}}),
        msg({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}}),
    ]


def elf64(needed, big=False):
    """A minimal ELF64 shared object: one PT_LOAD, one PT_DYNAMIC with
    DT_NEEDED entries and DT_STRTAB/DT_STRSZ."""
    e = ">" if big else "<"
    strtab = b"\0" + b"".join(n + b"\0" for n in needed)
    ehdr = 64
    phoff = ehdr
    phnum = 2
    dynoff = phoff + 56 * phnum
    ndyn = len(needed) + 3
    stroff = dynoff + 16 * ndyn
    total = stroff + len(strtab)
    ident = b"\x7fELF" + bytes([2, 2 if big else 1, 1, 0]) + b"\0" * 8
    h = ident + struct.pack(e + "HHIQQQIHHHHHH", 3, 62, 1, 0, phoff, 0, 0, ehdr, 56, phnum, 64, 0, 0)
    ph = struct.pack(e + "IIQQQQQQ", 1, 5, 0, 0, 0, total, total, 0x1000)
    ph += struct.pack(e + "IIQQQQQQ", 2, 6, dynoff, dynoff, dynoff, 16 * ndyn, 16 * ndyn, 8)
    dyn = b""
    off = 1
    for n in needed:
        dyn += struct.pack(e + "qQ", 1, off)
        off += len(n) + 1
    dyn += struct.pack(e + "qQ", 5, stroff) + struct.pack(e + "qQ", 10, len(strtab)) + struct.pack(e + "qQ", 0, 0)
    return h + ph + dyn + strtab


def elf32(needed, big=False):
    e = ">" if big else "<"
    strtab = b"\0" + b"".join(n + b"\0" for n in needed)
    ehdr = 52
    phoff = ehdr
    dynoff = phoff + 32 * 2
    ndyn = len(needed) + 3
    stroff = dynoff + 8 * ndyn
    total = stroff + len(strtab)
    ident = b"\x7fELF" + bytes([1, 2 if big else 1, 1, 0]) + b"\0" * 8
    h = ident + struct.pack(e + "HHIIIIIHHHHHH", 3, 3, 1, 0, phoff, 0, 0, ehdr, 32, 2, 40, 0, 0)
    ph = struct.pack(e + "IIIIIIII", 1, 0, 0, 0, total, total, 5, 0x1000)
    ph += struct.pack(e + "IIIIIIII", 2, dynoff, dynoff, dynoff, 8 * ndyn, 8 * ndyn, 6, 4)
    dyn = b""
    off = 1
    for n in needed:
        dyn += struct.pack(e + "iI", 1, off)
        off += len(n) + 1
    dyn += struct.pack(e + "iI", 5, stroff) + struct.pack(e + "iI", 10, len(strtab)) + struct.pack(e + "iI", 0, 0)
    return h + ph + dyn + strtab


def main():
    # fuzz_framing: limit selector, 8 split sizes, stream
    stream = b"".join(frame(m) for m in lsp_stream()[:3])
    put("fuzz_framing", "lsp-stream", b"\x00\x01\x07\x3f\x02\x10\x05\x21\x33" + stream)
    put("fuzz_framing", "bad-headers", b"\x00\x05\x05\x05\x05\x05\x05\x05\x05" +
        b"Content-Length: -1\r\n\r\nContent-Length: 99999999999999999999999\r\n\r\n"
        b"content-length:  2 \r\nContent-Type: x\r\n\r\n{}Content-Length: 2\n\n{}"
        b"X-Other: 1\r\n\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")
    put("fuzz_framing", "too-large", b"\x03\x01\x01\x01\x01\x01\x01\x01\x01" + frame(b"x" * 200) + frame(b"{}"))

    # fuzz_jsonrpc: flags, then bodies separated by 0x1E
    sep = b"\x1e"
    put("fuzz_jsonrpc", "session", b"\x06" + sep.join(lsp_stream()))
    put("fuzz_jsonrpc", "errors", b"\x06" + sep.join([
        b"{", b"[]", b'[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]', b'{"jsonrpc":"1.0","id":1,"method":"x"}',
        b'{"jsonrpc":"2.0","id":1,"method":5}', b'{"jsonrpc":"2.0","id":{},"method":"x"}',
        b'{"jsonrpc":"2.0","id":1,"method":"nope/nope"}', b'{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":3}',
        b'{"jsonrpc":"2.0","id":7,"result":null}', b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}']))
    put("fuzz_jsonrpc", "not-initialized", b"\x04" + sep.join(lsp_stream()[:3]))
    put("fuzz_jsonrpc", "raw", b"\x07" + b"".join(frame(m) for m in lsp_stream()[:2]) + b"Content-Length: 5\r\n\r\n{")

    # fuzz_python: kind byte, text (kinds: see fuzz__paths in fuzz_python.c)
    put("fuzz_python", "train.py", b"\x00" + PY)
    put("fuzz_python", "domains.py", b"\x00" + ATTN)
    put("fuzz_python", "setup.py", b"\x01" + SETUP)
    put("fuzz_python", "kernel.cu", b"\x02" + CU)
    put("fuzz_python", "pyproject.toml", b"\x03" + TOML)
    put("fuzz_python", "setup.cfg", b"\x04" + CFG)
    put("fuzz_python", "requirements.txt", b"\x05" + REQ)
    put("fuzz_python", "environment.yml", b"\x06" + ENV)
    put("fuzz_python", "run.sh", b"\x07" + b"export CUDA_VISIBLE_DEVICES=0\nexport NCCL_DEBUG=INFO\ntorchrun x.py\n")
    put("fuzz_python", "nested.py", b"\x00" + b"x = " + b"(" * 300 + b"torch.cuda.synchronize()" + b")" * 300 + b"\n")

    # fuzz_position: four (line, character) pairs, then text
    pos = struct.pack(">HHHHHHHH", 0, 3, 1, 0x8000, 2, 5, 0xFFFF, 1)
    put("fuzz_position", "mixed", pos + "a\u00e9\u4e2d\U0001F600b\r\nx\ry\n\r\n".encode() + b"\xed\xa0\x80z\xff\n")
    put("fuzz_position", "ascii", pos + PY[:400])

    # fuzz_incremental: kind, 2-byte length, text, edits (op, pos16, del, ins, bytes)
    def edits(*es):
        out = b""
        for op, pos, dl, ins in es:
            out += struct.pack(">BHBB", op, pos, dl, len(ins)) + ins
        return out
    put("fuzz_incremental", "py", b"\x00" + struct.pack(">H", len(PY)) + PY + edits(
        (3, 30, 0, b"    torch.cuda.empty_cache()\n"), (1, 200, 5, b""), (2, 10, 0, b"import torch_npu\n"),
        (1, 500, 1, b"(("), (0, 501, 2, b""), (3, 0, 0, b"\"\"\"\n"), (1, 0, 4, b"")))
    put("fuzz_incremental", "py-ifs", b"\x00" + struct.pack(">H", len(ATTN)) + ATTN + edits(
        (3, 12, 0, b"if torch.cuda.is_available():\n"), (3, 13, 0, b"  "), (1, 300, 30, b"x.cuda()")))
    put("fuzz_incremental", "cu", b"\x01" + struct.pack(">H", len(CU)) + CU + edits((1, 100, 3, b"cudaMemcpy"), (3, 2, 0, b"}\n")))
    put("fuzz_incremental", "toml", b"\x02" + struct.pack(">H", len(TOML)) + TOML + edits((1, 40, 4, b"flash_attn")))

    # fuzz_elf
    put("fuzz_elf", "elf64le", elf64([b"libcudart.so.12", b"libcublas.so.12", b"libc.so.6"]))
    put("fuzz_elf", "elf64be", elf64([b"libnccl.so.2"], big=True))
    put("fuzz_elf", "elf32le", elf32([b"libcudnn.so.8", b"libm.so.6"]))
    put("fuzz_elf", "elf32be", elf32([b"libcuda.so.1"], big=True))
    put("fuzz_elf", "truncated", elf64([b"libcudart.so.12"])[:90])


if __name__ == "__main__":
    main()
