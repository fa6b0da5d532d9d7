"""The oneDNN family's networks in PyTorch, as a PerfZero benchmark class: the same shapes, synthetic
inputs and random weights, timed with perfzero.measure and reported under the oneDNN methods' metric
names (benchmarks/frameworks/workload_figures.py), so `benchmarks/suites/frameworks.yaml` compares them.

Runs on the GPU where PyTorch sees one (CUDA), else on the CPU; the `device` extra says which.
Settings: the constructor arguments of workload_options.WorkloadOptions.
"""
import perfzero
import torch
import torch.nn.functional as F
import torchvision
from torch import nn

import synthetic_inputs
import workload_figures
from torch_mobilenet_v1 import MobileNetV1
from workload_options import WorkloadOptions


class ImdbLstm(nn.Module):
    """Keras's imdb_lstm example: embedding 20000 x 128, LSTM 128, dense 1 with a sigmoid on the last state."""

    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(synthetic_inputs.VOCABULARY, synthetic_inputs.EMBEDDING)
        self.lstm = nn.LSTM(synthetic_inputs.EMBEDDING, synthetic_inputs.HIDDEN, batch_first=True)
        self.dense = nn.Linear(synthetic_inputs.HIDDEN, 1)

    def forward(self, tokens):
        _, (hidden, _) = self.lstm(self.embedding(tokens))
        return torch.sigmoid(self.dense(hidden[-1]))


def mnist_cnn():
    """Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10 on 28 x 28 x 1, ReLU, logits out."""
    return nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Dropout(0.25), nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Dropout(0.5),
                         nn.Linear(128, 10))


def flops_per_image(model, image):
    """Multiply-adds x 2 of the convolutions and dense layers for one image, counted as the oneDNN
    family counts them (network.cpp), so `gflops` means the same on both sides."""
    total = 0

    def conv(module, _, out):
        nonlocal total
        fan_in = module.in_channels // module.groups * module.kernel_size[0] * module.kernel_size[1]
        total += 2 * out.numel() * fan_in

    def dense(module, _, out):
        nonlocal total
        total += 2 * out.numel() * module.in_features

    hooks = [m.register_forward_hook(conv if isinstance(m, nn.Conv2d) else dense)
             for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    try:
        with torch.inference_mode():
            model(image)
    finally:
        for hook in hooks:
            hook.remove()
    return total


class TorchNetworks(perfzero.Benchmark):
    """PyTorch's side of the frameworks suite: MNIST CNN training step, ResNet-50, MobileNet v1, IMDB LSTM."""

    def __init__(self, output_dir=None, root_data_dir=None, tpu=None, **options):
        super().__init__(output_dir=output_dir, root_data_dir=root_data_dir, tpu=tpu, **options)
        self.options = WorkloadOptions(options)
        torch.set_num_threads(self.options.threads)
        wanted = self.options.device
        if wanted == "auto":
            wanted = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(wanted)
        torch.manual_seed(2024)

    def _sync(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def _extras(self, batch, **more):
        if self.device.type == "cuda":
            device = f"{self.device} ({torch.cuda.get_device_name(self.device)})"
        else:
            device = "cpu"
        return {"device": device, "batch": batch, "threads": self.options.threads,
                "torch_num_threads": torch.get_num_threads(),
                "torch_num_interop_threads": torch.get_num_interop_threads(), **more}

    def _forward(self, name, model, batch, architecture):
        model = model.to(self.device).eval()
        images = torch.from_numpy(synthetic_inputs.images_nchw(batch)).to(self.device)
        flops = flops_per_image(model, images[:1])
        result = {}

        def forward():
            result["scores"] = model(images)
            self._sync()

        with torch.inference_mode():
            series = perfzero.measure(forward, name="forward", warmups=self.options.warmups,
                                      min_repetitions=self.options.repetitions_for("network"))
        workload_figures.check_class_scores(result["scores"].float().cpu().numpy())
        self.report_benchmark(
            iters=len(series.values), wall_time=series.median,
            metrics=workload_figures.network_metrics(batch, series.median, flops * batch),
            extras=self._extras(batch, gflop_per_image=flops / 1e9, architecture=architecture,
                                parameters=sum(p.numel() for p in model.parameters())),
            name=name)

    def benchmark_resnet50(self):
        """ResNet-50 v1.5 forward pass (torchvision, weights=None, eval mode), batch 32 x 224 x 224 x 3."""
        self._forward("resnet50", torchvision.models.resnet50(weights=None), self.options.batch_for("network"),
                      "ResNet-50 v1.5 (torchvision), batch norm unfolded (eval mode)")

    def benchmark_mobilenet_v1(self):
        """MobileNet v1 (1.0, 224) forward pass (eval mode), batch 32 x 224 x 224 x 3."""
        self._forward("mobilenet_v1", MobileNetV1(), self.options.batch_for("network"),
                      "MobileNet v1 1.0 224 (torch_mobilenet_v1.py, ReLU6), batch norm unfolded (eval mode)")

    def benchmark_imdb_lstm(self):
        """IMDB sentiment LSTM inference (embedding 20000x128, LSTM 128, dense sigmoid), batch 32 x 80 tokens."""
        batch = self.options.batch_for("lstm")
        length = self.options.sequence_length
        model = ImdbLstm().to(self.device).eval()
        tokens = torch.from_numpy(synthetic_inputs.token_sequences(batch, length)).to(self.device)
        result = {}

        def infer():
            result["predictions"] = model(tokens)
            self._sync()

        with torch.inference_mode():
            series = perfzero.measure(infer, name="inference", warmups=self.options.warmups,
                                      min_repetitions=self.options.repetitions_for("lstm"))
        workload_figures.check_predictions(result["predictions"].float().cpu().numpy())
        self.report_benchmark(iters=len(series.values), wall_time=series.median,
                              metrics=workload_figures.lstm_metrics(batch, series.median),
                              extras=self._extras(batch, sequence_length=length), name="imdb_lstm")

    def benchmark_mnist_cnn_step(self):
        """MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta), batch 128."""
        batch = self.options.batch_for("training")
        model = mnist_cnn().to(self.device).train()
        # Keras's Adadelta as the oneDNN method runs it: rho 0.95, epsilon 1e-7, learning rate 1.0.
        optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0, rho=0.95, eps=1e-7)
        data = [(torch.from_numpy(x).unsqueeze(1).to(self.device), torch.from_numpy(y).to(self.device))
                for x, y in synthetic_inputs.mnist_set(batch)]
        losses = []

        def step():
            images, labels = data[len(losses) % len(data)]
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())  # .item() waits for the device, as the host-side loss of ours does

        series = perfzero.measure(step, name="training_step", warmups=self.options.warmups,
                                  min_repetitions=self.options.repetitions_for("training"))
        timed_losses = losses[-len(series.values):]
        self.report_benchmark(
            iters=len(series.values), wall_time=series.median,
            metrics=workload_figures.training_metrics(batch, series.median, timed_losses),
            extras=self._extras(batch, steps=len(series.values),
                                optimizer="Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0)"),
            name="mnist_cnn_step")
