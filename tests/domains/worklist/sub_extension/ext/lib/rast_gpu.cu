__global__ void rast(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { rast<<<1, 32>>>(x); }
