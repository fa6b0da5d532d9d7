"""The oneDNN family's networks in TensorFlow (Keras 3), as a PerfZero benchmark class: the same shapes,
synthetic inputs and random weights (`weights=None`: nothing is downloaded), timed with
perfzero.measure and reported under the oneDNN methods' metric names (workload_figures.py), so
`benchmarks/suites/frameworks.yaml` compares them.

Each workload runs as the graph Keras's fit and predict run (a tf.function around the model's call
or the training step, XLA off as tf.function's default), without their per-call data handling.
Runs on the GPU where TensorFlow sees one, else on the CPU; the `device` extra says which.
Settings: the constructor arguments of workload_options.WorkloadOptions.
"""
import math

# TensorFlow first: where it is missing, the trial is skipped naming it rather than Keras.
import tensorflow as tf
import keras
import perfzero

import synthetic_inputs
import workload_figures
from workload_options import WorkloadOptions


def imdb_lstm(length):
    """Keras's imdb_lstm example: embedding 20000 x 128, LSTM 128, dense 1 with a sigmoid."""
    return keras.Sequential([keras.Input((length,), dtype="int32"),
                             keras.layers.Embedding(synthetic_inputs.VOCABULARY, synthetic_inputs.EMBEDDING),
                             keras.layers.LSTM(synthetic_inputs.HIDDEN),
                             keras.layers.Dense(1, activation="sigmoid")])


def mnist_cnn():
    """Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10 on 28 x 28 x 1, ReLU, logits out."""
    layers = keras.layers
    return keras.Sequential([keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"),
                             layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(2), layers.Dropout(0.25),
                             layers.Flatten(), layers.Dense(128, activation="relu"), layers.Dropout(0.5),
                             layers.Dense(10)])


def flops_per_image(model):
    """Multiply-adds x 2 of the convolutions and dense layers for one image, counted as the oneDNN
    family counts them (network.cpp), so `gflops` means the same on both sides."""
    total = 0
    for layer in model.layers:
        outputs = math.prod(layer.output.shape[1:])
        if isinstance(layer, keras.layers.DepthwiseConv2D):
            total += 2 * outputs * layer.kernel.shape[0] * layer.kernel.shape[1]  # each output reads one channel
        elif isinstance(layer, (keras.layers.Conv2D, keras.layers.Dense)):
            total += 2 * outputs * math.prod(layer.kernel.shape[:-1])
    return total


class TensorFlowNetworks(perfzero.Benchmark):
    """TensorFlow's side of the frameworks suite: MNIST CNN training step, ResNet-50, MobileNet v1, IMDB LSTM."""

    def __init__(self, output_dir=None, root_data_dir=None, tpu=None, **options):
        super().__init__(output_dir=output_dir, root_data_dir=root_data_dir, tpu=tpu, **options)
        self.options = WorkloadOptions(options)
        # Before anything starts TensorFlow's runtime, which fixes its thread pools.
        tf.config.threading.set_intra_op_parallelism_threads(self.options.threads)
        wanted = self.options.device
        if wanted == "auto":
            wanted = "/GPU:0" if tf.config.list_physical_devices("GPU") else "/CPU:0"
        elif wanted == "cpu":
            wanted = "/CPU:0"
        self.device = wanted
        keras.utils.set_random_seed(2024)

    def _extras(self, batch, **more):
        device = self.device
        if "GPU" in device.upper():
            details = tf.config.experimental.get_device_details(tf.config.list_physical_devices("GPU")[0])
            device = f"{device} ({details.get('device_name', 'GPU')})"
        return {"device": device, "batch": batch, "threads": self.options.threads,
                # 0 is TensorFlow's "as many as the cores", its default.
                "tf_intra_op_parallelism_threads": tf.config.threading.get_intra_op_parallelism_threads(),
                "tf_inter_op_parallelism_threads": tf.config.threading.get_inter_op_parallelism_threads(),
                **more}

    def _forward(self, name, build, batch, architecture):
        with tf.device(self.device):
            model = build()
            images = tf.constant(synthetic_inputs.images_nchw(batch).transpose(0, 2, 3, 1))  # Keras is NHWC
            predict = tf.function(lambda x: model(x, training=False))
            result = {}

            def forward():
                result["scores"] = predict(images).numpy()  # .numpy() waits for the device

            series = perfzero.measure(forward, name="forward", warmups=self.options.warmups,
                                      min_repetitions=self.options.repetitions_for("network"))
        workload_figures.check_class_scores(result["scores"])
        flops = flops_per_image(model)
        self.report_benchmark(
            iters=len(series.values), wall_time=series.median,
            metrics=workload_figures.network_metrics(batch, series.median, flops * batch),
            extras=self._extras(batch, gflop_per_image=flops / 1e9, architecture=architecture,
                                parameters=model.count_params()),
            name=name)

    def benchmark_resnet50(self):
        """ResNet-50 forward pass (keras.applications, weights=None), batch 32 x 224 x 224 x 3."""
        self._forward("resnet50",
                      lambda: keras.applications.ResNet50(weights=None, classifier_activation=None),
                      self.options.batch_for("network"),
                      "ResNet-50 v1 (keras.applications: the stride in the first 1x1 of a block, not the 3x3 as "
                      "v1.5), batch norm unfolded")

    def benchmark_mobilenet_v1(self):
        """MobileNet v1 (1.0, 224) forward pass (keras.applications, weights=None), batch 32 x 224 x 224 x 3."""
        self._forward("mobilenet_v1",
                      lambda: keras.applications.MobileNet(weights=None, alpha=1.0, classifier_activation=None),
                      self.options.batch_for("network"),
                      "MobileNet v1 1.0 224 (keras.applications, ReLU6, 1x1 convolution classifier), batch norm "
                      "unfolded")

    def benchmark_imdb_lstm(self):
        """IMDB sentiment LSTM inference (embedding 20000x128, LSTM 128, dense sigmoid), batch 32 x 80 tokens."""
        batch = self.options.batch_for("lstm")
        length = self.options.sequence_length
        with tf.device(self.device):
            model = imdb_lstm(length)
            tokens = tf.constant(synthetic_inputs.token_sequences(batch, length).astype("int32"))
            predict = tf.function(lambda x: model(x, training=False))
            result = {}

            def infer():
                result["predictions"] = predict(tokens).numpy()

            series = perfzero.measure(infer, name="inference", warmups=self.options.warmups,
                                      min_repetitions=self.options.repetitions_for("lstm"))
        workload_figures.check_predictions(result["predictions"])
        self.report_benchmark(iters=len(series.values), wall_time=series.median,
                              metrics=workload_figures.lstm_metrics(batch, series.median),
                              extras=self._extras(batch, sequence_length=length), name="imdb_lstm")

    def benchmark_mnist_cnn_step(self):
        """MNIST CNN training step (Conv32-Conv64-MaxPool-Dropout-Dense128-Dropout-Dense10, Adadelta), batch 128."""
        batch = self.options.batch_for("training")
        with tf.device(self.device):
            model = mnist_cnn()
            # Keras's Adadelta as the oneDNN method runs it: rho 0.95, epsilon 1e-7, learning rate 1.0.
            optimizer = keras.optimizers.Adadelta(learning_rate=1.0, rho=0.95, epsilon=1e-7)
            loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
            data = [(tf.constant(x[..., None]), tf.constant(y)) for x, y in synthetic_inputs.mnist_set(batch)]

            @tf.function
            def train_step(images, labels):
                with tf.GradientTape() as tape:
                    loss = loss_fn(labels, model(images, training=True))
                gradients = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(gradients, model.trainable_variables))
                return loss

            losses = []

            def step():
                images, labels = data[len(losses) % len(data)]
                losses.append(float(train_step(images, labels)))  # float() waits for the device

            series = perfzero.measure(step, name="training_step", warmups=self.options.warmups,
                                      min_repetitions=self.options.repetitions_for("training"))
        timed_losses = losses[-len(series.values):]
        self.report_benchmark(
            iters=len(series.values), wall_time=series.median,
            metrics=workload_figures.training_metrics(batch, series.median, timed_losses),
            extras=self._extras(batch, steps=len(series.values),
                                optimizer="Adadelta (rho 0.95, epsilon 1e-7, learning rate 1.0)"),
            name="mnist_cnn_step")
