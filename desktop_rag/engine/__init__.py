"""The local engine: loading, chunking, storage, retrieval and answering. Never imports Qt."""
