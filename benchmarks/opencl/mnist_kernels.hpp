#pragma once
// The OpenCL C kernels of the MNIST CNN training step (mnist_training.cpp): one work-item per
// output element, NCHW layouts, float32.

namespace perfzero::opencl {

extern const char* const kMnistKernels;

}  // namespace perfzero::opencl
