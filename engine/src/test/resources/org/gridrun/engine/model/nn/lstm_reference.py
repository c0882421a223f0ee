"""Reference loss, gradients and carried state of gridrun's LSTM language model, computed by PyTorch.

Usage: python3 lstm_reference.py DIR
DIR holds meta.txt (vocabulary units layers sequences steps), layout.txt (name and gridrun's shape per tensor),
params.f32 (gridrun's flat parameters), state.f32 (the carried state: per layer h then c, sequences x units each),
x1.f32 y1.f32 x2.f32 y2.f32 (two windows of token ids, time-major). The first window runs without gradient, its
final state is detached and starts the second, whose mean cross-entropy is differentiated, in double precision.
Writes loss.txt, grad.f32 (gridrun's flat layout) and state_out.f32.
"""
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, vocabulary, units, layers):
        super().__init__()
        self.encoder = nn.Embedding(vocabulary, units)
        self.rnn = nn.LSTM(units, units, layers)
        self.decoder = nn.Linear(units, vocabulary)
        self.decoder.weight = self.encoder.weight

    def forward(self, ids, hidden):
        out, hidden = self.rnn(self.encoder(ids), hidden)
        return self.decoder(out), hidden


def main(d):
    v, units, layers, b, t = (int(s) for s in open(d + "/meta.txt").read().split())
    model = RNNModel(v, units, layers).double()
    flat = np.fromfile(d + "/params.f32", dtype="<f4").astype(np.float64)
    params = dict(model.named_parameters())
    layout = [line.split() for line in open(d + "/layout.txt").read().splitlines()]
    offset = 0
    for name, shape in layout:
        p = params[name]
        n = p.numel()
        with torch.no_grad():
            p.copy_(torch.from_numpy(flat[offset:offset + n]).view(p.shape))
        offset += n
    assert offset == flat.size, (offset, flat.size)
    state = torch.from_numpy(np.fromfile(d + "/state.f32", dtype="<f4").astype(np.float64)).view(layers, 2, b, units)
    hidden = (state[:, 0].contiguous(), state[:, 1].contiguous())

    def window(name):
        ids = np.fromfile(d + "/" + name + ".f32", dtype="<f4").astype(np.int64)
        return torch.from_numpy(ids).view(t, b)

    with torch.no_grad():
        _, hidden = model(window("x1"), hidden)
    hidden = (hidden[0].detach(), hidden[1].detach())
    logits, hidden = model(window("x2"), hidden)
    loss = F.cross_entropy(logits.view(-1, v), window("y2").reshape(-1))
    loss.backward()
    open(d + "/loss.txt", "w").write(repr(loss.item()))
    grads = [params[name].grad.detach().numpy().ravel() for name, _ in layout]
    np.concatenate(grads).astype("<f4").tofile(d + "/grad.f32")
    out = torch.stack([hidden[0], hidden[1]], dim=1)
    out.detach().numpy().astype("<f4").tofile(d + "/state_out.f32")


if __name__ == "__main__":
    main(sys.argv[1])
