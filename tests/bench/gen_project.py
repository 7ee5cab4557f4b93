#!/usr/bin/env python3
"""Deterministic generator of a realistic PyTorch training project for the
benchmarks: about 2,000 files and 1M lines covering every domain ascend-lsp
analyzes (device layer, flash-attn/xformers/SDPA attention, CUDA kernels in
.cu/.cuh/.cpp, Triton kernels, dependency files, NCCL distributed code,
float64 RoPE, torch.compile), plus plain model, data and utility code that
contains no CUDA construct at all, as real projects do.

usage: gen_project.py OUTDIR [--files N] [--lines N] [--seed S]
       gen_project.py --single FILE --lines N [--seed S]

The same arguments always give byte-identical output (random.Random with a
fixed seed; no clock, no hash randomization). OUTDIR is replaced.
"""
import argparse
import os
import random
import shutil
import sys

WORDS = ("batch hidden layer token embed weight bias scale norm proj query key value head "
         "mask logits loss grad step epoch sample shard rank window cache state block span "
         "offset stride chunk feature channel image patch frame pixel score label target "
         "buffer queue config option metric record index vocab prefix suffix position").split()
TYPES = "Encoder Decoder Block Mixer Adapter Router Expert Sampler Loader Tokenizer Trainer Scheduler".split()


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0

    def word(self):
        return self.r.choice(WORDS)

    def ident(self):
        self.n += 1
        return "%s_%s%d" % (self.word(), self.word(), self.n % 97)

    def cls(self):
        self.n += 1
        return "%s%s%d" % (self.word().capitalize(), self.r.choice(TYPES), self.n % 89)

    def sentence(self):
        return " ".join(self.word() for _ in range(self.r.randint(5, 12)))

    # ---- plain Python: no CUDA construct, no trigger words ------------------------

    def py_function(self):
        r = self.r
        name, a, b = self.ident(), self.word(), self.word() + "s"
        out = ["", "", "def %s(%s, %s=None, *, limit=%d):" % (name, a, b, r.randint(2, 512)),
               '    """%s.' % self.sentence().capitalize(), "",
               "    Returns a list of %s built from the %s.", '    """']
        out[-2] = out[-2] % (self.word(), b)
        out.append("    result = []")
        out.append("    if %s is None:" % b)
        out.append("        %s = []" % b)
        for i in range(r.randint(2, 10)):
            v = self.ident()
            kind = r.randrange(6)
            if kind == 0:
                out += ["    for %s in %s[:limit]:" % (v, b),
                        "        if %s is not None and len(result) < limit:" % v,
                        "            result.append((%s, %d))" % (v, i)]
            elif kind == 1:
                out += ["    %s = {k: v for k, v in enumerate(%s) if k %% %d == 0}" % (v, b, r.randint(2, 9)),
                        "    result.extend(sorted(%s.values(), key=str))" % v]
            elif kind == 2:
                out += ["    try:", "        %s = int(%s)" % (v, a), "    except (TypeError, ValueError):",
                        "        %s = %d" % (v, r.randint(0, 99)), "    result.append(%s)" % v]
            elif kind == 3:
                out += ["    # %s" % self.sentence(), "    %s = max(0, min(limit, len(result) - %d))" % (v, r.randint(1, 8))]
            elif kind == 4:
                out += ["    while len(result) > limit:", "        result.pop()"]
            elif r.random() < 0.02:
                out += ["    %s = re.compile(r\"^%s_(\\d+)$\")" % (v, self.word()),
                        "    result.extend(m.group(1) for m in map(%s.match, map(str, %s)) if m)" % (v, b)]
            else:
                out += ["    %s = \"%s\".format(len(result))" % (v, self.sentence() + " {}"),
                        "    logger.debug(%s)" % v]
        out.append("    return result")
        return out

    def py_class(self):
        r = self.r
        name = self.cls()
        out = ["", "", "class %s(nn.Module):" % name, '    """%s."""' % self.sentence().capitalize(), "",
               "    def __init__(self, dim=%d, heads=%d, dropout=0.%d):" % (r.choice([256, 512, 768, 1024]), r.choice([4, 8, 16]), r.randint(0, 3)),
               "        super().__init__()",
               "        self.dim = dim",
               "        self.heads = heads",
               "        self.proj = nn.Linear(dim, dim * %d)" % r.randint(1, 4),
               "        self.out = nn.Linear(dim * %d, dim)" % r.randint(1, 4),
               "        self.norm = nn.LayerNorm(dim)",
               "        self.drop = nn.Dropout(dropout)", ""]
        out += ["    def forward(self, x, mask=None):",
                "        h = self.norm(x)",
                "        h = self.proj(h)",
                "        h = F.gelu(h)"]
        for _ in range(r.randint(1, 6)):
            out.append("        h = h + self.drop(h) * %0.3f" % r.random())
        out += ["        if mask is not None:", "            h = h.masked_fill(mask[..., None], 0.0)",
                "        return x + self.out(h)", ""]
        for _ in range(r.randint(1, 4)):
            m = self.ident()
            out += ["    def %s(self, value):" % m, '        """%s."""' % self.sentence().capitalize(),
                    "        if value is None:", "            return self.dim",
                    "        return value * self.heads + %d" % r.randint(0, 9), ""]
        return out

    def py_dataclass(self):
        out = ["", "", "@dataclass", "class %sConfig:" % self.cls()]
        for _ in range(self.r.randint(4, 14)):
            t = self.r.randrange(3)
            if t == 0:
                out.append("    %s: int = %d" % (self.ident(), self.r.randint(0, 4096)))
            elif t == 1:
                out.append("    %s: float = %g" % (self.ident(), self.r.random()))
            else:
                out.append("    %s: str = \"%s\"" % (self.ident(), self.word()))
        return out

    def py_plain_block(self):
        k = self.r.randrange(10)
        if k < 5:
            return self.py_function()
        if k < 8:
            return self.py_class()
        return self.py_dataclass()

    # ---- domain blocks -----------------------------------------------------------------

    def device_block(self):
        r = self.r
        v = self.ident()
        variants = [
            ["", "", "def setup_%s(args):" % v,
             "    if torch.cuda.is_available():",
             "        device = torch.device(f\"cuda:{args.local_rank}\")",
             "        torch.cuda.set_device(device)",
             "    else:",
             "        device = torch.device(\"cpu\")",
             "    torch.backends.cudnn.benchmark = True",
             "    return device"],
            ["", "", "def move_%s(model, batch):" % v,
             "    model = model.cuda()",
             "    batch = {k: t.cuda(non_blocking=True) for k, t in batch.items()}",
             "    torch.cuda.synchronize()",
             "    return model, batch"],
            ["", "", "def report_%s():" % v,
             "    free, total = torch.cuda.mem_get_info()",
             "    peak = torch.cuda.max_memory_allocated() / 2**30",
             "    torch.cuda.empty_cache()",
             "    torch.cuda.reset_peak_memory_stats()",
             "    return free, total, peak"],
            ["", "", "def amp_step_%s(model, x, opt, scaler):" % v,
             "    with torch.cuda.amp.autocast(dtype=torch.bfloat16):",
             "        loss = model(x).mean()",
             "    scaler.scale(loss).backward()",
             "    scaler.step(opt)",
             "    scaler.update()",
             "    return loss.item()"],
            ["", "", "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"%d,%d\"" % (r.randint(0, 3), r.randint(4, 7)),
             "os.environ.setdefault(\"PYTORCH_CUDA_ALLOC_CONF\", \"expandable_segments:True\")"],
            ["", "", "def timed_%s(fn, *args):" % v,
             "    start = torch.cuda.Event(enable_timing=True)",
             "    end = torch.cuda.Event(enable_timing=True)",
             "    stream = torch.cuda.Stream()",
             "    with torch.cuda.stream(stream):",
             "        start.record()",
             "        out = fn(*args)",
             "        end.record()",
             "    torch.cuda.synchronize()",
             "    return out, start.elapsed_time(end)"],
            ["", "", "def place_%s(t):" % v,
             "    if t.is_cuda:",
             "        return t",
             "    return t.to(\"cuda\", non_blocking=True)"],
        ]
        return r.choice(variants)

    def attention_block(self):
        r = self.r
        v = self.ident()
        variants = [
            ["", "", "def flash_%s(q, k, v, causal=True):" % v,
             "    from flash_attn import flash_attn_func",
             "    return flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=causal)"],
            ["", "", "def varlen_%s(q, k, v, cu_seqlens, max_seqlen):" % v,
             "    from flash_attn.flash_attn_interface import flash_attn_varlen_func",
             "    return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen)"],
            ["", "", "def xformers_%s(q, k, v, bias=None):" % v,
             "    import xformers.ops as xops",
             "    return xops.memory_efficient_attention(q, k, v, attn_bias=bias)"],
            ["", "", "def sdpa_%s(q, k, v, mask=None):" % v,
             "    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):",
             "        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)"],
            ["", "", "class FlashSelfAttention%d(nn.Module):" % r.randint(0, 99),
             "    def __init__(self, dim, heads):",
             "        super().__init__()",
             "        self.qkv = nn.Linear(dim, 3 * dim)",
             "        self.heads = heads",
             "",
             "    def forward(self, x):",
             "        b, s, _ = x.shape",
             "        qkv = self.qkv(x).view(b, s, 3, self.heads, -1)",
             "        out = flash_attn_qkvpacked_func(qkv, causal=True)",
             "        return out.reshape(b, s, -1)"],
        ]
        return r.choice(variants)

    def triton_block(self):
        v = self.ident()
        return ["", "", "@triton.autotune(configs=[triton.Config({'BLOCK': 128}), triton.Config({'BLOCK': 256})], key=['n'])",
                "@triton.jit",
                "def %s_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):" % v,
                "    pid = tl.program_id(axis=0)",
                "    offs = pid * BLOCK + tl.arange(0, BLOCK)",
                "    m = offs < n",
                "    x = tl.load(x_ptr + offs, mask=m)",
                "    y = tl.load(y_ptr + offs, mask=m)",
                "    tl.store(out_ptr + offs, x * tl.sigmoid(y), mask=m)",
                "", "",
                "def %s(x, y):" % v,
                "    out = torch.empty_like(x)",
                "    n = x.numel()",
                "    grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)",
                "    %s_kernel[grid](x, y, out, n)" % v,
                "    return out"]

    def distributed_block(self):
        r = self.r
        v = self.ident()
        variants = [
            ["", "", "def init_%s(rank, world_size):" % v,
             "    os.environ.setdefault(\"NCCL_DEBUG\", \"WARN\")",
             "    os.environ[\"NCCL_IB_DISABLE\"] = \"1\"",
             "    dist.init_process_group(backend=\"nccl\", rank=rank, world_size=world_size)",
             "    torch.cuda.set_device(rank % torch.cuda.device_count())"],
            ["", "", "def allreduce_%s(t, group=None):" % v,
             "    if dist.get_backend(group) == \"nccl\":",
             "        dist.all_reduce(t, op=dist.ReduceOp.SUM, group=group)",
             "    return t / dist.get_world_size(group)"],
            ["", "", "def wrap_%s(model, rank):" % v,
             "    model = model.to(rank)",
             "    return DDP(model, device_ids=[rank], output_device=rank, gradient_as_bucket_view=True)"],
            ["", "", "def group_%s(ranks):" % v,
             "    return dist.new_group(ranks=ranks, backend=\"nccl\")"],
        ]
        return r.choice(variants)

    def precision_block(self):
        r = self.r
        v = self.ident()
        variants = [
            ["", "", "def rope_%s(dim, seq_len, theta=10000.0):" % v,
             "    inv = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))",
             "    t = torch.arange(seq_len, dtype=torch.float64)",
             "    freqs = torch.outer(t, inv)",
             "    return torch.polar(torch.ones_like(freqs), freqs)  # complex128"],
            ["", "", "def apply_rotary_%s(x, freqs):" % v,
             "    xc = torch.view_as_complex(x.double().reshape(*x.shape[:-1], -1, 2))",
             "    out = torch.view_as_real(xc * freqs).flatten(-2)",
             "    return out.type_as(x)"],
            ["", "", "def stable_sum_%s(x):" % v,
             "    return x.to(torch.float64).sum(dim=-1).float()"],
        ]
        return r.choice(variants)

    def compile_block(self):
        r = self.r
        v = self.ident()
        variants = [
            ["", "", "def build_%s(model, args):" % v,
             "    if args.compile:",
             "        model = torch.compile(model, mode=\"max-autotune\", fullgraph=True)",
             "    return model"],
            ["", "", "@torch.compile(dynamic=False)",
             "def fused_%s(x, w):" % v,
             "    return F.silu(x @ w) * x"],
            ["", "", "@torch.jit.script",
             "def scripted_%s(x: torch.Tensor) -> torch.Tensor:" % v,
             "    return x * torch.sigmoid(x)"],
            ["", "", "def graph_%s(model, x):" % v,
             "    g = torch.cuda.CUDAGraph()",
             "    with torch.cuda.graph(g):",
             "        y = model(x)",
             "    return g, y"],
        ]
        return r.choice(variants)

    def kernel_ext_block(self):
        v = self.ident()
        return ["", "", "from torch.utils.cpp_extension import load",
                "_%s = load(name=\"%s\", sources=[\"csrc/%s.cpp\", \"csrc/%s_kernel.cu\"], verbose=False)" % (v, v, v, v),
                "", "",
                "def %s_op(x):" % v,
                "    return _%s.forward(x.contiguous())" % v]

    # ---- files ------------------------------------------------------------------------

    PY_HEADER = ["import logging", "import math", "import os", "import re", "from dataclasses import dataclass", "",
                 "import torch", "import torch.nn as nn", "import torch.nn.functional as F", "",
                 "logger = logging.getLogger(__name__)"]

    def py_file(self, target, domains):
        r = self.r
        out = ['"""%s."""' % self.sentence().capitalize()]
        out += self.PY_HEADER
        if "distributed" in domains:
            out += ["import torch.distributed as dist", "from torch.nn.parallel import DistributedDataParallel as DDP"]
        if "triton" in domains:
            out += ["import triton", "import triton.language as tl"]
        if "attention" in domains and r.random() < 0.5:
            out += ["from flash_attn import flash_attn_qkvpacked_func"]
        gens = {"device": self.device_block, "attention": self.attention_block, "triton": self.triton_block,
                "distributed": self.distributed_block, "precision": self.precision_block,
                "compile": self.compile_block, "kernels": self.kernel_ext_block}
        # Domain code is a minority of any file: most lines are ordinary model code.
        while len(out) < target:
            if domains and r.random() < 0.18:
                out += gens[r.choice(domains)]()
            else:
                out += self.py_plain_block()
        if r.random() < 0.3:
            out += ["", "", "if __name__ == \"__main__\":", "    main()" if r.random() < 0.5 else "    print(%s())" % self.ident()]
        return "\n".join(out) + "\n"

    def cu_file(self, target):
        r = self.r
        out = ["// %s" % self.sentence(), "#include <cuda_runtime.h>", "#include <cuda_fp16.h>",
               "#include <cublas_v2.h>", "#include <torch/extension.h>", "#include <ATen/cuda/CUDAContext.h>", ""]
        while len(out) < target:
            k = self.ident()
            n = r.randint(2, 9)
            out += ["template <typename scalar_t>",
                    "__global__ void %s_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int n) {" % k,
                    "  __shared__ float tile[%d];" % (32 * n),
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
                    "  if (i >= n) return;",
                    "  float acc = 0.f;",
                    "  for (int j = 0; j < %d; ++j) {" % n,
                    "    acc += static_cast<float>(x[(i + j) %% n]) * %0.4ff;" % r.random(),
                    "  }",
                    "  tile[threadIdx.x %% %d] = acc;" % (32 * n),
                    "  __syncthreads();",
                    "  y[i] = static_cast<scalar_t>(tile[threadIdx.x %% %d]);" % (32 * n),
                    "}", "",
                    "void %s_launch(const float* x, float* y, int n) {" % k,
                    "  float* tmp = nullptr;",
                    "  cudaMalloc(&tmp, n * sizeof(float));",
                    "  cudaMemcpy(tmp, x, n * sizeof(float), cudaMemcpyDeviceToDevice);",
                    "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();",
                    "  %s_kernel<float><<<(n + 255) / 256, 256, 0, stream>>>(tmp, y, n);" % k,
                    "  cudaFree(tmp);",
                    "}", ""]
            if r.random() < 0.3:
                out += ["void %s_gemm(cublasHandle_t h, const float* a, const float* b, float* c, int m) {" % k,
                        "  const float one = 1.f, zero = 0.f;",
                        "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, a, m, b, m, &zero, c, m);",
                        "}", ""]
        return "\n".join(out) + "\n"

    def cpp_file(self, target):
        r = self.r
        out = ["// %s" % self.sentence(), "#include <torch/extension.h>", "#include <c10/cuda/CUDAGuard.h>", "#include <vector>", ""]
        names = []
        while len(out) < target:
            k = self.ident()
            names.append(k)
            out += ["void %s_launch(const float* x, float* y, int n);" % k, "",
                    "torch::Tensor %s_forward(torch::Tensor x) {" % k,
                    "  TORCH_CHECK(x.is_cuda(), \"x must be a CUDA tensor\");",
                    "  const c10::cuda::CUDAGuard guard(x.device());",
                    "  auto y = torch::empty_like(x);",
                    "  %s_launch(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());" % k,
                    "  return y;", "}", ""]
            for _ in range(r.randint(0, 3)):
                out += ["static int %s_helper(int a, int b) {" % self.ident(), "  return a * %d + b;" % r.randint(1, 9), "}", ""]
        out += ["PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {"]
        out += ["  m.def(\"%s\", &%s_forward, \"%s\");" % (k, k, k) for k in names]
        out += ["}"]
        return "\n".join(out) + "\n"

    def requirements(self):
        return "\n".join(["# runtime dependencies", "torch==2.3.1", "torchvision==0.18.1", "numpy>=1.24",
                          "flash-attn==2.5.9.post1", "xformers==0.0.26.post1", "triton==2.3.1",
                          "apex @ git+https://github.com/NVIDIA/apex", "deepspeed>=0.14",
                          "bitsandbytes>=0.43", "nvidia-nccl-cu12==2.20.5", "cupy-cuda12x", "einops",
                          "transformers>=4.41", "sentencepiece", "tqdm", "pyyaml", ""])

    def pyproject(self):
        return "\n".join(["[build-system]", "requires = [\"setuptools>=68\", \"wheel\", \"torch\", \"ninja\"]",
                          "build-backend = \"setuptools.build_meta\"", "", "[project]", "name = \"benchproj\"",
                          "version = \"0.1.0\"", "requires-python = \">=3.9\"",
                          "dependencies = [\"torch>=2.1\", \"flash-attn>=2.5\", \"xformers\", \"triton\", \"einops\"]", "",
                          "[project.optional-dependencies]", "dev = [\"pytest\", \"ruff\"]", "",
                          "[tool.ruff]", "line-length = 120", ""])

    def setup_py(self):
        return "\n".join(["from setuptools import setup, find_packages",
                          "from torch.utils.cpp_extension import BuildExtension, CUDAExtension", "",
                          "setup(", "    name=\"benchproj\",", "    packages=find_packages(\"src\"),",
                          "    install_requires=[\"torch\", \"flash-attn\", \"xformers\"],",
                          "    ext_modules=[", "        CUDAExtension(\"benchproj._C\", [\"csrc/ops.cpp\", \"csrc/ops_kernel.cu\"],",
                          "                      extra_compile_args={\"nvcc\": [\"-O3\", \"--use_fast_math\"]}),", "    ],",
                          "    cmdclass={\"build_ext\": BuildExtension},", ")", ""])

    def env_yml(self):
        return "\n".join(["name: benchproj", "channels:", "  - pytorch", "  - nvidia", "dependencies:",
                          "  - python=3.10", "  - pytorch=2.3", "  - pytorch-cuda=12.1", "  - cudatoolkit=12.1",
                          "  - nccl", "  - pip", "  - pip:", "    - flash-attn==2.5.9", ""])

    def shell(self):
        return "\n".join(["#!/bin/bash", "set -euo pipefail", "export CUDA_VISIBLE_DEVICES=0,1,2,3",
                          "export NCCL_DEBUG=INFO", "export NCCL_SOCKET_IFNAME=eth0",
                          "torchrun --nproc_per_node=4 train.py --compile --bf16 \"$@\"", ""])


# Directory, share of files, domains mixed into its Python files.
LAYOUT = [
    ("src/benchproj/models", 0.16, ["device", "attention", "precision"]),
    ("src/benchproj/layers/attention", 0.05, ["attention", "device"]),
    ("src/benchproj/kernels/triton", 0.03, ["triton"]),
    ("src/benchproj/ops", 0.04, ["kernels", "precision", "device"]),
    ("src/benchproj/distributed", 0.04, ["distributed", "device"]),
    ("src/benchproj/train", 0.06, ["device", "compile", "distributed"]),
    ("src/benchproj/data", 0.14, []),
    ("src/benchproj/utils", 0.12, []),
    ("src/benchproj/eval", 0.06, ["device"]),
    ("src/benchproj/tokenizer", 0.06, []),
    ("tests", 0.14, ["device"]),
    ("tools", 0.04, ["device", "compile"]),
    ("examples", 0.03, ["device", "attention", "compile"]),
]


def generate(outdir, files, lines, seed):
    g = Gen(seed)
    r = g.r
    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    written = []
    seen = set()

    def put(rel, text):
        if rel in seen:  # names come from a small vocabulary: keep them unique
            base, ext = os.path.splitext(rel)
            rel = "%s_%d%s" % (base, len(written), ext)
        seen.add(rel)
        p = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        written.append((rel, text.count("\n"), len(text.encode())))

    put("requirements.txt", g.requirements())
    put("requirements-dev.txt", "pytest>=7\nruff\nnvidia-ml-py\n")
    put("pyproject.toml", g.pyproject())
    put("setup.py", g.setup_py())
    put("environment.yml", g.env_yml())
    put("scripts/train.sh", g.shell())
    put("scripts/launch_multinode.sh", g.shell())
    n_cu = max(2, files // 40)
    n_cpp = max(1, files // 80)
    n_py = files - len(written) - n_cu - n_cpp
    avg = lines / files
    # Each file's target length: a skewed spread around the average (many
    # short modules, some long ones), scaled so the total lands near `lines`.
    raw = [r.lognormvariate(0, 0.7) for _ in range(n_py + n_cu + n_cpp)]
    scale = avg * len(raw) / sum(raw)
    sizes = [max(20, int(x * scale)) for x in raw]
    k = 0
    for i in range(n_cu):
        put("csrc/kernels/%s_kernel.cu" % g.ident(), g.cu_file(sizes[k])); k += 1
    for i in range(n_cpp):
        put("csrc/%s.cpp" % g.ident(), g.cpp_file(sizes[k])); k += 1
    put("csrc/common.cuh", g.cu_file(120))
    weights = [w for _, w, _ in LAYOUT]
    for i in range(n_py - 1):
        d, _, domains = r.choices(LAYOUT, weights)[0]
        # not every file of a directory touches its domains
        doms = domains if r.random() < 0.7 else []
        name = ("test_%s.py" if d == "tests" else "%s.py") % g.ident()
        put("%s/%s" % (d, name), g.py_file(sizes[k], doms)); k += 1
    return written


def single(path, lines, seed):
    g = Gen(seed)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    text = g.py_file(lines, ["device", "attention", "precision", "compile", "distributed"])
    # exactly `lines` lines, so "line 5000" means the middle of the file
    ls = text.split("\n")[:lines]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(ls) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--lines", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--single")
    a = ap.parse_args()
    if a.single:
        single(a.single, a.lines, a.seed)
        return
    if not a.outdir:
        ap.error("OUTDIR or --single FILE")
    w = generate(a.outdir, a.files, a.lines, a.seed)
    print("gen_project: %d files, %d lines, %.1f MB in %s" % (len(w), sum(x[1] for x in w),
                                                             sum(x[2] for x in w) / 1e6, a.outdir))


if __name__ == "__main__":
    sys.exit(main())
