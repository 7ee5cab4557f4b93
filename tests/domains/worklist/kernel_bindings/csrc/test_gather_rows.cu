// Standalone timing of the strided gather: nvcc test_gather_rows.cu && ./a.out
#include <cstdio>
#include "copy.cuh"

int main() {
  float *src, *dst;
  int *rows;
  cudaMalloc(&src, 1 << 20);
  cudaMalloc(&dst, 1 << 20);
  cudaMalloc(&rows, 1024);
  gather_rows_strided_kernel<<<256, 128>>>(src, dst, rows, 512, 2);
  cudaDeviceSynchronize();
  printf("scatter_rows and gather_rows done\n");
  return 0;
}
