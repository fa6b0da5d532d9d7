"""MobileNet v1 (width 1.0, 224 x 224) in PyTorch: torchvision has only v2 and v3.

The same layers as the oneDNN family's (benchmarks/onednn/network.cpp) and Keras's
`keras.applications.MobileNet`: a 3 x 3 stride-2 convolution to 32 channels, 13 depthwise-separable
blocks, global average pooling and a 1000-way classifier; batch norm after every convolution and
ReLU6, as Keras has it.
"""
from torch import nn

# (pointwise output channels, depthwise stride) of the 13 blocks.
BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (512, 1),
          (512, 1), (1024, 2), (1024, 1)]


def _conv_bn_relu6(inputs, outputs, kernel, stride, groups=1):
    return [nn.Conv2d(inputs, outputs, kernel, stride, kernel // 2, groups=groups, bias=False),
            nn.BatchNorm2d(outputs), nn.ReLU6(inplace=True)]


class MobileNetV1(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        layers = _conv_bn_relu6(3, 32, 3, 2)
        channels = 32
        for outputs, stride in BLOCKS:
            layers += _conv_bn_relu6(channels, channels, 3, stride, groups=channels)  # depthwise
            layers += _conv_bn_relu6(channels, outputs, 1, 1)  # pointwise
            channels = outputs
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x):
        return self.classifier(self.pool(self.features(x)).flatten(1))
