__global__ void kernel_forward(int T, int C, const float *w, const float *u, const float *k, const float *v, float *y) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float p = 0, q = 0;
  for (int t = 0; t < T; t++) {
    p = p * w[c] + k[t * C + c] * v[t * C + c];
    q = q * w[c] + k[t * C + c];
    y[t * C + c] = (p + u[c] * v[t * C + c]) / (q + u[c]);
  }
}

void cuda_forward(int B, int T, int C, float *w, float *u, float *k, float *v, float *y) {
  kernel_forward<<<B * C / 32, 32>>>(T, C, w, u, k, v, y);
}
