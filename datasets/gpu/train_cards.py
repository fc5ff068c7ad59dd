#!/usr/bin/env python3
"""
Trains the recogniser's card-identity or card-index CNN with PyTorch on an accelerator (CUDA;
the CPU works too, slowly) and writes it in TF.js layers format, so the TypeScript recogniser
loads it exactly as it loads a model from `npm run train`.

Why it exists: on our 2-core machine a wasm training step takes 1.3 s, so the committed models
saw about 330,000 augmented crops and still underfit (training accuracy about 0.7). When a task
is lent a GPU, this trainer runs the same models, the same augmentation and the same loss a
hundred times faster. It holds no data logic: the pack written by
`npm run dataset -- --gpu-pack DIR` (datasets/lib/gpu-pack.ts) carries the images, every
entry's labels, the weighted training pools and the validation entries.

What mirrors the TypeScript side (keep in step):
- the models: datasets/lib/identity-model.ts and index-model.ts (conv without bias, BatchNorm
  eps 1e-3, ReLU; TF "same" padding, which pads the bottom/right more at stride 2);
- the augmentation: datasets/lib/augment.ts (`augmentInto`), batched here on the device;
- the index examples: datasets/lib/index-batches.ts (12 % card-interior "no index" crops);
- the loss: categorical cross-entropy with label smoothing 0.05.
The weights are written in the committed model's manifest order with its topology (`--template`),
kernels turned to TF's [kh, kw, in, out] and the index model's flatten in TF's NHWC order.

Usage (see docs/VISION.md, "Training on an accelerator"):
  python3 datasets/gpu/train_cards.py --pack DIR --model identity --out OUT [--seconds 300]
  python3 datasets/gpu/train_cards.py --pack DIR --model index --out OUT [--seconds 300]
  python3 datasets/gpu/train_cards.py --pack DIR --model identity --init models/card-identity --check
    (no training: loads the TF.js weights, prints their plain validation accuracy and writes
    them back out, to check the two layouts agree)
"""
import argparse
import json
import math
import os
import struct
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TEMPLATES = {'identity': os.path.join(REPO, 'models', 'card-identity'), 'index': os.path.join(REPO, 'models', 'card-index')}
NO_RANK, NO_SUIT = 13, 4


# ---------------------------------------------------------------- models (as in datasets/lib/*-model.ts)

def tf_same_pad(size, kernel, stride):
    """TF's 'same' padding (before, after) along one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


class ConvBlock(nn.Module):
    """conv (no bias, TF 'same' padding) -> BatchNorm (eps 1e-3, Keras momentum 0.99) -> ReLU."""

    def __init__(self, cin, cout, stride, kernel=3):
        super().__init__()
        self.kernel, self.stride = kernel, stride
        self.conv = nn.Conv2d(cin, cout, kernel, stride, padding=0, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=1e-3, momentum=0.01)
        nn.init.kaiming_normal_(self.conv.weight, nonlinearity='relu')

    def forward(self, x):
        top, bottom = tf_same_pad(x.shape[2], self.kernel, self.stride)
        left, right = tf_same_pad(x.shape[3], self.kernel, self.stride)
        return F.relu(self.bn(self.conv(F.pad(x, (left, right, top, bottom)))))


class IdentityNet(nn.Module):
    """datasets/lib/identity-model.ts: [N,3,96,64] -> class logits and the 96-d embedding."""

    blocks = [('b1', 3, 24, 2, 5), ('b2', 24, 48, 2, 3), ('b3', 48, 96, 2, 3), ('b4a', 96, 128, 1, 3), ('b4b', 128, 192, 2, 3)]

    def __init__(self, classes):
        super().__init__()
        self.convs = nn.ModuleDict({name: ConvBlock(cin, cout, s, k) for name, cin, cout, s, k in self.blocks})
        self.embedding = nn.Linear(192, 96)
        self.probs = nn.Linear(96, classes)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        for name, *_ in self.blocks:
            x = self.convs[name](x)
        embedding = self.embedding(x.mean(dim=(2, 3)))
        return self.probs(self.drop(F.relu(embedding))), embedding


class IndexNet(nn.Module):
    """datasets/lib/index-model.ts: [N,3,48,32] -> rank (14) and suit (5) logits."""

    blocks = [('c1', 3, 32, 1, 3), ('c2', 32, 48, 2, 3), ('c3', 48, 64, 1, 3), ('c4', 64, 96, 2, 3), ('c5', 96, 128, 2, 3)]

    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleDict({name: ConvBlock(cin, cout, s, k) for name, cin, cout, s, k in self.blocks})
        self.features = nn.Linear(6 * 4 * 128, 128)
        self.rank = nn.Linear(128, 14)
        self.suit = nn.Linear(128, 5)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        for name, *_ in self.blocks:
            x = self.convs[name](x)
        flat = x.permute(0, 2, 3, 1).reshape(x.shape[0], -1)  # TF flattens NHWC
        h = self.drop(F.relu(self.features(flat)))
        return self.rank(h), self.suit(h)


# ---------------------------------------------------------------- TF.js layers format

def tf_weights(model):
    """name -> numpy array in TF layout, for every weight a TF.js manifest names: the conv blocks
    (`model.convs`), dense layers and plain convolutions (such as the locator's `head`) among its children."""
    out = {}
    for name, block in model.convs.items():
        out[f'{name}_conv/kernel'] = block.conv.weight.detach().cpu().permute(2, 3, 1, 0).numpy()
        out[f'{name}_bn/gamma'] = block.bn.weight.detach().cpu().numpy()
        out[f'{name}_bn/beta'] = block.bn.bias.detach().cpu().numpy()
        out[f'{name}_bn/moving_mean'] = block.bn.running_mean.detach().cpu().numpy()
        out[f'{name}_bn/moving_variance'] = block.bn.running_var.detach().cpu().numpy()
    for name, module in model.named_children():
        if isinstance(module, nn.Linear):
            out[f'{name}/kernel'] = module.weight.detach().cpu().t().numpy()
            out[f'{name}/bias'] = module.bias.detach().cpu().numpy()
        elif isinstance(module, nn.Conv2d):
            out[f'{name}/kernel'] = module.weight.detach().cpu().permute(2, 3, 1, 0).numpy()
            if module.bias is not None:
                out[f'{name}/bias'] = module.bias.detach().cpu().numpy()
    return out


def manifest_weights(template_dir):
    with open(os.path.join(template_dir, 'model.json')) as f:
        model_json = json.load(f)
    specs = [w for group in model_json['weightsManifest'] for w in group['weights']]
    return model_json, specs


def load_tfjs(model, model_dir):
    """Loads a TF.js layers model's weights (same topology) into `model` (the layout of tf_weights)."""
    model_json, specs = manifest_weights(model_dir)
    paths = [p for group in model_json['weightsManifest'] for p in group['paths']]
    blob = b''.join(open(os.path.join(model_dir, p), 'rb').read() for p in paths)
    values, offset = {}, 0
    for spec in specs:
        count = int(np.prod(spec['shape'])) if spec['shape'] else 1
        values[spec['name']] = np.frombuffer(blob, '<f4', count, offset).reshape(spec['shape'])
        offset += count * 4
    t = lambda name: torch.from_numpy(values[name].copy())
    with torch.no_grad():
        for name, block in model.convs.items():
            block.conv.weight.copy_(t(f'{name}_conv/kernel').permute(3, 2, 0, 1))
            block.bn.weight.copy_(t(f'{name}_bn/gamma'))
            block.bn.bias.copy_(t(f'{name}_bn/beta'))
            block.bn.running_mean.copy_(t(f'{name}_bn/moving_mean'))
            block.bn.running_var.copy_(t(f'{name}_bn/moving_variance'))
        for name, module in model.named_children():
            if isinstance(module, nn.Linear):
                module.weight.copy_(t(f'{name}/kernel').T)
                module.bias.copy_(t(f'{name}/bias'))
            elif isinstance(module, nn.Conv2d):
                module.weight.copy_(t(f'{name}/kernel').permute(3, 2, 0, 1))
                if module.bias is not None:
                    module.bias.copy_(t(f'{name}/bias'))


def save_tfjs(model, template_dir, out_dir, metadata, weights_file='weights.bin'):
    """Writes `model` as a TF.js layers model: the template's topology, its manifest order."""
    model_json, specs = manifest_weights(template_dir)
    weights = tf_weights(model)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, weights_file), 'wb') as f:
        for spec in specs:
            value = weights[spec['name']]
            if list(value.shape) != list(spec['shape']):
                raise ValueError(f"{spec['name']}: shape {value.shape} but the template has {spec['shape']}")
            f.write(np.ascontiguousarray(value, dtype='<f4').tobytes())
    model_json['weightsManifest'] = [{'paths': [weights_file], 'weights': specs}]
    model_json['userDefinedMetadata'] = metadata
    with open(os.path.join(out_dir, 'model.json'), 'w') as f:
        json.dump(model_json, f)


# ---------------------------------------------------------------- data

def load_pack(pack_dir, device):
    with open(os.path.join(pack_dir, 'cards.json')) as f:
        manifest = json.load(f)
    if manifest['format'] != 'nerts-gpu-pack/1':
        sys.exit(f"unknown pack format {manifest['format']}")
    blob = np.fromfile(os.path.join(pack_dir, 'cards.bin'), np.uint8)
    h, w = manifest['sourceHeight'], manifest['sourceWidth']
    images = np.empty((len(manifest['entries']), h, w, 3), np.uint8)
    for i, e in enumerate(manifest['entries']):
        bgr = cv2.imdecode(blob[e['offset']:e['offset'] + e['length']], cv2.IMREAD_COLOR)
        if bgr is None or bgr.shape != (h, w, 3):
            sys.exit(f'entry {i} ({e["label"]}) does not decode to {w}x{h}')
        images[i] = bgr[:, :, ::-1]
    # [N, 3, H, W] uint8 on the device: 20,000 sources are under 1 GB.
    return manifest, torch.from_numpy(images).permute(0, 3, 1, 2).contiguous().to(device)


def homographies(src, dst):
    """Batched 3x3 homographies mapping 4 points `src` [B,4,2] to `dst` [B,4,2] (float64)."""
    b = src.shape[0]
    a = torch.zeros(b, 8, 8, dtype=torch.float64, device=src.device)
    rhs = torch.zeros(b, 8, dtype=torch.float64, device=src.device)
    for k in range(4):
        x, y = src[:, k, 0], src[:, k, 1]
        u, v = dst[:, k, 0], dst[:, k, 1]
        a[:, 2 * k, 0], a[:, 2 * k, 1], a[:, 2 * k, 2] = x, y, 1
        a[:, 2 * k, 6], a[:, 2 * k, 7] = -x * u, -y * u
        a[:, 2 * k + 1, 3], a[:, 2 * k + 1, 4], a[:, 2 * k + 1, 5] = x, y, 1
        a[:, 2 * k + 1, 6], a[:, 2 * k + 1, 7] = -x * v, -y * v
        rhs[:, 2 * k], rhs[:, 2 * k + 1] = u, v
    h = torch.linalg.solve(a, rhs)
    return torch.cat([h, torch.ones(b, 1, dtype=h.dtype, device=h.device)], 1).reshape(b, 3, 3)


def apply_h(h, pts):
    """Points [B,K,2] through homographies [B,3,3]."""
    ones = torch.ones_like(pts[..., :1])
    p = torch.cat([pts, ones], -1) @ h.transpose(1, 2)
    return p[..., :2] / p[..., 2:]


def rect(w, h, b, device):
    return torch.tensor([[0, 0], [w, 0], [w, h], [0, h]], dtype=torch.float64, device=device).expand(b, 4, 2)


class Augmenter:
    """datasets/lib/augment.ts `augmentInto`, a batch at a time on the device."""

    def __init__(self, images, device, seed):
        self.images = images
        self.device = device
        self.gen = torch.Generator(device=device)
        self.gen.manual_seed(seed)

    def u(self, b, lo=0.0, hi=1.0):
        return torch.rand(b, device=self.device, generator=self.gen, dtype=torch.float64) * (hi - lo) + lo

    def n(self, *shape):
        return torch.randn(*shape, device=self.device, generator=self.gen, dtype=torch.float64)

    def crops(self, idx, s, out_w, out_h, regions=None, occlusion=0.3, backgrounds=None):
        """
        Float crops [B,3,out_h,out_w] 0..1 of entries `idx` at strength `s`; `regions` [B,4] card
        units; `backgrounds` [B] entries whose pixels show where the crop leaves the card (-1: a
        random colour, as augment.ts). `self.last_upside` [B] says which were turned upside down.
        """
        src = self.images[idx].float() / 255
        b, _, h, w = src.shape
        dev = self.device
        angle = self.u(b, -8, 8) * math.pi / 180 * s
        scale = 1 + self.u(b, -0.06, 0.05) * s
        cx = w / 2 + self.u(b, -0.04, 0.04) * w * s
        cy = h / 2 + self.u(b, -0.04, 0.04) * h * s
        base = rect(w, h, b, dev)
        dx = (base[..., 0] - w / 2) * scale[:, None] + self.n(b, 4) * 0.025 * w * s
        dy = (base[..., 1] - h / 2) * scale[:, None] + self.n(b, 4) * 0.025 * h * s
        cos, sin = torch.cos(angle)[:, None], torch.sin(angle)[:, None]
        quad = torch.stack([cx[:, None] + dx * cos - dy * sin, cy[:, None] + dx * sin + dy * cos], -1)
        upside = torch.zeros(b, dtype=torch.bool, device=dev)
        if s > 0:
            upside = self.u(b) < 0.5
            quad = torch.where(upside[:, None, None], quad[:, [2, 3, 0, 1]], quad)
        self.last_upside = upside
        if regions is not None:
            card_to_image = homographies(rect(1, 1, b, dev), quad)
            x0, y0, x1, y1 = regions.double().unbind(1)
            corners = torch.stack([torch.stack([x0, y0], -1), torch.stack([x1, y0], -1), torch.stack([x1, y1], -1), torch.stack([x0, y1], -1)], 1)
            quad = apply_h(card_to_image, corners)
        fill = torch.rand(b, 3, 1, 1, device=dev, generator=self.gen)
        out_to_src = homographies(rect(out_w, out_h, b, dev), quad)
        ys, xs = torch.meshgrid(torch.arange(out_h, device=dev, dtype=torch.float64) + 0.5, torch.arange(out_w, device=dev, dtype=torch.float64) + 0.5, indexing='ij')
        pts = apply_h(out_to_src, torch.stack([xs, ys], -1).reshape(1, -1, 2).expand(b, -1, 2))
        inside = (pts[..., 0] >= 0) & (pts[..., 0] <= w) & (pts[..., 1] >= 0) & (pts[..., 1] <= h)
        grid = torch.stack([pts[..., 0] * 2 / w - 1, pts[..., 1] * 2 / h - 1], -1).reshape(b, out_h, out_w, 2).float()
        out = F.grid_sample(src, grid, mode='bilinear', padding_mode='border', align_corners=False)
        if backgrounds is not None:
            # The table around a misplaced outline: another source image, seen through the same grid.
            other = self.images[backgrounds.clamp(min=0)].float() / 255
            around = F.grid_sample(other, grid, mode='bilinear', padding_mode='reflection', align_corners=False)
            fill = torch.where((backgrounds >= 0)[:, None, None, None], around, fill.expand(b, 3, out_h, out_w))
        out = torch.where(inside.reshape(b, 1, out_h, out_w), out, fill)
        if s == 0:
            return out
        out = self.resolution(out, s)
        out = self.occlude(out, occlusion * s)
        out = self.glare(out, 0.15 * s)
        return self.photometric(out, s)

    def resolution(self, x, s):
        """Low resolution (2-3x down and up, then a blur) or a plain box blur."""
        b, _, h, w = x.shape
        low = self.u(b)
        blur_only = (low >= 0.35 * s) & (self.u(b) < 0.3 * s)
        down_up = x
        for k, chosen in ((2, (low < 0.35 * s) & (low >= 0.12 * s)), (3, low < 0.12 * s)):
            pooled = F.avg_pool2d(x, k, k, ceil_mode=True)
            up = pooled.repeat_interleave(k, 2).repeat_interleave(k, 3)[:, :, :h, :w]
            down_up = torch.where(chosen[:, None, None, None], up, down_up)
        blurred = box_blur(down_up)
        lowres = low < 0.35 * s
        return torch.where(lowres[:, None, None, None], blurred, torch.where(blur_only[:, None, None, None], box_blur(x), x))

    def occlude(self, x, p):
        """A hand or another card over part of one side, up to 45 % deep."""
        b, _, h, w = x.shape
        on = self.u(b) < p
        side = torch.floor(self.u(b) * 4).long()
        depth = self.u(b, 0.15, 0.45)
        along0 = self.u(b, 0, 0.5)
        along1 = along0 + self.u(b, 0.3, 1)
        skin = self.u(b) < 0.5
        skin_colour = torch.stack([self.u(b, 0.45, 0.95), self.u(b, 0.3, 0.75), self.u(b, 0.2, 0.6)], 1)
        colour = torch.where(skin[:, None], skin_colour, torch.stack([self.u(b), self.u(b), self.u(b)], 1)).float()
        uu = (torch.arange(w, device=x.device, dtype=torch.float64) / w)[None, None, :]
        vv = (torch.arange(h, device=x.device, dtype=torch.float64) / h)[None, :, None]
        d, a0, a1 = depth[:, None, None], along0[:, None, None], along1[:, None, None]
        masks = [
            (vv < d) & (uu >= a0) & (uu <= a1),
            (vv > 1 - d) & (uu >= a0) & (uu <= a1),
            (uu < d) & (vv >= a0) & (vv <= a1),
            (uu > 1 - d) & (vv >= a0) & (vv <= a1),
        ]
        mask = torch.zeros(b, h, w, dtype=torch.bool, device=x.device)
        for k, m in enumerate(masks):
            mask |= m & (side == k)[:, None, None]
        mask &= on[:, None, None]
        return torch.where(mask[:, None], colour[:, :, None, None], x)

    def glare(self, x, p):
        b, _, h, w = x.shape
        on = (self.u(b) < p).float()
        gx, gy = self.u(b, 0, w), self.u(b, 0, h)
        radius = self.u(b, 8, 30) * (w / 64)
        strength = self.u(b, 0.3, 0.8)
        xx = torch.arange(w, device=x.device, dtype=torch.float64)[None, None, :]
        yy = torch.arange(h, device=x.device, dtype=torch.float64)[None, :, None]
        d2 = ((xx - gx[:, None, None]) ** 2 + (yy - gy[:, None, None]) ** 2) / (radius[:, None, None] ** 2)
        a = strength[:, None, None] * torch.exp(-d2)
        a = torch.where(a < 0.01, torch.zeros_like(a), a) * on[:, None, None]
        a = a.float()[:, None]
        return x + (1 - x) * a

    def photometric(self, x, s):
        """Exposure, contrast, white balance, gamma, noise, occasional greyscale."""
        b = x.shape[0]
        col = lambda t: t.float()[:, None, None, None]
        gain = torch.stack([self.u(b, 0.75, 1.2) for _ in range(3)], 1).float()[:, :, None, None]
        brightness = col(self.u(b, -0.15, 0.12) * s)
        contrast = col(1 + self.u(b, -0.35, 0.25) * s)
        gamma = col(torch.exp(self.u(b, -0.3, 0.3) * s))
        noisy = self.u(b) < 0.5
        noise = col(torch.where(noisy, self.u(b, 0, 0.05) * s, torch.zeros(b, dtype=torch.float64, device=x.device)))
        grey = self.u(b) < 0.05
        luma = (0.299 * x[:, 0:1] + 0.587 * x[:, 1:2] + 0.114 * x[:, 2:3]).expand_as(x)
        x = torch.where(grey[:, None, None, None], luma, x)
        x = x * (1 + (gain - 1) * s)
        x = ((x - 0.5) * contrast + 0.5 + brightness).clamp(0, 1)
        x = x.pow(gamma)
        x = x + torch.randn(x.shape, device=x.device, generator=self.gen) * noise
        return x.clamp(0, 1)


def box_blur(x):
    """3x3 mean clipped at the borders (augment.ts boxBlur, radius 1)."""
    return F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)


# ---------------------------------------------------------------- tasks

class IdentityTask:
    name = 'identity'
    width, height = 64, 96

    def __init__(self, manifest, device, fragments=0.0, margins=0.0):
        self.entries = manifest['entries']
        self.classes = torch.tensor([e['cls'] for e in self.entries], device=device)
        self.pool = torch.tensor(manifest['identityPool'], device=device)
        self.valid = manifest['valid']
        self.heldout = manifest['heldout']
        self.class_names = manifest['classNames']
        self.loss = nn.CrossEntropyLoss(label_smoothing=0.05)
        self.fragments = fragments
        self.margins = margins
        # Backgrounds for fragments: reject textures and real crops (cards53 of any class).
        self.others = torch.tensor([i for i, e in enumerate(self.entries) if e['split'] == 'train' and e['group'] in ('other', 'cards53')], device=device)

    def build(self):
        return IdentityNet(len(self.class_names))

    def batch(self, aug, idx, s):
        classes = self.classes[idx]
        if s == 0 or (self.fragments == 0 and self.margins == 0):
            return aug.crops(idx, s, self.width, self.height), classes
        # Wrong outlines of a face (half of it, shifted, around it, inside it) are not a card: the
        # localiser proposes such hypotheses, and the model picks among them by its confidence.
        b = idx.shape[0]
        fragment = (aug.u(b) < self.fragments) & (classes < 52)
        # A loose outline of the whole card (a little of the table or a neighbour round it) is
        # still that card: without these, fragments taught the model that a back whose outline
        # is a few pixels off is `other` (session 34).
        margin = ~fragment & (aug.u(b) < self.margins)
        whole = torch.tensor([0.0, 0.0, 1.0, 1.0], dtype=torch.float64, device=idx.device).expand(b, 4)
        regions = torch.where(fragment[:, None], fragment_regions(aug, b), torch.where(margin[:, None], margin_regions(aug, b), whole))
        around = self.others[torch.randint(len(self.others), (b,), device=idx.device, generator=aug.gen)]
        backgrounds = torch.where(fragment | margin, around, torch.full_like(idx, -1))
        x = aug.crops(idx, s, self.width, self.height, regions=regions, backgrounds=backgrounds)
        return x, torch.where(fragment, torch.full_like(classes, 52), classes)

    def loss_and_right(self, model, x, y):
        logits, _ = model(x)
        return self.loss(logits, y), (logits.argmax(1) == y).float().mean()

    def right(self, model, x, y):
        logits, _ = model(x)
        return logits.argmax(1) == y


def margin_regions(aug, b):
    """[B,4] card-unit regions of loose outlines of the whole card: each side 0-10 % out, or up to 2 % in."""
    return torch.stack([aug.u(b, -0.10, 0.02), aug.u(b, -0.08, 0.02), aug.u(b, 0.98, 1.10), aug.u(b, 0.98, 1.08)], 1)


def fragment_regions(aug, b):
    """[B,4] card-unit regions of wrong outlines: a half, a shifted card, 1.6-2.2x around it, 0.35-0.6 inside it."""
    dev = aug.device
    kind = torch.floor(aug.u(b) * 4).long()
    # half: one of the four halves, 0.4-0.6 of the card
    cut = aug.u(b, 0.4, 0.6)
    side = torch.floor(aug.u(b) * 4).long()
    zeros, ones = torch.zeros(b, dtype=torch.float64, device=dev), torch.ones(b, dtype=torch.float64, device=dev)
    halves = torch.stack([
        torch.stack([zeros, zeros, cut, ones], 1), torch.stack([1 - cut, zeros, ones, ones], 1),
        torch.stack([zeros, zeros, ones, cut], 1), torch.stack([zeros, 1 - cut, ones, ones], 1)], 1)
    half = halves[torch.arange(b, device=dev), side]
    # shifted: 0.3-0.6 of the card along one or both axes
    sign = lambda: torch.where(aug.u(b) < 0.5, -ones, ones)
    dx = aug.u(b, 0.3, 0.6) * sign() * (aug.u(b) < 0.7)
    dy = aug.u(b, 0.3, 0.6) * sign()
    dy = torch.where(dx == 0, dy, dy * (aug.u(b) < 0.5))
    shifted = torch.stack([dx, dy, 1 + dx, 1 + dy], 1)
    # around / inside, centred within 0.1
    k_out, k_in = aug.u(b, 1.6, 2.2), aug.u(b, 0.35, 0.6)
    cx, cy = 0.5 + aug.u(b, -0.1, 0.1), 0.5 + aug.u(b, -0.1, 0.1)
    around = torch.stack([cx - k_out / 2, cy - k_out / 2, cx + k_out / 2, cy + k_out / 2], 1)
    inside = torch.stack([cx - k_in / 2, cy - k_in / 2, cx + k_in / 2, cy + k_in / 2], 1)
    options = torch.stack([half, shifted, around, inside], 1)
    return options[torch.arange(b, device=dev), kind]


class IndexTask:
    name = 'index'
    width, height = 32, 48

    def __init__(self, manifest, device):
        self.entries = manifest['entries']
        self.device = device
        self.ranks = torch.tensor([e['rank'] for e in self.entries], device=device)
        self.suits = torch.tensor([e['suit'] for e in self.entries], device=device)
        self.pool = torch.tensor(manifest['indexPool'], device=device)
        # Rendered strip crops (index-batches.ts isStripCrop): read turned, their covered corner shows no index.
        self.strip = torch.zeros(len(self.entries), dtype=torch.bool, device=device)
        self.strip[torch.tensor(manifest.get('strip', []), dtype=torch.long, device=device)] = True
        no_index = set(manifest['noIndex'])
        self.valid = [i for i in manifest['valid'] if i not in no_index]
        self.heldout = [i for i in manifest['heldout'] if i not in no_index]
        r = manifest['index']['region']
        self.region = torch.tensor([r['x0'], r['y0'], r['x1'], r['y1']], dtype=torch.float64, device=device)
        self.loss = nn.CrossEntropyLoss(label_smoothing=0.05)

    def build(self):
        return IndexNet()

    def batch(self, aug, idx, s, interior_share=0.12):
        b = idx.shape[0]
        ranks, suits = self.ranks[idx], self.suits[idx]
        regions = self.region.expand(b, 4).clone()
        if s > 0:
            # A card-interior region the index's size: pips or court art, "no index".
            interior = (aug.u(b) < interior_share) & (ranks != NO_RANK)
            w, h = float(self.region[2] - self.region[0]), float(self.region[3] - self.region[1])
            x0, y0 = aug.u(b, 0.24, 0.5), aug.u(b, 0.26, 0.44)
            inner = torch.stack([x0, y0, x0 + w, y0 + h], 1)
            regions = torch.where(interior[:, None], inner, regions)
            ranks = torch.where(interior, torch.full_like(ranks, NO_RANK), ranks)
            suits = torch.where(interior, torch.full_like(suits, NO_SUIT), suits)
        x = aug.crops(idx, s, self.width, self.height, regions=regions, occlusion=0.08)
        covered = aug.last_upside & self.strip[idx]
        ranks = torch.where(covered, torch.full_like(ranks, NO_RANK), ranks)
        suits = torch.where(covered, torch.full_like(suits, NO_SUIT), suits)
        return x, torch.stack([ranks, suits], 1)

    def loss_and_right(self, model, x, y):
        rank, suit = model(x)
        loss = self.loss(rank, y[:, 0]) + self.loss(suit, y[:, 1])
        return loss, ((rank.argmax(1) == y[:, 0]) & (suit.argmax(1) == y[:, 1])).float().mean()

    def right(self, model, x, y):
        rank, suit = model(x)
        return (rank.argmax(1) == y[:, 0]) & (suit.argmax(1) == y[:, 1])


@torch.no_grad()
def accuracy(task, model, images, device, indices, strength, seed, repeats=1):
    """Top-1 share of `indices` (each `repeats` times) with inputs made at `strength`, fixed seed."""
    if not indices:
        return float('nan')
    model.eval()
    aug = Augmenter(images, device, seed)
    all_idx = torch.tensor([i for i in indices for _ in range(repeats)], device=device)
    right = 0
    for start in range(0, len(all_idx), 512):
        idx = all_idx[start:start + 512]
        x, y = task.batch(aug, idx, strength)
        right += int(task.right(model, x, y).sum())
    model.train()
    return right / len(all_idx)


# ---------------------------------------------------------------- training helpers (shared with train_locator.py)

def torch_device(name, seed):
    """The device to train on, seeded; on CUDA with cuDNN autotuning and TF32 matrix products."""
    torch.manual_seed(seed)
    device = torch.device(name)
    if device.type == 'cuda':
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    return device


def adamw(model, lr, weight_decay):
    """AdamW with weight decay on kernels only (not on biases or BatchNorm scales)."""
    decay, no_decay = [], []
    for _, param in model.named_parameters():
        (decay if param.dim() > 1 else no_decay).append(param)
    return torch.optim.AdamW([{'params': decay, 'weight_decay': weight_decay}, {'params': no_decay, 'weight_decay': 0}], lr=lr)


def set_schedule(opt, lr, step, progress, warmup=300):
    """A linear warm-up over `warmup` steps, then a cosine over the time budget (`progress` 0..1)."""
    for group in opt.param_groups:
        group['lr'] = lr * min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * progress))


def metadata(template_dir, step, seconds, extra):
    with open(os.path.join(template_dir, 'model.json')) as f:
        md = dict(json.load(f)['userDefinedMetadata'])
    md.pop('interpolated', None)
    md.update({'epoch': step, 'backend': f'pytorch-{torch.__version__}', 'trainedBy': 'datasets/gpu/train_cards.py', 'steps': step, 'seconds': round(seconds), **extra})
    return md


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--pack', required=True)
    p.add_argument('--model', choices=['identity', 'index'], required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--seconds', type=float, default=300, help='training time budget (the cosine schedule runs over it)')
    p.add_argument('--steps', type=int, default=10**9, help='stop after this many steps at the latest')
    p.add_argument('--batch', type=int, default=256)
    p.add_argument('--lr', type=float, default=3e-3)
    p.add_argument('--weight-decay', type=float, default=1e-4)
    p.add_argument('--strength', type=float, default=1.0)
    p.add_argument('--fragments', type=float, default=0.0, help='identity: share of face samples cut as a wrong outline and labelled "other"')
    p.add_argument('--margins', type=float, default=0.0, help='identity: share of the other samples cropped loosely (0-10 %% of table round the card), label kept')
    p.add_argument('--eval-every', type=float, default=20, help='seconds between validation passes')
    p.add_argument('--init', help='TF.js model folder to start from (default: fresh weights)')
    p.add_argument('--check', action='store_true', help='no training: load --init, report, write it back')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    args = p.parse_args()

    device = torch_device(args.device, args.seed)
    started = time.time()
    manifest, images = load_pack(args.pack, device)
    task = IdentityTask(manifest, device, args.fragments, args.margins) if args.model == 'identity' else IndexTask(manifest, device)
    template = TEMPLATES[args.model]
    if args.model == 'identity':
        with open(os.path.join(template, 'model.json')) as f:
            if json.load(f)['userDefinedMetadata']['classNames'] != manifest['classNames']:
                sys.exit('the pack\'s classes differ from the committed model\'s: rebuild the template first')
    print(f'[{args.model}] {len(manifest["entries"])} sources, pool {len(task.pool)}, on {device} '
          f'({torch.cuda.get_device_name() if device.type == "cuda" else "cpu"}), loaded in {time.time() - started:.1f}s', flush=True)

    model = task.build().to(device)
    if args.init:
        load_tfjs(model, args.init)
    if args.check:
        valid = accuracy(task, model, images, device, task.valid, 0, 1)
        heldout = accuracy(task, model, images, device, task.heldout, 0.5, 2, repeats=4)
        save_tfjs(model, template, args.out, metadata(template, 0, 0, {}))
        print(json.dumps({'model': args.model, 'validAcc': valid, 'heldoutDeckAcc': heldout}))
        return

    opt = adamw(model, args.lr, args.weight_decay)
    aug = Augmenter(images, device, args.seed + 100)
    history, best = [], {'validAcc': -1}
    step, loss_sum, right_sum, seen = 0, 0.0, 0.0, 0
    train_start = time.time()
    last_eval = train_start

    def evaluate():
        nonlocal loss_sum, right_sum, seen, last_eval
        valid = accuracy(task, model, images, device, task.valid, 0, 1)
        heldout = accuracy(task, model, images, device, task.heldout, 0.5, 2, repeats=4)
        elapsed = time.time() - train_start
        row = {'step': step, 'seconds': round(elapsed, 1), 'samples': step * args.batch, 'lr': opt.param_groups[0]['lr'],
               'loss': loss_sum / max(seen, 1), 'trainAcc': right_sum / max(seen, 1), 'validAcc': valid, 'heldoutDeckAcc': heldout}
        history.append(row)
        print(json.dumps(row), flush=True)
        loss_sum, right_sum, seen = 0.0, 0.0, 0
        last_eval = time.time()
        # The history rides in each model's metadata: a lent machine hands back 8 files at most.
        extra = {'validAcc': valid, 'heldoutDeckAcc': heldout, 'batch': args.batch, 'lr': args.lr, 'fragments': args.fragments, 'margins': args.margins, 'seed': args.seed, 'history': history}
        # Kept: the last model always, and the best by cards53 valid (then the held-out deck).
        save_tfjs(model, template, os.path.join(args.out, 'last'), metadata(template, step, elapsed, extra))
        if (valid, heldout) > (best['validAcc'], best.get('heldoutDeckAcc', -1)):
            best.update(row)
            save_tfjs(model, template, os.path.join(args.out, 'best'), metadata(template, step, elapsed, extra))

    model.train()
    while step < args.steps:
        t = (time.time() - train_start) / args.seconds
        if t >= 1:
            break
        set_schedule(opt, args.lr, step, t)
        idx = task.pool[torch.randint(len(task.pool), (args.batch,), device=device, generator=aug.gen)]
        x, y = task.batch(aug, idx, args.strength)
        loss, right = task.loss_and_right(model, x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        if step % 10 == 0:  # reading a loss waits for the GPU: every 10th step is sampled
            loss_sum += float(loss.detach())
            right_sum += float(right)
            seen += 1
        if time.time() - last_eval > args.eval_every:
            evaluate()
    evaluate()
    print(json.dumps({'model': args.model, 'steps': step, 'samples': step * args.batch, 'seconds': round(time.time() - train_start),
                      'best': best, 'last': history[-1]}), flush=True)


if __name__ == '__main__':
    main()
