"""Export a Hugging Face encoder folder to ONNX (ids + attention mask in, last hidden state out)."""

from __future__ import annotations

import os
from pathlib import Path


def export_onnx(folder: Path, target: Path) -> None:
    """Write `target` atomically from the weights in `folder` (torch and the `onnx` package, lazily)."""
    import torch
    from transformers import AutoModel

    encoder = AutoModel.from_pretrained(str(folder), add_pooling_layer=False).eval()

    class _LastHidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder

        def forward(self, input_ids, attention_mask):
            return self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    sample = torch.ones(2, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with torch.no_grad():
        torch.onnx.export(_LastHidden().eval(), (sample, sample), str(tmp), input_names=["input_ids", "attention_mask"],
                          output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                          dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes})
    os.replace(tmp, target)
