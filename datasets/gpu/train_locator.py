#!/usr/bin/env python3
"""
Trains the learned card locator (models/card-locator) with PyTorch on an accelerator and writes
it in TF.js layers format, so server/vision/locator.ts loads it exactly as it loads a model from
`npm run train -- --model locator`.

Why it exists: the committed locator was trained on the wasm backend (session 3, fine-tuned on
the CPU in session 44) and is weak: on the held-out frames it finds about 58 % of the cards. A
lent GPU runs the same net on the same kind of windows a thousand times more often.

It holds no data logic of its own beyond what must run on the device: the pack written by
`npm run dataset -- --gpu-locator-pack DIR` (datasets/lib/locator-pack.ts) carries the frames,
every frame's cards and the window and target settings. What mirrors the TypeScript side (keep in
step):
- the net: datasets/lib/locator-model.ts `buildLocatorModel` (conv blocks as train_cards.py,
  nearest 2x upsampling, 1x1 lateral and input blocks added, a 1x1 `head` with a bias);
- the windows: datasets/lib/locator-data.ts `sampleWindow` (random zoom, turn and centre, a
  plain colour beyond the frame, a box blur on some, then augment.ts's `photometric`);
- the targets: `encodeLocatorTargets` (a Gaussian peak at each findable card's centre, the card's
  geometry around it, cells by a barely visible card's centre not scored), written here as one
  batched computation;
- the loss: `locatorLoss` (focal loss on the heat, heat-weighted L1 on the geometry).
`--check` loads `--init`, scores it, writes it back (the weights must come out byte-identical) and
writes check.json: two fixed windows, their cards, the targets encoded here and the net's outputs,
for the TypeScript side to compare (test/locator-pack.test.ts keeps one such file).

Usage:
  python3 datasets/gpu/train_locator.py --pack DIR --out OUT [--seconds 300] [--init models/card-locator]
  python3 datasets/gpu/train_locator.py --pack DIR --init models/card-locator --check --out OUT
"""
import argparse
import json
import math
import os
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_cards import Augmenter, ConvBlock, adamw, box_blur, load_tfjs, save_tfjs, set_schedule, torch_device  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TEMPLATE = os.path.join(REPO, 'models', 'card-locator')


# ---------------------------------------------------------------- the net (datasets/lib/locator-model.ts)

class LocatorNet(nn.Module):
    """[N,3,H,W] RGB 0..1 (H, W multiples of 32) -> [N,7,H/4,W/4]: heat logit and geometry."""

    encoder = [('e1', 3, 16, 2), ('e2', 16, 32, 2), ('e3a', 32, 48, 2), ('e3b', 48, 48, 1),
               ('e4a', 48, 64, 2), ('e4b', 64, 64, 1), ('e5a', 64, 96, 2), ('e5b', 96, 96, 1)]
    # (name, channels coming up, channels of the skip, filters)
    decoder = [('d4', 96, 64, 64), ('d3', 64, 48, 48), ('d2', 48, 32, 32)]

    def __init__(self, outputs=7):
        super().__init__()
        convs = {name: ConvBlock(cin, cout, s, 3) for name, cin, cout, s in self.encoder}
        for name, cup, cskip, f in self.decoder:
            convs[f'{name}_in'] = ConvBlock(cup, f, 1, 1)
            convs[f'{name}_lat'] = ConvBlock(cskip, f, 1, 1)
            convs[f'{name}_out'] = ConvBlock(f, f, 1, 3)
        self.convs = nn.ModuleDict(convs)
        self.head = nn.Conv2d(32, outputs, 1, bias=True)
        nn.init.zeros_(self.head.bias)

    def forward(self, x):
        c = self.convs
        s2 = c['e1'](x)
        s4 = c['e2'](s2)
        s8 = c['e3b'](c['e3a'](s4))
        s16 = c['e4b'](c['e4a'](s8))
        y = c['e5b'](c['e5a'](s16))
        for (name, *_), skip in zip(self.decoder, (s16, s8, s4)):
            up = F.interpolate(y, scale_factor=2, mode='nearest')
            y = c[f'{name}_out'](c[f'{name}_in'](up) + c[f'{name}_lat'](skip))
        return self.head(y)


def save_locator(model, out_dir, metadata):
    """Writes the locator as a TF.js layers model (the committed one's topology and manifest order)."""
    save_tfjs(model, TEMPLATE, out_dir, metadata)


# ---------------------------------------------------------------- data

class Frames:
    """The pack's frames on the device: pixels [N,3,H,W] uint8, cards [N,K,4,2], visibility [N,K] (-1: no card)."""

    def __init__(self, pack_dir, device):
        with open(os.path.join(pack_dir, 'frames.json')) as f:
            self.manifest = m = json.load(f)
        if m['format'] != 'nerts-locator-pack/1':
            sys.exit(f"unknown pack format {m['format']}")
        blob = np.fromfile(os.path.join(pack_dir, 'frames.bin'), np.uint8)
        cards = np.fromfile(os.path.join(pack_dir, 'cards.bin'), '<f4').reshape(-1, m['cardValues']).astype(np.float64)
        h, w, frames = m['height'], m['width'], m['frames']
        pixels = np.empty((len(frames), h, w, 3), np.uint8)
        most = max(fr['cards'] for fr in frames)
        corners = np.zeros((len(frames), most, 4, 2), np.float64)
        visible = np.full((len(frames), most), -1.0)
        for i, fr in enumerate(frames):
            bgr = cv2.imdecode(blob[fr['offset']:fr['offset'] + fr['length']], cv2.IMREAD_COLOR)
            if bgr is None or bgr.shape != (h, w, 3):
                sys.exit(f'frame {i} does not decode to {w}x{h}')
            pixels[i] = bgr[:, :, ::-1]
            mine = cards[fr['firstCard']:fr['firstCard'] + fr['cards']]
            corners[i, :len(mine)] = mine[:, :8].reshape(-1, 4, 2)
            visible[i, :len(mine)] = mine[:, 8]
        self.width, self.height = w, h
        self.pixels = torch.from_numpy(pixels).permute(0, 3, 1, 2).contiguous().to(device)
        self.corners = torch.from_numpy(corners).to(device)
        self.visible = torch.from_numpy(visible).to(device)
        self.train = torch.tensor([i for i, fr in enumerate(frames) if fr['split'] == 'train'], device=device)
        self.valid = torch.tensor([i for i, fr in enumerate(frames) if fr['split'] == 'valid'], device=device)


def windows(frames, idx, size, aug, augment=True):
    """
    `sampleWindow` for a batch: frames `idx` cut at a random zoom, turn and centre into [B,3,size,size]
    0..1, and each frame's cards in window pixels [B,K,4,2].
    """
    win = frames.manifest['window']
    b, dev = idx.shape[0], frames.pixels.device
    w, h = frames.width, frames.height
    zoom = torch.exp(aug.u(b, math.log(win['zoom'][0]), math.log(win['zoom'][1])))
    angle = aug.u(b, 0, 2 * math.pi)
    cos, sin = torch.cos(angle) / zoom, torch.sin(angle) / zoom
    half = size / 2
    cx = aug.u(b, *win['centre']) * w
    cy = aug.u(b, *win['centre']) * h
    # window (u, v) -> frame (x, y): x = cos u - sin v + c, y = sin u + cos v + f
    c = cx - cos * half + sin * half
    f = cy - sin * half - cos * half
    uu = torch.arange(size, device=dev, dtype=torch.float64) + 0.5
    gu, gv = torch.meshgrid(uu, uu, indexing='xy')  # gu varies along x (columns)
    x = cos[:, None, None] * gu - sin[:, None, None] * gv + c[:, None, None]
    y = sin[:, None, None] * gu + cos[:, None, None] * gv + f[:, None, None]
    inside = (x >= 0) & (x <= w) & (y >= 0) & (y <= h)
    grid = torch.stack([x * 2 / w - 1, y * 2 / h - 1], -1).float()
    src = frames.pixels[idx].float() / 255
    out = F.grid_sample(src, grid, mode='bilinear', padding_mode='border', align_corners=False)
    fill = torch.rand(b, 3, 1, 1, device=dev, generator=aug.gen) * win['outsideMax']
    out = torch.where(inside[:, None], out, fill)
    if augment:
        blurred = aug.u(b) < win['blurShare']
        wide = aug.u(b) < 0.5
        r1 = box_blur(out)
        r2 = F.avg_pool2d(out, 5, 1, 2, count_include_pad=False)
        out = torch.where((blurred & ~wide)[:, None, None, None], r1, torch.where((blurred & wide)[:, None, None, None], r2, out))
        out = aug.photometric(out, 1.0)
    # frame -> window: the inverse of the rotation-and-scale [[cos, -sin], [sin, cos]] (det = 1 / zoom²), then the shift
    det = cos * cos + sin * sin
    px = frames.corners[idx][..., 0] - c[:, None, None]
    py = frames.corners[idx][..., 1] - f[:, None, None]
    u = (cos[:, None, None] * px + sin[:, None, None] * py) / det[:, None, None]
    v = (-sin[:, None, None] * px + cos[:, None, None] * py) / det[:, None, None]
    return out, torch.stack([u, v], -1)


def encode_targets(corners, visible, size, t, stride):
    """
    `encodeLocatorTargets` for a batch: corners [B,K,4,2] in window pixels, visible [B,K] (-1: no
    card) -> targets [B,7,g,g] (heat, dx, dy, logShort, logAspect, cos2, sin2).
    """
    g = size // stride
    dev = corners.device
    tl, tr, br, bl = corners.unbind(2)
    d = lambda a, b_: torch.linalg.norm(a - b_, dim=-1)
    cx, cy = corners[..., 0].mean(-1), corners[..., 1].mean(-1)
    short = (d(tl, tr) + d(bl, br)) / 2
    long = (d(tl, bl) + d(tr, br)) / 2
    top, bottom = (tl + tr) / 2, (bl + br) / 2
    angle = torch.atan2(bottom[..., 1] - top[..., 1], bottom[..., 0] - top[..., 0])
    present = visible >= 0
    short = torch.where(present, short, torch.ones_like(short))
    long = torch.where(present, long, torch.ones_like(long))
    gx, gy = cx / stride - 0.5, cy / stride - 0.5
    sigma = torch.clamp(t['peakSigmaShare'] * short / stride, min=t['minPeakSigma'])
    reach = torch.ceil(3 * sigma)
    ix, iy = torch.floor(gx + 0.5), torch.floor(gy + 0.5)  # JavaScript's Math.round
    findable = present & (visible >= t['minFindVisible'])
    ambiguous = present & ~findable
    cells = torch.arange(g, device=dev, dtype=torch.float64)
    X = cells[None, None, None, :]
    Y = cells[None, None, :, None]
    E = lambda v: v[:, :, None, None]
    near = ((X - E(ix)).abs() <= E(reach)) & ((Y - E(iy)).abs() <= E(reach))
    value = torch.exp(-((X - E(gx)) ** 2 + (Y - E(gy)) ** 2) / (2 * E(sigma) ** 2))
    value = torch.where((X == E(ix)) & (Y == E(iy)), torch.ones_like(value), value)
    value = torch.where(near & E(findable), value, torch.zeros_like(value))  # [B,K,g,g]
    heat, winner = value.max(1)  # the first of equal peaks wins, as the TypeScript loop
    pick = lambda v: torch.gather(v[:, :, None, None].expand(-1, -1, g, g), 1, winner[:, None]).squeeze(1)
    claimed = heat > 0
    geometry = [
        pick(gx) - X[0], pick(gy) - Y[0],
        torch.log(pick(short) / stride), torch.log(pick(long) / pick(short)),
        torch.cos(2 * pick(angle)), torch.sin(2 * pick(angle)),
    ]
    geometry = [torch.where(claimed, v.expand_as(heat), torch.zeros_like(heat)) for v in geometry]
    # A sliver's centre (its 3x3 cells) is not scored where no findable card claims the cell.
    sliver = (((X - E(ix)).abs() <= 1) & ((Y - E(iy)).abs() <= 1) & E(ambiguous)).any(1)
    heat = torch.where(sliver & ~claimed, torch.full_like(heat, -1.0), heat)
    return torch.stack([heat, *geometry], 1).float()


def locator_loss(y_true, y_pred, geometry_floor):
    """`locatorLoss`: focal loss on the heat (penalty-reduced near a centre) plus heat-weighted L1 on the geometry."""
    target = y_true[:, :1]
    weight = (target >= 0).float()
    heat = target.clamp(min=0)
    logit = y_pred[:, :1]
    pos = (heat >= 0.999).float()
    p = torch.sigmoid(logit)
    pos_loss = F.softplus(-logit) * (1 - p) ** 2 * pos
    neg_loss = F.softplus(logit) * p ** 2 * (1 - heat) ** 4 * (1 - pos) * weight
    focal = (pos_loss + neg_loss).sum() / pos.sum().clamp(min=1)
    near = heat * (heat >= geometry_floor).float()
    l1 = ((y_true[:, 1:] - y_pred[:, 1:]).abs() * near).sum() / near.sum().clamp(min=1)
    return focal + l1


@torch.no_grad()
def window_scores(y_pred, y_true, threshold=0.35):
    """Peaks found (3x3 maxima above `threshold`) against target centres (heat 1): recall and precision on windows."""
    prob = torch.sigmoid(y_pred[:, :1])
    peak = (prob >= threshold) & (prob == F.max_pool2d(prob, 3, 1, 1))
    centre = y_true[:, :1] >= 0.999
    # A peak within one cell of a centre is right; a peak where the target is unscored counts neither way.
    near_centre = F.max_pool2d(centre.float(), 3, 1, 1) > 0
    found = F.max_pool2d(peak.float(), 3, 1, 1) > 0
    scored = y_true[:, :1] >= 0
    hits = (centre & found).sum().item()
    true_peaks = (peak & near_centre).sum().item()
    false_peaks = (peak & ~near_centre & scored).sum().item()
    return hits / max(centre.sum().item(), 1), true_peaks / max(true_peaks + false_peaks, 1)


# ---------------------------------------------------------------- training

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--pack', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--seconds', type=float, default=300, help='training time budget (the cosine schedule runs over it)')
    p.add_argument('--batch', type=int, default=64)
    p.add_argument('--window', type=int, default=256, help='window side in pixels (the TypeScript trainer uses 192)')
    p.add_argument('--lr', type=float, default=2e-3)
    p.add_argument('--weight-decay', type=float, default=1e-4)
    p.add_argument('--eval-every', type=float, default=30, help='seconds between validation passes')
    p.add_argument('--valid-windows', type=int, default=768)
    p.add_argument('--init', help='TF.js locator folder to start from (default: fresh weights)')
    p.add_argument('--check', action='store_true', help='no training: load --init, score it, write it back, and write the targets of fixed windows')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    args = p.parse_args()
    if args.window % 32:
        sys.exit('--window must be a multiple of 32')

    device = torch_device(args.device, args.seed)
    started = time.time()
    frames = Frames(args.pack, device)
    m = frames.manifest
    stride, t = m['stride'], m['targets']
    print(f'[locator] {len(frames.train)} training frames, {len(frames.valid)} validation frames, on {device} '
          f'({torch.cuda.get_device_name() if device.type == "cuda" else "cpu"}), loaded in {time.time() - started:.1f}s', flush=True)

    model = LocatorNet(len(m['channels'])).to(device)
    if args.init:
        load_tfjs(model, args.init)
    else:
        # Fresh weights: the heat starts at a 10 % prior (as CenterNet), not 50 %, or the first
        # steps are all the focal loss of a map that calls every cell a centre.
        with torch.no_grad():
            model.head.bias[0] = -math.log((1 - 0.1) / 0.1)

    # Fixed validation windows: the same every pass (augmented as in training, a fixed seed).
    valid_aug = Augmenter(None, device, 4242)
    valid_idx = frames.valid[torch.arange(args.valid_windows, device=device) % len(frames.valid)]
    valid_batches = []
    for start in range(0, args.valid_windows, 64):
        idx = valid_idx[start:start + 64]
        x, corners = windows(frames, idx, args.window, valid_aug)
        valid_batches.append((x, encode_targets(corners, frames.visible[idx], args.window, t, stride)))

    @torch.no_grad()
    def validate():
        model.eval()
        loss, recall, precision = 0.0, 0.0, 0.0
        for x, y in valid_batches:
            out = model(x)
            loss += float(locator_loss(y, out, t['geometryFloor']))
            r, pr = window_scores(out, y)
            recall += r
            precision += pr
        model.train()
        n = len(valid_batches)
        return loss / n, recall / n, precision / n

    def meta(step, seconds, extra):
        with open(os.path.join(TEMPLATE, 'model.json')) as f:
            md = dict(json.load(f)['userDefinedMetadata'])
        # The template's own scores and history are another model's.
        for stale in ('validAcc', 'heldoutDeckAcc', 'history', 'scoredOn', 'session'):
            md.pop(stale, None)
        md.update({'epoch': step, 'backend': f'pytorch-{torch.__version__}', 'trainedBy': 'datasets/gpu/train_locator.py', 'steps': step,
                   'seconds': round(seconds), 'window': args.window, 'batch': args.batch, 'lr': args.lr, 'seed': args.seed,
                   'init': args.init or 'fresh (heat prior 10 %)', **extra})
        return md

    if args.check:
        loss, recall, precision = validate()
        save_locator(model, args.out, meta(0, 0, {}))
        # Fixed windows for the TypeScript side to compare: the cards in window pixels and the
        # targets encoded here (test/locator-targets.test.ts holds one such file), the windows and
        # the net's outputs for them (the TF.js model must give the same).
        aug = Augmenter(None, device, 7)
        idx = frames.train[:2]
        size = 64
        x, corners = windows(frames, idx, size, aug, augment=False)
        y = encode_targets(corners, frames.visible[idx], size, t, stride)
        with torch.no_grad():
            model.eval()
            out = model(x)
        nhwc = lambda v: [round(float(a), 5) for a in v.permute(0, 2, 3, 1).reshape(-1).tolist()]
        cards = [[{'corners': corners[b, k].tolist(), 'visible': float(frames.visible[i, k])}
                  for k in range(corners.shape[1]) if frames.visible[i, k] >= 0] for b, i in enumerate(idx.tolist())]
        with open(os.path.join(args.out, 'check.json'), 'w') as f:
            json.dump({'size': size, 'cards': cards, 'targets': nhwc(y), 'windows': nhwc(x), 'outputs': nhwc(out)}, f)
        print(json.dumps({'validLoss': loss, 'windowRecall': recall, 'windowPrecision': precision, 'frames': idx.tolist()}))
        return

    opt = adamw(model, args.lr, args.weight_decay)
    aug = Augmenter(None, device, args.seed + 100)
    history, best = [], {'validLoss': float('inf')}
    step, loss_sum, seen = 0, 0.0, 0
    train_start = time.time()
    last_eval = train_start

    def evaluate():
        nonlocal loss_sum, seen, last_eval
        loss, recall, precision = validate()
        elapsed = time.time() - train_start
        row = {'step': step, 'seconds': round(elapsed, 1), 'windows': step * args.batch, 'lr': opt.param_groups[0]['lr'],
               'loss': loss_sum / max(seen, 1), 'validLoss': loss, 'windowRecall': recall, 'windowPrecision': precision}
        history.append(row)
        print(json.dumps(row), flush=True)
        loss_sum, seen = 0.0, 0
        last_eval = time.time()
        f1 = 2 * recall * precision / max(recall + precision, 1e-9)
        extra = {'validLoss': loss, 'windowRecall': recall, 'windowPrecision': precision, 'history': history}
        save_locator(model, os.path.join(args.out, 'last'), meta(step, elapsed, extra))
        if loss < best['validLoss']:
            best.update(row, f1=f1)
            save_locator(model, os.path.join(args.out, 'best'), meta(step, elapsed, extra))

    model.train()
    while True:
        progress = (time.time() - train_start) / args.seconds
        if progress >= 1:
            break
        set_schedule(opt, args.lr, step, progress)
        idx = frames.train[torch.randint(len(frames.train), (args.batch,), device=device, generator=aug.gen)]
        x, corners = windows(frames, idx, args.window, aug)
        y = encode_targets(corners, frames.visible[idx], args.window, t, stride)
        loss = locator_loss(y, model(x), t['geometryFloor'])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        if step % 10 == 0:
            loss_sum += float(loss.detach())
            seen += 1
        if time.time() - last_eval > args.eval_every:
            evaluate()
    evaluate()
    print(json.dumps({'model': 'locator', 'steps': step, 'windows': step * args.batch, 'seconds': round(time.time() - train_start),
                      'best': best, 'last': history[-1]}), flush=True)


if __name__ == '__main__':
    main()
