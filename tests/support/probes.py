"""A probe that runs the CLI in a fresh interpreter and reports whether torch or ONNX Runtime (the embedding models'
runtimes) got imported."""

NO_TORCH_PROBE = (
    "import sys, json, io, contextlib; from desktop_rag.cli.main import main\n"
    "buf = io.StringIO()\n"
    "with contextlib.redirect_stdout(buf): rc = main(sys.argv[1:])\n"
    "print(json.dumps({'rc': rc, 'torch': 'torch' in sys.modules, 'onnxruntime': 'onnxruntime' in sys.modules,\n"
    "                  'out': buf.getvalue()}))\n"
)
